"""AMD Radeon (RDNA 3 and 4) and Intel Arc/Max cards: their own entries, found by the names people type, and
sized with their own runtime's context (ROCm's HIP, oneAPI's Level Zero) rather than CUDA's.

The figures checked are the ones the entries' sources give: memory and bandwidth from the vendors' spec pages
(256-bit GDDR6 at 20 Gbps = 640 GB/s on the RX 9070 XT; llmfit's 624 is wrong), and the RDNA 4 matrix peak at
twice the vector FP16 figure TechPowerUp lists (AMD's per-CU WMMA table: 1024 FP16 FLOPs/clock/CU on RDNA 4 against
512 on RDNA 3).
"""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from rules.hardware import supports_bf16

KB = default_knowledge()

# id: (memory GB, bandwidth GB/s, vendor)
SOURCED = {
    "rx-9070-xt": (16, 640, "AMD"), "rx-9070": (16, 640, "AMD"), "rx-7900-xt": (20, 800, "AMD"),
    "rx-7900-gre": (16, 576, "AMD"), "rx-7800-xt": (16, 624, "AMD"), "radeon-pro-w7900": (48, 864, "AMD"),
    "radeon-ai-pro-r9700": (32, 640, "AMD"), "arc-a770-16gb": (16, 560, "Intel"), "arc-b580": (12, 456, "Intel"),
    "arc-pro-b60": (24, 456, "Intel"), "intel-max-1100": (48, 1200, "Intel"),
}


@pytest.mark.parametrize("gpu_id", sorted(SOURCED))
def test_each_card_has_its_sourced_memory_and_bandwidth(gpu_id: str) -> None:
    gpu = KB.gpus[gpu_id]
    assert (gpu.memory_gb, gpu.bandwidth_gbps, gpu.vendor) == SOURCED[gpu_id]
    assert gpu.source and gpu.notes


def test_rdna4_matrix_peak_is_twice_the_vector_fp16_figure() -> None:
    # 1024 FLOPs/clock/CU × 64 CU × 2.97 GHz = 194.6 TFLOPS; TechPowerUp's 97.3 is the vector rate
    assert KB.gpus["rx-9070-xt"].fp16_tflops == pytest.approx(1024 * 64 * 2.97e9 / 1e12, rel=0.01)


@pytest.mark.parametrize(("text", "gpu_id"), [
    ("qwen2.5 14b on a 9070 XT?", "rx-9070-xt"), ("RX 9070 跑 7B 够吗", "rx-9070"),
    ("llama 3 8b on a 7900 XT", "rx-7900-xt"), ("llama 3 8b on a 7900 XTX", "rx-7900-xtx"),
    ("llama 3 8b on an Arc A770", "arc-a770-16gb"), ("Arc B580 跑 Qwen2.5-7B", "arc-b580"),
    ("Qwen2.5-32B on an Arc Pro B60", "arc-pro-b60"), ("llama 3 70b on a Radeon PRO W7900", "radeon-pro-w7900"),
])
def test_the_names_people_type_find_each_card(text: str, gpu_id: str) -> None:
    assert parse(text, KB).gpu == gpu_id


def test_rdna3_and_rdna4_run_bf16() -> None:
    assert supports_bf16(KB.gpus["rx-7900-xtx"]) and supports_bf16(KB.gpus["rx-9070-xt"])


def test_an_intel_card_is_sized_with_its_own_runtime_context_and_its_maker_in_the_pool() -> None:
    result = answer(parse("Intel Arc A770 16GB: llama 3.1 8b bf16, does it fit?", KB), KB)
    text = render_text(result, KB)
    assert "less the oneAPI (Level Zero) runtime's context" in text and "CUDA context" not in text
    assert "name an AMD card to include AMD" not in text
    amd = render_text(answer(parse("can I run qwen2.5 14b on an RX 7900 XTX with vllm?", KB), KB), KB)
    assert "ROCm (HIP)" in amd and "name an AMD card to include AMD" not in amd
    assert "picks from NVIDIA GPUs and those of the card's maker" in amd
