"""A model's advertised window beside the length a request has: the request's length is sized (audit 39 HIGH-120:
"Llama 4 Scout supports 10M context … a single 1M-token request" was sized at 10M tokens, 9× the KV cache)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "context"), [
    ("Llama 4 Scout supports 10M context. How much GPU memory do I need for a single 1M-token request in bf16?",
     1_048_576),
    ("Qwen2.5-7B supports 128k context; we use 8k prompts, which GPU?", 8_192),
    ("Qwen2.5-72B 支持 128k 上下文，我们只用 32k，要几张卡", 32_768),
])
def test_the_requests_length_is_sized_not_the_advertised_window(text: str, context: int) -> None:
    assert parse(text, KB).context == context


@pytest.mark.parametrize(("text", "context"), [
    ("Yi-34B supports 200k context, which GPU to run it?", 204_800),  # the window alone is the length asked about
    ("GLM-4-9B-Chat-1M has a 1M context window, how much memory at full context?", 1_048_576),
])
def test_the_advertised_window_alone_is_the_length(text: str, context: int) -> None:
    assert parse(text, KB).context == context
