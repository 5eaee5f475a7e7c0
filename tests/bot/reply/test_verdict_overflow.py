"""A fit asked the other way round ("will it spill to CPU?", "will it OOM?", "会爆显存吗") is answered in words
that say which way it goes: a bare "Yes" to "will it spill" read as "it spills" (audit 24 LOW-32)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _verdict(text: str) -> str:
    result = answer(parse(text, KB), KB)
    return next(line for line in render_text(result, kb=KB).splitlines() if "GiB per card" in line
                or "每卡需要" in line)


@pytest.mark.parametrize(("question", "opening"), [
    ("gemma 3 27b q4 on my 3090, will it spill to cpu?", "It fits, with nothing spilled: it needs"),
    ("will Qwen2.5-14B fp16 OOM on a 4090?", "It does not fit: it needs"),  # 14.8B × 2 B = 27.5 GiB of weights
    ("Qwen2.5-7B 在 4090 上会爆显存吗", "放得下，不会爆显存：每卡需要"),
    ("Qwen2.5-14B fp16 在 4090 上會爆顯存嗎", "放不下，會爆顯存：每卡需要"),
    ("can I run Qwen2.5-7B on a 4090?", "Yes: it needs"),  # asked the usual way round: the usual answer
    ("can I run Qwen2.5-14B fp16 on a 4090?", "No: it needs"),
])
def test_the_verdict_answers_the_question_the_way_it_was_asked(question: str, opening: str) -> None:
    assert _verdict(question).startswith(opening)


def test_the_readback_does_not_print_the_cue() -> None:
    # audit 25 LOW-53 (a regression of the fix above): "I read this as: … · 64 GB of RAM · True"
    for question in ("gemma 3 27b q4 on my 3090, will it spill to cpu?", "Qwen2.5-7B 在 4090 上会爆显存吗"):
        text = render_text(answer(parse(question, KB), KB), kb=KB)
        readback = text.splitlines()[2]
        assert readback.startswith(("I read this as", "我的理解")) and "True" not in readback
