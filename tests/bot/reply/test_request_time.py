"""A request's latency asked ("p95 latency", "首 token 延迟多少"): its first token and total time on the configuration
timed, from the same prefill and decode rules as the rest of the reply."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "asks"), [
    ("llama 3.1 8b on 1x L4, p95 latency for 512 output tokens with 4 concurrent users?", True),
    ("Qwen2.5-7B 在一张 L20 上，输入 2000 token 输出 300 token，首 token 延迟多少？", True),
    ("Qwen2.5-7B 部署在 4090 上，響應時間大概多少", True),
    ("how long does a request take for Llama 3.1 8B on an A100?", True),
    ("how long to LoRA Llama 3.1 8B on 1B tokens on one H100?", False),
    ("can I run Llama-3-8B on an A10?", False),
])
def test_a_latency_asked_is_read(text: str, asks: bool) -> None:
    assert parse(text, KB).asks_latency is asks


def test_first_token_and_total_follow_the_prefill_and_decode_figures() -> None:
    result = answer(parse("Qwen2.5-7B 在一张 L20 上，输入 2000 token 输出 300 token，首 token 延迟多少？", KB), KB)
    speed = result.speed
    decode, prefill = speed["decode_tokens_per_s"], speed["prefill_tokens_per_s"]
    assert decode and prefill
    assert (speed["request_prompt_tokens"], speed["request_output_tokens"]) == (2000, 300)
    # one prompt's prefill at the prefill rate (batch 1) and one decode step, then 299 more steps
    assert speed["first_token_s"] == pytest.approx(2000 / prefill + 1 / decode, rel=0.02)
    assert speed["request_s"] == pytest.approx(speed["first_token_s"] + 299 / decode, rel=0.01)
    text = render_text(result, kb=KB)
    assert "单个请求（输入 2,000 token，输出 300 token）" in text and "首 token 约" in text


def test_no_request_time_unless_asked() -> None:
    result = answer(parse("Qwen2.5-7B on one L20, 2000 tokens in and 300 out", KB), KB)
    assert result.speed.get("request_s") is None
