"""An FP8 release on a card with no FP8: sized in the format that card serves it in, not dropped."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize("text", ["华为昇腾 910B 能跑 DeepSeek-R1 满血版吗？要几张？",
                                  "DeepSeek-R1 on Huawei Ascend 910B: how many cards?"])
def test_deepseek_r1_on_the_910b_is_w8a8_on_two_eight_card_nodes(text: str) -> None:
    # audit 18 M-4 / 19 M-10: the 910B has no FP8, so the FP8 release did not fit it and the card asked about
    # was dropped for A6000s. Served W8A8: 671B × 1 B ≈ 627 GiB of weights (plus 16-bit embeddings), ≈ 41 GiB a
    # card over 16 cards of 64 GB, two nodes of eight
    result = answer(parse(text, KB), KB)
    top = result.picks[0]
    assert (top.gpu, top.count, top.fits) == ("ascend-910b", 16, True)
    assert result.query.precision == "int8"
    assert any(a.field == "precision" and a.reason == "no-fp8-on-gpu-int8" for a in result.assumptions)


def test_an_nvidia_card_with_no_fp8_path_is_sized_in_16_bits() -> None:
    # a V100 runs neither FP8 (not even vLLM's weight-only path, which needs Turing) nor vLLM's INT8 W8A8
    result = answer(parse("DeepSeek-V3 on V100s how many", KB), KB)
    assert result.query.precision == "fp16" and result.picks[0].gpu.startswith("v100")


def test_a_card_that_runs_fp8_keeps_the_release() -> None:
    assert answer(parse("DeepSeek-R1 on H200s how many", KB), KB).query.precision == "fp8"
    # Ampere runs it weight-only under vLLM: the FP8 bytes stay
    assert answer(parse("DeepSeek-R1 on A100 80GB how many", KB), KB).query.precision == "fp8"
