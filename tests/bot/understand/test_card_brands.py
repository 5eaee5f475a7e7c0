"""A card's brand before its name, as nvidia-smi prints it, keeps the variant written after it (audit 27 HIGH 40)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "gpu"), [
    ("8x NVIDIA A100-SXM4-40GB: full fine-tune Llama 3.1 8B", "a100-40gb"),
    ("NVIDIA A100-PCIE-40GB: serve llama 3.1 8b", "a100-40gb"),
    ('nvidia-smi says "NVIDIA H100 NVL" on both cards: Llama 3.3 70B FP8 with vLLM', "h100-nvl"),
    ("NVIDIA H100 PCIe: serve llama 3.1 8b", "h100-pcie"),
    ("Can my GeForce RTX 4060 Ti run Qwen3-14B Q4_K_M in llama.cpp?", "rtx-4060-ti-16gb"),
    ("4x Tesla V100 32GB: LoRA llama 3.1 8b", "v100-32gb"),
    ("Tesla V100-SXM2-32GB: LoRA llama 3.1 8b", "v100-32gb"),
    # the brand alone before a name it does not lengthen changes nothing
    ("nvidia h100: serve llama 3.1 8b", "h100-sxm"),
    ("NVIDIA GeForce RTX 4090: serve llama 3.1 8b", "rtx-4090"),
    ("AMD Instinct MI300X: serve llama 3.1 70b", "mi300x"),
])
def test_the_variant_after_a_brand_is_read(text: str, gpu: str) -> None:
    assert parse(text, KB).gpu == gpu
