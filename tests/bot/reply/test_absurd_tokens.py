"""A token count beyond any published pre-training corpus is sized as written and said to be one (audit 25
LOW-46), and hours in the millions carry no tenth of an hour."""

from __future__ import annotations

from bot.reply.formatting import hours_figure
from tests.bot.reply._answers import ask_json


def test_hours_keep_a_tenth_only_below_a_hundred() -> None:
    assert (hours_figure(7.25), hours_figure(99.94), hours_figure(105_218_855.2)) == ("7.2", "99.9", "105,218,855")


def test_five_hundred_trillion_tokens_are_checked_against_the_largest_corpus() -> None:
    text = ask_json("How long does a LoRA fine-tune of Llama 3.1 8B on 500 trillion tokens take on one L4?")["text"]
    # 500e12 / 36e12 ≈ 13.9
    assert "500T tokens is about 14 times the largest pre-training corpus" in text
    assert ".2 h" not in text and "years for the 500T tokens" in text


def test_a_large_but_real_corpus_gets_no_note() -> None:
    text = ask_json("用 8 张 H100 预训练一个 7B 模型，15T token 要多久")["text"]
    assert "预训练语料" not in text and "在 8× H100 SXM5 80GB 上训练 15T token" in text


def test_a_number_beyond_its_bound_is_said_with_the_value_asked() -> None:
    # audit 26 LOW-55: "2 billion concurrent users" became 10,000,000 with only "…set to the nearest value: batch"
    reply = ask_json("We want to serve Llama 3.1 8B to 2 billion concurrent users at 4k context. How many H100s?")
    lines = reply["text"].splitlines()
    assert any(line.endswith("batch (2,000,000,000 asked)") for line in lines)
    assert "{" not in lines[2]  # the value asked is not read back as a slot of its own
    chinese = ask_json("用 8 张 H100 跑 Llama 3 8B，上下文 50000000")["text"]
    assert "上下文（所写为 50,000,000）" in chinese


def test_a_context_far_past_the_models_window_is_said_unusable() -> None:
    # audit 28 LOW-87: a 50-million-token "context window" for Qwen3-8B was sized without a word on its window
    from tests.bot.reply._answers import ask_json

    text = ask_json("Can I run Qwen3-8B with a 50 million token context window for a single user on one RTX 4090?")[
        "text"]
    assert "Qwen3-8B reads at most 40,960 tokens" in text
    assert "reads at most" not in ask_json("Qwen3-8B at 128k context with YaRN on one H100")["text"]


def test_a_batch_beyond_any_published_run_is_said_to_make_the_time_a_floor() -> None:
    # audit 32 M-107: 100,000 H100s (the bound of 1,000,000) "train" a 7B on 1T tokens in 14 minutes with no word
    # that each step then takes 100,000 × 1 × 4,096 = 410M tokens, 26× Llama 3 405B's 16M-token batch
    text = ask_json("用一百万张 H100 训练 7B 模型 1T token 要多久")["text"]
    assert "在 100,000 张卡上每一步要处理 410M token" in text and "的 26 倍" in text
    usual = ask_json("train a 7B model on 1T tokens on 1024 H100s, how long")["text"]  # 4.2M-token steps
    assert "each step takes" not in usual
