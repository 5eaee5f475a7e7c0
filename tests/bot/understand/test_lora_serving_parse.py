"""Serving LoRA adapters is inference (bot/understand/slots/lora_serving.py); fine-tuning with LoRA stays training."""

from __future__ import annotations

from typing import Any

import pytest

from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge

SERVING: list[tuple[str, dict[str, Any]]] = [
    ("Multi-LoRA serving: 50 LoRA adapters of rank 16 on Llama 3.1 8B with vLLM on one A10G, how much memory?",
     dict(intent="check", model="llama-3.1-8b", task="inference", engine="vllm", gpu="a10g", gpu_count=1,
          lora_adapters=50, lora_rank=16, max_loras=None, batch=None, lang="en",
          stated=["model", "task", "engine", "gpu", "gpu_count", "lora_adapters", "lora_rank"])),
    ("inference with vLLM --enable-lora, 20 LoRA adapters on Llama 3.1 8B, one A10G",
     dict(intent="check", model="llama-3.1-8b", task="inference", engine="vllm", gpu="a10g", gpu_count=1,
          lora_adapters=20, lora_rank=None, max_loras=None, batch=None, lang="en")),
    ("vLLM 多 LoRA 部署：Qwen2.5-7B 挂 100 个 LoRA，需要多少显存？",
     dict(intent="recommend", model="qwen2.5-7b", task="inference", engine="vllm", gpu=None, gpu_count=None,
          lora_adapters=100, lora_rank=None, max_loras=None, batch=None, lang="zh-Hans")),
    ("多 LoRA 服務：一張 A100 80GB 上 Llama 3.1 8B 掛 30 個 LoRA adapter 可以嗎？",
     dict(intent="check", model="llama-3.1-8b", task="inference", engine=None, gpu="a100-80gb", gpu_count=1,
          lora_adapters=30, lora_rank=None, max_loras=None, batch=None, lang="zh-Hant")),
]

TRAINING: list[tuple[str, dict[str, Any]]] = [
    ("LoRA fine-tune Llama 3 8B", dict(model="llama-3-8b", task="lora", lora_adapters=None, max_loras=None)),
    ("用LoRA微调Qwen-14B，显卡怎么选", dict(model="qwen-14b", task="lora", lora_adapters=None, max_loras=None)),
    ("train 3 LoRA adapters of rank 16 for Qwen2.5 7B on one A100",
     dict(model="qwen2.5-7b", task="lora", lora_rank=16, lora_adapters=None, max_loras=None)),
]

FLAGS: list[tuple[str, dict[str, Any]]] = [
    ("serve llama 3.1 8b with vllm --enable-lora --max-loras 8 --max-lora-rank 64 on an L4",
     dict(task="inference", engine="vllm", max_loras=8, lora_rank=64, lora_adapters=None, batch=None)),
    ("I have 20 LoRA adapters for Llama 3.1 8B, serve them on SGLang with --max-loras-per-batch 4 on an L4",
     dict(task="inference", engine="sglang", lora_adapters=20, max_loras=4, batch=None)),
    ("Deploy 10 fine-tuned LoRA adapters on Qwen2.5-7B with all 10 active at once",
     dict(task="inference", lora_adapters=10, max_loras=10)),
    ("部署 Qwen2.5-7B，挂三个LoRA，r=8", dict(task="inference", lora_adapters=3, lora_rank=8, max_loras=None)),
]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


def _check(kb: KnowledgeBase, text: str, expect: dict[str, Any]) -> None:
    question = parse(text, kb)
    got = {key: getattr(question, key) for key in expect}
    assert got == expect, text


@pytest.mark.parametrize(("text", "expect"), SERVING, ids=[text[:40] for text, _ in SERVING])
def test_serving_adapters_is_inference(kb: KnowledgeBase, text: str, expect: dict[str, Any]) -> None:
    _check(kb, text, expect)


@pytest.mark.parametrize(("text", "expect"), TRAINING, ids=[text[:40] for text, _ in TRAINING])
def test_lora_fine_tuning_stays_training(kb: KnowledgeBase, text: str, expect: dict[str, Any]) -> None:
    _check(kb, text, expect)


@pytest.mark.parametrize(("text", "expect"), FLAGS, ids=[text[:40] for text, _ in FLAGS])
def test_engine_flags_and_all_active(kb: KnowledgeBase, text: str, expect: dict[str, Any]) -> None:
    _check(kb, text, expect)


@pytest.mark.parametrize("text", [
    # audit 23 M-21: "LoRA" counted as a training word made "32 concurrent" a team, and the memory one sequence's
    "vLLM with 20 LoRA adapters on top of Llama 3.1 8B on one L40S, max rank 64, 32 concurrent at 4k: memory?",
    "serve 20 LoRA adapters on Llama 3.1 8B, 32 concurrent at 4k, one L40S",
])
def test_concurrent_sequences_beside_served_adapters_are_the_batch(text: str, kb: KnowledgeBase) -> None:
    question = parse(text, kb)
    assert (question.batch, question.lora_adapters, question.context) == (32, 20, 4096)


def test_people_who_fine_tune_are_still_a_team_not_a_batch(kb: KnowledgeBase) -> None:
    assert parse("5 people in our team want to LoRA fine-tune Llama 3 8B on an A100", kb).batch is None
