"""A Mac named beside a card: the same job on the Mac, on a line of its own, against the card's speed."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "gpu", "mac"), [
    ("Mac mini M4 Pro 64GB vs RTX 5090 for Qwen2.5-Coder-32B Q4_K_M: which is faster at decode?", "rtx-5090",
     ("m4-pro", 64.0)),
    ("RTX 4090 or a 128GB Mac Studio M2 Ultra for llama 3 70b q4?", "rtx-4090", ("m2-ultra", 128.0)),
    ("4090 和 M3 Max 36GB 跑 Qwen2.5-14B 哪个快", "rtx-4090", ("m3-max", 36.0)),
    ("RTX 3090 vs MacBook Pro M3 Max for llama 3 8b", "rtx-3090", ("m3-max", None)),
])
def test_a_mac_beside_a_card_is_read_and_the_card_stays_the_machine_sized(
        text: str, gpu: str, mac: tuple[str, float | None]) -> None:
    question = parse(text, KB)
    assert (question.gpu, question.mac_beside) == (gpu, mac)


def test_the_mac_gets_its_fit_and_decode_beside_the_cards() -> None:
    # audit 19 M-5 (e13): the Mac was dropped. Qwen2.5-Coder-32B Q4_K_M reads ≈ 19 GB a token: at the M4 Pro's
    # 273 GB/s that is at most ≈ 14 tok/s, about 10–12 in practice; the 5090's 1,792 GB/s about 5× that
    result = answer(parse("Mac mini M4 Pro 64GB vs RTX 5090 for Qwen2.5-Coder-32B Q4_K_M: which is faster at "
                          "decode?", KB), KB)
    mac = result.mac_beside
    assert mac is not None and mac["fits"] is True and mac["bandwidth_gbps"] == 273
    assert 9 <= mac["decode_tokens_per_s"] <= 14
    card = result.speed["decode_tokens_per_s"]
    assert card and 3.5 < card / mac["decode_tokens_per_s"] < 6
    text = render_text(result, KB)
    assert "Apple M4 Pro" in text and "GeForce RTX 5090 decodes ≈" in text


def test_a_mac_too_small_for_the_job_says_so() -> None:
    # Qwen2.5-14B in bf16 is ≈ 28 GiB; a 36 GB Mac lets its GPU use about two thirds of it
    result = answer(parse("4090 和 M3 Max 36GB 跑 Qwen2.5-14B 哪个快", KB), KB)
    assert result.mac_beside is not None and result.mac_beside["fits"] is False
    assert result.mac_beside["need_gib"] > result.mac_beside["usable_gib"]
    assert "放不下" in render_text(result, KB)

