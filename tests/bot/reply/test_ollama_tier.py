"""Ollama's default context follows the VRAM of the whole machine (OLLAMA_CONTEXT_TIERS): a job sized at one card's
tier and answered with several cards would start at a longer context there, so the reply says to set it."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_a_pick_of_many_cards_says_ollama_would_start_at_a_longer_context() -> None:
    reply = ask_json("we run llama 3.3 70b q4 on ollama with rtx 4090s, 3 users, want like 20 tok/s. how many 4090s?")
    top = reply["picks"][0]
    assert (top["gpu"], reply["query"]["context"]) == ("rtx-4090", 32_768) and top["count"] * 24 >= 47
    # 8 × ≈ 24 GiB visible (24,564 MiB each) is ≈ 192 GiB, past the 47 GiB tier: 262,144, capped at Llama 3.3's
    # 131,072 window (4×)
    assert (f"On {top['count']}× GeForce RTX 4090" in reply["text"]
            and "Ollama starts this model at 131,072 tokens, not the 32,768 sized here, with 4× the KV cache"
            in reply["text"] and "OLLAMA_CONTEXT_LENGTH=32768" in reply["text"])


def test_no_word_when_the_cards_stay_in_the_tier_sized() -> None:
    assert "Ollama starts this model" not in ask_json("ollama qwen2.5 7b on one 4090")["text"]
    assert "Ollama 默认按" not in ask_json("ollama 跑 qwen2.5 72b q4，用几张 4090")["text"]  # capped at its 32k window


def test_another_cards_default_does_not_open_a_check() -> None:
    # audit 30 LOW-129: the check of the 4070 Ti opened with "On 1× RTX A6000 … Ollama starts this model at 32,768"
    from tests.bot.reply._answers import ask_json

    text = ask_json("qwen2.5:32b on an RTX 4070 Ti 12GB with Ollama, how fast?")["text"]
    assert "Ollama starts this model at" not in text.split("\n\n")[1]


def test_two_of_the_card_asked_are_no_notice_before_the_read_back() -> None:
    # audit 32 LOW-174: "ollama run gpt-oss:20b on my RTX 3060 12GB" opened with "On 2× GeForce RTX 3060 12GB …
    # Ollama starts this model at 32,768 tokens", a set-up the asker does not have, before "I read this as"
    text = ask_json("ollama run gpt-oss:20b on my RTX 3060 12GB")["text"]
    assert "Ollama starts this model at" not in text
