"""ExLlama's bits per weight ("exl2 4.0bpw") read as the weight format, never passed over for 16-bit weights."""

from __future__ import annotations

import pytest

from bot.reply.request import answer_request
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "quant", "precision"), [
    ("run Qwen2.5-14B exl2 4.0bpw on a 3090", "bpw-4", "int4"),
    ("Llama-3-70B 2.5bpw exl2 on a 4090", "bpw-2.5", "int4"),
    ("Qwen2.5-32B at 6.5 bpw on 2x 3090 with exllama", "bpw-6.5", "int8"),
    ("Mistral-7B, 4.65 bits per weight, on a 3060", "bpw-4.65", "int4"),
])
def test_bits_per_weight_are_the_weight_format(text: str, quant: str, precision: str) -> None:
    q = parse(text, KB)
    assert (q.quant, q.precision) == (quant, precision)
    assert q.context is None and q.batch is None  # "4.0" or "2.5" is not read as anything else


def test_bits_outside_what_the_format_makes_are_not_read() -> None:
    assert parse("Llama-3-8B 12bpw on a 4090", KB).quant is None


def test_the_quant_flag_takes_an_exl2_name_and_implies_its_precision() -> None:
    result = answer_request({"text": "", "model": "qwen2.5-14b", "quant": "exl2-4.65", "gpu": "rtx-3090"}, KB)
    assert result.query.quant == "exl2-4.65" and result.query.precision == "int4"
    assert result.estimate is not None and result.estimate.breakdown.weights < 9.0  # 4.65 bits, not 16
