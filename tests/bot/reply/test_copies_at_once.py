"""How many copies of a model one card holds at once (audit 29 M-68: "一张 A100 80G 能同时跑几个 7B 模型" was
answered "Yes: 14.7 GiB" with no count)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from bot.understand.slots.copies import asks_copies
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    "一张 A100 80G 能同时跑几个 7B 模型",
    "how many 7B models can I run at once on one A100 80GB?",
    "一張 A100 80G 能同時部署幾個 Qwen2.5-7B 實例",
    "how many copies of Llama-3.1-8B fit on one L40S with vLLM?",
    "how many instances of qwen 7b can one A100 hold",
    "一张4090能放几个 Qwen2.5-7B 副本",
])
def test_copies_asked(text: str) -> None:
    assert asks_copies(text)


@pytest.mark.parametrize("text", [
    "how many p5 instances do I need for llama 70b",
    "Qwen2.5-7B 同时跑几个请求",
    "能跑几个并发",
    "需要几个实例",
    "how many GPUs can run llama at once",
    "how many models do I need to run on a single card",
])
def test_other_counts_are_not_copies(text: str) -> None:
    assert not asks_copies(text)


def test_a_card_named_is_needed() -> None:
    assert not parse("how many 7B models can I run at once?", KB).asks_copies


def test_five_7b_copies_on_an_a100_80gb() -> None:
    # 14.72 GiB each (bf16 weights 13.0 + 4k cache + working memory); usable 79.5 GiB with the first context:
    # k copies take 14.72 k + 0.5 (k - 1) ≤ 79.5  →  k ≤ 80 / 15.22 = 5.26  →  5 (75.6 GiB)
    reply = ask_json("how many 7B models can I run at once on one A100 80GB?")
    figure = reply["copies_at_once"]
    assert figure["copies"] == 5
    assert figure["total_gb"] == pytest.approx(5 * figure["per_copy_gb"] + 4 * 0.5, abs=0.01)
    assert figure["total_gb"] <= figure["limit_gb"] < figure["total_gb"] + figure["per_copy_gb"] + 0.5
    assert "How many at once: 5 copies" in reply["text"]
    assert "one engine given the same memory as KV cache" in reply["text"]


def test_chinese_count_and_reserving_engine_share() -> None:
    assert "能同时放 5 份" in ask_json("一张 A100 80G 能同时跑几个 7B 模型")["text"]
    reply = ask_json("how many copies of Llama-3.1-8B fit on one L40S with vLLM?")
    figure = reply["copies_at_once"]
    assert figure["copies"] == 2 and figure["share"] == 0.5
    assert figure["share_needed"] <= figure["share"]
    assert "--gpu-memory-utilization 0.50 at most" in reply["text"]


def test_one_copy_or_none() -> None:
    one = ask_json("how many copies of Qwen2.5-32B can one A100 80GB hold at once?")
    assert one["copies_at_once"]["copies"] == 1 and "a second, in its own process" in one["text"]
    assert ask_json("how many copies of Llama-3.1-70B fit on one L40S?")["copies_at_once"] is None
    assert ask_json("Llama-3.1-8B on one A100 80GB")["copies_at_once"] is None


def test_a_size_only_model_is_named_in_the_replys_language() -> None:
    # audit 30 LOW-135: "== 7B model · 推理 ==" in a Chinese reply
    assert ask_json("一张 A100 80G 能同时跑几个 7B 模型")["text"].startswith("== 7B 模型 · 推理")
    assert ask_json("how many 7B models can I run at once on one A100 80GB?")["text"].startswith("== 7B model")
