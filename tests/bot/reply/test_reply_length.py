"""A plan sized at an assumed reply length says what a short reply would take (audit 24 LOW-38)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
ASKED = ("TensorRT-LLM on 2x H100 for gpt-oss-120b: can we keep time-to-first-token under 500 ms with 4k-token "
         "prompts at 10 requests per second?")


def test_an_assumed_reply_length_that_sets_the_count_is_weighed_against_a_short_one() -> None:
    result = answer(parse(ASKED, KB), KB)
    plan = result.serving
    assert plan is not None and plan.targets["assumed_reply_tokens"] == 2048
    short = plan.targets["short_reply_replicas"] * plan.targets["short_reply_cards"]
    assert short < plan.replicas * plan.gpus_per_replica
    # asked with the short reply, the plan is the one the line names
    stated = answer(parse(ASKED.replace("4k-token prompts", "4k-token prompts, 256-token answers"), KB), KB)
    assert stated.serving is not None and "short_reply_tokens" not in stated.serving.targets
    assert stated.serving.replicas * stated.serving.gpus_per_replica == short
    assert "with 256-token replies the same rate takes" in render_text(result, kb=KB)
