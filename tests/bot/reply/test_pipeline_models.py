"""A pipeline of models named with its load is sized by its generator, the others said beside it (audit 31
HIGH 79: a RAG stack for 100 users sized as its embedder alone, one card)."""

from __future__ import annotations

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_the_generator_is_sized_and_the_small_models_named() -> None:
    text = ("RAG stack: bge-m3 embeddings + bge-reranker-v2-m3 + Qwen2.5-14B generation for 100 concurrent users "
            "at 8k, total GPUs?")
    question = parse(text, KB)
    assert question.model == "qwen2.5-14b" and question.companion_models == ["bge-m3", "bge-reranker-v2-m3"]
    reply = ask_json(text)
    # 100 × 8,192 × 192 KiB ≈ 150 GiB of KV cache beside 27.5 GiB of weights: several 80 GB cards, not one
    assert reply["picks"][0]["count"] * reply["picks"][0]["memory_per_gpu_gb"] > 150
    assert "BGE-M3 ≈ 1.1 GiB" in reply["text"] and "Sized below is Qwen2.5-14B" in reply["text"]


def test_models_together_on_one_card_and_models_compared_stay_as_they_were() -> None:
    assert parse("bge-m3 and Qwen2.5-14B together on one A100 80GB?", KB).stack_models == ["qwen2.5-14b"]
    compared = parse("Qwen2.5-7B vs bge-m3", KB)
    assert compared.intent == "compare" and compared.companion_models == []
