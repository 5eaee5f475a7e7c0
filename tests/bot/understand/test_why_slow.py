""""Why is X slow on my card?" is the job sized on that card (audit 30 HIGH 64: the help card answered it)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    "Why is qwen2.5:32b so slow in Ollama on my RTX 4070 Ti 12GB (about 3 tok/s)? 64 GB RAM.",
    "Why is Qwen2.5-32B so slow on my RTX 4070 Ti 12GB?",
    "为什么 Qwen2.5-32B 在我的 RTX 4070 Ti 12GB 上这么慢？",
])
def test_a_slow_job_on_a_named_card_is_checked(text: str) -> None:
    question = parse(text, KB)
    assert (question.intent, question.model, question.gpu) == ("check", "qwen2.5-32b", "rtx-4070-ti")


def test_why_about_a_model_alone_stays_an_faq() -> None:
    assert parse("why does llama 70b need several GPUs?", KB).intent == "faq"
