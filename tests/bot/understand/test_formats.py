"""bot.understand.slots.formats: weight formats set against each other are each sized, the first leading."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "formats", "precision", "quant"), [
    ("Llama 3.1 70B on 2x L40S: AWQ, GPTQ or FP8 — which one fits?", ["awq", "gptq", "fp8"], "int4", "awq"),
    ("Qwen2.5-72B int4 还是 fp8 放得下 2 张 A100 吗", ["int4", "fp8"], "int4", None),
    ("Llama 3 8B fp16 vs int8 vs 4-bit on a T4", ["fp16", "int8", "int4"], "fp16", None),
])
def test_formats_joined_by_or_vs_or_commas_are_compared(text: str, formats: list[str], precision: str,
                                                       quant: str | None) -> None:
    question = parse(text, KB)
    assert question.compare_formats == formats
    assert question.precision == precision and question.quant == quant


@pytest.mark.parametrize("text", ["Qwen2.5-7B AWQ on an A10", "Llama 3 8B in fp16 with an fp8 KV cache on an L4",
                                  "Qwen2.5-7B gptq-int4 on a T4"])
def test_one_format_or_formats_for_different_things_are_no_comparison(text: str) -> None:
    assert parse(text, KB).compare_formats == []
