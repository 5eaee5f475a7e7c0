"""Small knowledge-base fixtures written to tmp_path (never the shipped data, which keeps growing)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

MODEL: dict[str, Any] = {
    "id": "llama-2-7b",
    "name": "Llama 2 7B",
    "aliases": ["llama2-7b"],
    "family": "Llama 2",
    "org": "Meta",
    "modality": "text",
    "arch": "decoder",
    "params_b": 6.74,
    "params_b_computed": 6.74,
    "num_layers": 32,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_kv_heads": 32,
    "head_dim": 128,
    "attention": "mha",
    "intermediate_size": 11008,
    "mlp": "gated",
    "vocab_size": 32000,
    "kv_cache_kib_per_token_16bit": 512.0,
    "source": ["meta-llama/Llama-2-7b-hf config.json"],
}
MOE_MODEL: dict[str, Any] = {
    "id": "deepseek-v3",
    "name": "DeepSeek-V3",
    "family": "DeepSeek",
    "org": "DeepSeek",
    "modality": "text",
    "arch": "decoder",
    "params_b": 671,
    "params_b_computed": 671.03,
    "active_params_b": 37,
    "num_layers": 61,
    "hidden_size": 7168,
    "num_attention_heads": 128,
    "num_kv_heads": 128,
    "attention": "mla",
    "mla": {
        "kv_lora_rank": 512,
        "q_lora_rank": 1536,
        "qk_rope_head_dim": 64,
        "qk_nope_head_dim": 128,
        "v_head_dim": 128,
    },
    "moe": {
        "num_experts": 256,
        "experts_per_token": 8,
        "num_shared_experts": 1,
        "moe_intermediate_size": 2048,
        "first_k_dense": 3,
    },
    "vocab_size": 129280,
    "kv_cache_kib_per_token_16bit": 68.6,
    "source": ["deepseek-ai/DeepSeek-V3 config.json"],
}
GPU: dict[str, Any] = {
    "id": "a100-80gb",
    "name": "NVIDIA A100 80GB",
    "aliases": ["A100", "A100 80GB"],
    "vendor": "NVIDIA",
    "architecture": "Ampere (GA100)",
    "memory_gb": 80,
    "bandwidth_gbps": 2039,
    "fp32_tflops": 19.5,
    "fp16_tflops": 312,
    "bf16_tflops": 312,
    "form": "datacenter",
    "source": ["NVIDIA A100 datasheet"],
}
PASCAL: dict[str, Any] = {
    "id": "p40",
    "name": "NVIDIA Tesla P40",
    "vendor": "NVIDIA",
    "architecture": "Pascal (GP102)",
    "memory_gb": 24,
    "bandwidth_gbps": 346,
    "fp32_tflops": 11.8,
    "fp16_tflops": 0.18,
    "form": "datacenter",
    "source": ["gpuark.com Tesla P40"],
}
FAMILY: dict[str, Any] = {
    "family": "gn7e",
    "gpu_id": "a100-80gb",
    "source": ["Alibaba Cloud instance family docs"],
}
FAQ: dict[str, Any] = {
    "id": "what-is-kv-cache",
    "questions": {"en": ["What is the KV cache?"], "zh": ["什么是KV缓存？"]},
    "answer": {"en": "Keys and values kept per token.", "zh-Hans": "每个token保存的键和值。"},
    "document": "KV cache notes",
    "source": ["seed doc"],
}

Writer = Callable[..., Path]


def sections(**overrides: Any) -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = {
        "models": [copy.deepcopy(MODEL), copy.deepcopy(MOE_MODEL)],
        "gpus": [copy.deepcopy(GPU), copy.deepcopy(PASCAL)],
        "instance_families": [copy.deepcopy(FAMILY)],
        "faq": [copy.deepcopy(FAQ)],
    }
    data.update(overrides)
    return data


@pytest.fixture
def write_kb(tmp_path: Path) -> Writer:
    """write_kb(name="kb", **sections) writes one YAML file per section into tmp_path/name."""

    def write(name: str = "kb", **overrides: Any) -> Path:
        directory = tmp_path / name
        directory.mkdir(exist_ok=True)
        for section, entries in sections(**overrides).items():
            file = {"instance_families": "cloud", "faq": "faq"}.get(section, section)
            path = directory / f"{file}.yaml"
            existing = yaml.safe_load(path.read_text()) if path.exists() else {}
            existing[section] = entries
            path.write_text(yaml.safe_dump(existing, allow_unicode=True), encoding="utf-8")
        return directory

    return write
