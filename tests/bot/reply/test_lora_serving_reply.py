"""Multi-LoRA serving is answered as inference with the engine's adapter slots, not as LoRA training."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json

A10G = "Multi-LoRA serving: 50 LoRA adapters of rank 16 on Llama 3.1 8B with vLLM on one A10G, how much memory?"


def test_a10g_repro_is_inference_and_fits() -> None:
    result = ask_json(A10G)
    assert result["query"]["task"] == "inference"
    assert result["query"]["engine"] == "vllm"
    assert result["check"]["fits"] is True
    # 16.8 GiB for the model alone on vLLM + one rank-16 slot of 0.078 GiB (vLLM --max-loras 1)
    assert result["estimate"]["per_gpu_gb"] == pytest.approx(16.9, abs=0.3)
    breakdown = result["estimate"]["breakdown"]
    assert breakdown["gradients"] == 0.0 and breakdown["optimizer"] == 0.0
    assert "vllm-lora-slots" in result["estimate"]["notes"]
    assert {"field": "max_loras", "value": 1, "reason": "vllm-lora-slots"} in result["assumptions"]
    text = result["text"]
    assert text.startswith("== Llama 3.1 8B · inference · 1× A10G ==")
    assert "I read this as: Llama 3.1 8B · inference · vLLM · 1× A10G · 50 LoRA adapters · LoRA rank 16" in text
    assert "Yes: it needs 16.9 GiB per card" in text
    assert "LoRA fine-tuning" not in text and "Optimizer" not in text and "Gradients" not in text
    assert "LoRA adapter slots on the card 1 (vLLM's --max-loras default" in text
    assert "the other adapters wait in CPU RAM" in text


def test_chinese_repro_reads_back_the_adapters() -> None:
    result = ask_json("vLLM 多 LoRA 部署：Qwen2.5-7B 挂 100 个 LoRA，需要多少显存？")
    assert result["query"]["task"] == "inference"
    assert "Qwen2.5-7B · 推理 · vLLM · 100 个 LoRA 适配器" in result["text"]
    assert result["estimate"]["breakdown"]["optimizer"] == 0.0


def test_no_engine_named_is_served_by_vllm() -> None:
    result = ask_json("多 LoRA 服務：一張 A100 80GB 上 Llama 3.1 8B 掛 30 個 LoRA adapter 可以嗎？")
    assert result["query"]["task"] == "inference" and result["query"]["engine"] == "vllm"
    assert {"field": "engine", "value": "vllm", "reason": "multi-lora-serving"} in result["assumptions"]
    assert result["check"]["fits"] is True
    assert "30 個 LoRA 適配器" in result["text"]


def test_stated_slots_are_read_back_with_the_engines_flag() -> None:
    result = ask_json("serve llama 3.1 8b with vllm --enable-lora --max-loras 32 --max-lora-rank 64 on an L4")
    # 32 slots × rank 64 = 128 rank-16 slots of 0.078125 GiB: 10 GiB beside the 15 GiB of weights
    assert result["estimate"]["breakdown"]["weights"] == pytest.approx(15.0 + 10.0, abs=0.1)
    assert "--max-loras 32 (adapters on the card at once)" in result["text"]
    assert not any(a["field"] == "max_loras" for a in result["assumptions"])
