"""The request rate a set-up sustains, when it is asked (audit 27 M-38)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_the_rate_a_set_up_sustains_is_given_when_asked() -> None:
    # audit 27 M-38: "how many requests per second can it sustain" got a plan for one user. 3,072 tokens a
    # request through a replica that prefills ≈ 9.5k tok/s: ≈ 3 requests a second
    result = answer(parse("TensorRT-LLM on one 8x H200 node with Llama 3.1 405B FP8, 2k tokens in and 1k out per "
                          "request: how many requests per second can it sustain while keeping TTFT under 3 s?", KB), KB)
    plan = result.serving
    assert plan is not None and plan.targets.get("max_qps")
    prefill = plan.targets["max_qps_prefill"]
    assert plan.targets["max_qps"] == round(plan.replicas * prefill / 3_072, 2)
    assert 2.0 < plan.targets["max_qps"] < 5.0
    assert "The most it sustains: ≈ " in render_text(result)
