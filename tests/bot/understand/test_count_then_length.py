"""A count of sequences at once with each one's length between them (audit 30 HIGH 59: "64 concurrent 4k requests"
was 4,000 at once, "32 concurrent 8k chats" lost its length to a count of 8,000 training samples)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "context", "batch"), [
    ("Llama-3.1-70B fp8, 64 concurrent 4k requests, how many H100?", 4096, 64),
    ("Qwen2.5-7B, 10 concurrent 32k requests on an A100?", 32768, 10),
    ("Llama-3.1-8B: 32 concurrent 8k chats on an L40S?", 8192, 32),
    ("we need 8 simultaneous 16k conversations with Qwen2.5-14B, what GPU?", 16384, 8),
    ("serve 100 simultaneous 2k requests of Qwen2.5-7B, which GPU?", 2048, 100),
    ("Qwen2.5-14B 要支持 50 个 8k 的并发请求，几张 L20？", 8192, 50),
    ("Qwen2.5-14B 支援 50 個 8k 的併發請求，要幾張 L20？", 8192, 50),
    ("Qwen2.5-14B，50 路 8k 并发", 8192, 50),
])
def test_the_length_is_no_count(text: str, context: int, batch: int) -> None:
    question = parse(text, KB)
    assert (question.context, question.batch) == (context, batch)
    assert question.users is None and question.training_samples is None


def test_a_count_alone_stays_a_count() -> None:
    assert parse("Qwen2.5-7B for 4k concurrent users", KB).batch == 4000 or parse(
        "Qwen2.5-7B for 4k concurrent users", KB).users == 4000
    assert parse("Llama-3.1-8B with 64 concurrent requests at 4k context", KB).context == 4096


def test_a_second_group_beyond_the_bound_is_said_under_its_own_name() -> None:
    # the clamp had been recorded under "batch", naming a slot the text did not set
    question = parse("Qwen2.5-14B for 8 analysts at 128k plus 50,000,000 short chats", KB)
    assert question.more_sequences == 10_000_000
    assert "more_sequences" in question.clamped and "batch" not in question.clamped
