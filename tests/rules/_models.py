"""Synthetic models with round numbers, so the expected figures can be worked out by hand in the tests."""

from __future__ import annotations

from typing import Any

from knowledge.schema import GPU, Model


def make_model(**overrides: Any) -> Model:
    """A 'Llama-7B-like' decoder: 32 layers, hidden 4096, 32 heads of 128, untied 32,000 vocabulary."""
    fields: dict[str, Any] = dict(
        id="toy", name="Toy", family="toy", org="test", modality="text", arch="decoder", params_b=7.0,
        num_layers=32, hidden_size=4096, num_attention_heads=32, num_kv_heads=32, head_dim=128,
        attention="mha", intermediate_size=11008, mlp="gated", vocab_size=32000, tie_embeddings=False,
        source=["test"],
    )
    fields.update(overrides)
    return Model(**fields)


def make_gpu(**overrides: Any) -> GPU:
    """An 'A100-80GB-like' card: 80 GB HBM, 2,000 GB/s, 312 dense bf16 TFLOPS, NVLink."""
    fields: dict[str, Any] = dict(
        id="card", name="Card", vendor="NVIDIA", memory_gb=80.0, memory_type="HBM2e", bandwidth_gbps=2000.0,
        fp16_tflops=312.0, bf16_tflops=312.0, fp32_tflops=19.5, nvlink_gbps=600.0, form="datacenter",
        source=["test"],
    )
    fields.update(overrides)
    return GPU(**fields)
