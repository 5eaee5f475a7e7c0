""""How many users can it serve?": one replica of a serving engine at the most sequences it holds."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json as _ask


def test_the_k_in_how_many_8k_users_is_each_users_context() -> None:
    answer = _ask("llama 3.1 405b fp8 on 8x H100: how many concurrent 8k users?")
    assert answer["query"]["context"] == 8192  # not 8,000 users capped at the batch bound
    assert answer["query"]["batch"] == 1
    assert answer["query"]["engine"] == "vllm"
    serving = answer["serving"]
    assert serving["binding"] == "concurrency" and serving["replicas"] == 1
    assert serving["sequences_per_replica"] > 1
    assert "sequences of 8,192 tokens at once" in answer["text"]


@pytest.mark.parametrize("text", ["how many users can llama 3 8b serve on one L4?",
                                  "8张H100跑Qwen2.5-72B能支持多少并发"])
def test_the_cards_named_are_checked_and_loaded(text: str) -> None:
    answer = _ask(text)
    assert answer["check"] is not None and answer["check"]["fits"] is True
    serving = answer["serving"]
    assert serving["binding"] == "concurrency"
    assert serving["gpu"] == answer["query"]["gpu"]
    # the plan's sequences are those the pick line says fit on the same cards
    top = next(p for p in answer["picks"] if p["gpu"] == serving["gpu"] and p["count"] == serving["gpus_per_replica"])
    assert top["max_concurrent_sequences"] is not None
    assert serving["sequences_per_replica"] <= top["max_concurrent_sequences"]


def test_a_stated_user_count_is_a_target_not_a_question() -> None:
    answer = _ask("llama 3 8b for 64 users on an A100")
    assert answer["query"]["batch"] == 64
    assert answer["serving"] is None or answer["serving"]["binding"] != "concurrency"
