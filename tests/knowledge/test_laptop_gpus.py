"""Laptop GPUs and the GTX 1060 6GB: their own entries, read by the bot's real parser.

A laptop GPU shares its name with a desktop card but not its memory (RTX 4090 Laptop GPU: 16 GB GDDR6 at 576 GB/s,
against the desktop card's 24 GB at 1008 GB/s), so "RTX 4090 Laptop GPU" must never be sized as the desktop card, and
a plain "4090" must stay the desktop card. Figures checked here are the ones the entries' sources give (NVIDIA's
laptop comparison page for memory size and bus, TechPowerUp's database for bandwidth and FP32).
"""

from __future__ import annotations

import pytest

from bot.service import ask
from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.check import run_checks
from knowledge.loader import default_knowledge
from rules.hardware import compute_capability, supports_bf16

LAPTOPS = (
    "rtx-4090-laptop", "rtx-4080-laptop", "rtx-4070-laptop", "rtx-4060-laptop", "rtx-5090-laptop",
    "rtx-3080-laptop", "rtx-3080-laptop-16gb", "rtx-3070-laptop", "rtx-3060-laptop",
)


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return default_knowledge()


# --------------------------------------------------------------------------------------------------------
# The entries and their sourced figures
# --------------------------------------------------------------------------------------------------------

# id: (memory GB, memory type, bandwidth GB/s, FP32 TFLOPS, architecture prefix)
SOURCED = {
    "rtx-4090-laptop": (16, "GDDR6", 576, 32.98, "Ada Lovelace (AD103)"),
    "rtx-4080-laptop": (12, "GDDR6", 432, 24.72, "Ada Lovelace (AD104)"),
    "rtx-4070-laptop": (8, "GDDR6", 256, 15.62, "Ada Lovelace (AD106)"),
    "rtx-4060-laptop": (8, "GDDR6", 256, 11.61, "Ada Lovelace (AD107)"),
    "rtx-5090-laptop": (24, "GDDR7", 896, 31.8, "Blackwell (GB203)"),
    "rtx-3080-laptop": (8, "GDDR6", 448, 18.98, "Ampere (GA104)"),
    "rtx-3080-laptop-16gb": (16, "GDDR6", 448, 18.98, "Ampere (GA104)"),
    "rtx-3070-laptop": (8, "GDDR6", 448, 15.97, "Ampere (GA104)"),
    "rtx-3060-laptop": (6, "GDDR6", 336, 10.94, "Ampere (GA106)"),
    "gtx-1060-6gb": (6, "GDDR5", 192, 4.375, "Pascal (GP106)"),
}


@pytest.mark.parametrize("gpu_id", sorted(SOURCED))
def test_entry_loads_with_its_sourced_figures(gpu_id: str, kb: KnowledgeBase) -> None:
    memory, memory_type, bandwidth, fp32, architecture = SOURCED[gpu_id]
    gpu = kb.gpus[gpu_id]
    assert gpu.memory_gb == memory
    assert gpu.memory_type == memory_type
    assert gpu.bandwidth_gbps == pytest.approx(bandwidth)
    assert gpu.fp32_tflops == pytest.approx(fp32)
    assert gpu.architecture == architecture
    assert gpu.vendor == "NVIDIA" and gpu.form == "consumer"
    assert len(gpu.source) >= 2, "every figure needs a place to check it"


def test_laptop_memory_is_not_the_desktop_cards(kb: KnowledgeBase) -> None:
    pairs = {"rtx-4090-laptop": "rtx-4090", "rtx-4080-laptop": "rtx-4080", "rtx-4070-laptop": "rtx-4070",
             "rtx-5090-laptop": "rtx-5090", "rtx-3080-laptop": "rtx-3080", "rtx-3060-laptop": "rtx-3060-12gb"}
    for laptop, desktop in pairs.items():
        assert kb.gpus[laptop].memory_gb < kb.gpus[desktop].memory_gb, laptop
        assert kb.gpus[laptop].bandwidth_gbps < kb.gpus[desktop].bandwidth_gbps, laptop


@pytest.mark.parametrize("gpu_id", LAPTOPS)
def test_laptops_are_one_per_machine_and_never_proposed(gpu_id: str, kb: KnowledgeBase) -> None:
    gpu = kb.gpus[gpu_id]
    assert gpu.recommended is False
    assert gpu.max_per_machine == 1
    assert gpu.nvlink_gbps is None
    assert "power limit" in (gpu.notes or "")  # the reply's figures are a ceiling a thin laptop does not reach
    assert supports_bf16(gpu)
    # tensor figures are derived (from NVIDIA's AI TOPS or tensor cores x boost clock), and say so
    assert {"fp16_tflops", "bf16_tflops"} <= set(gpu.unverified_fields)


def test_tensor_figures_follow_nvidia_ai_tops(kb: KnowledgeBase) -> None:
    # Ada: AI TOPS is FP8 with sparsity; dense FP8 is half, FP16 (FP16 accumulate) a quarter, BF16 an eighth.
    for gpu_id, ai_tops in (("rtx-4090-laptop", 686), ("rtx-4080-laptop", 542), ("rtx-4070-laptop", 321),
                            ("rtx-4060-laptop", 233)):
        gpu = kb.gpus[gpu_id]
        assert gpu.fp8_tflops == pytest.approx(ai_tops / 2)
        assert gpu.fp16_tflops == pytest.approx(ai_tops / 4)
        assert gpu.bf16_tflops == pytest.approx(ai_tops / 8, rel=0.01)
    # Blackwell: AI TOPS is FP4 with sparsity (RTX 5090 Laptop 1,824).
    assert kb.gpus["rtx-5090-laptop"].bf16_tflops == pytest.approx(1824 / 16)
    # Ampere laptops: 256 FP16 FLOPs per tensor core per clock at NVIDIA's top boost; no FP8.
    assert kb.gpus["rtx-3080-laptop"].fp16_tflops == pytest.approx(192 * 1.710 * 256 / 1000, rel=0.01)
    assert kb.gpus["rtx-3060-laptop"].fp16_tflops == pytest.approx(120 * 1.702 * 256 / 1000, rel=0.01)
    assert kb.gpus["rtx-3070-laptop"].fp8_tflops is None


def test_the_two_rtx_3080_laptop_variants_differ_only_in_memory(kb: KnowledgeBase) -> None:
    small, large = kb.gpus["rtx-3080-laptop"], kb.gpus["rtx-3080-laptop-16gb"]
    assert (small.memory_gb, large.memory_gb) == (8, 16)
    for field in ("bandwidth_gbps", "fp32_tflops", "fp16_tflops", "bf16_tflops", "int8_tops", "architecture"):
        assert getattr(small, field) == getattr(large, field), field


def test_gtx_1060_is_pascal_without_bf16_or_tensor_cores(kb: KnowledgeBase) -> None:
    gpu = kb.gpus["gtx-1060-6gb"]
    assert not supports_bf16(gpu)
    assert gpu.bf16_tflops is None and gpu.fp8_tflops is None
    assert gpu.fp16_tflops == pytest.approx(4.375 / 64, rel=0.01)  # FP16 at 1/64 of FP32, no tensor cores
    assert compute_capability(gpu) == 6.0  # the Pascal floor (GP106 is 6.1)
    assert gpu.recommended is False


def test_the_knowledge_base_still_checks_clean(kb: KnowledgeBase) -> None:
    assert run_checks(kb) == []


# --------------------------------------------------------------------------------------------------------
# Phrasings through the bot's parser
# --------------------------------------------------------------------------------------------------------

PHRASINGS = [
    ("Gemma 3 27B Q4_K_M on an RTX 4090 Laptop GPU", "rtx-4090-laptop"),
    ("Llama 3 8B on a 4090 laptop", "rtx-4090-laptop"),
    ("Can my 4090 laptop run Llama 3 8B?", "rtx-4090-laptop"),
    ("Llama 3 8B on an RTX 4090 mobile", "rtx-4090-laptop"),
    ("NVIDIA GeForce RTX 4090 Laptop GPU, Qwen2.5-14B int4", "rtx-4090-laptop"),
    ("笔记本4090能跑Qwen2.5-32B吗", "rtx-4090-laptop"),
    ("4090笔记本能跑Qwen2.5-14B吗", "rtx-4090-laptop"),
    ("Llama 3 8B on a GeForce RTX 4080 Laptop GPU", "rtx-4080-laptop"),
    ("Mistral 7B on RTX 4070 laptop", "rtx-4070-laptop"),
    ("游戏本 4070 能跑 Qwen2.5-7B 吗", "rtx-4070-laptop"),
    ("Qwen2.5-7B on a 4060 Laptop GPU", "rtx-4060-laptop"),
    ("笔记本 4060 8G 能跑 Qwen2.5-7B 吗", "rtx-4060-laptop"),
    ("4060 移动版 能跑 Qwen2.5-7B 吗", "rtx-4060-laptop"),
    ("Qwen2.5-32B Q4_K_M on an RTX 5090 Laptop GPU", "rtx-5090-laptop"),
    ("Qwen2.5-14B Q4_K_M on a RTX 3080 laptop 16GB", "rtx-3080-laptop-16gb"),
    ("Qwen2.5-14B Q4_K_M on a 16GB RTX 3080 Laptop", "rtx-3080-laptop-16gb"),
    ("3080 16G 笔记本能跑Qwen2.5-14B吗", "rtx-3080-laptop-16gb"),
    ("Qwen2.5-14B Q4_K_M on a RTX 3080 laptop", "rtx-3080-laptop"),
    ("Llama 3 8B on an RTX 3070 Laptop GPU", "rtx-3070-laptop"),
    ("Qwen2.5-7B on a RTX 3060 laptop", "rtx-3060-laptop"),
    ("3060笔记本能跑Llama 3 8B吗", "rtx-3060-laptop"),
    ("SD 1.5 on a GTX 1060 6GB", "gtx-1060-6gb"),
    ("Stable Diffusion 1.5 on a 1060", "gtx-1060-6gb"),
    # desktop phrasings keep the desktop cards
    ("Llama 3 8B on a 4090", "rtx-4090"),
    ("4090能跑Qwen2.5-32B吗", "rtx-4090"),
    ("Llama 3 8B on an RTX 4090 24GB", "rtx-4090"),
    ("4060能跑Qwen2.5-7B吗", "rtx-4060"),
    ("Qwen2.5-7B on an RTX 4060", "rtx-4060"),
    ("Llama 3 8B on RTX 4080", "rtx-4080"),
    ("Llama 3 8B on RTX 4070", "rtx-4070"),
    ("Qwen2.5-14B Q4_K_M on a RTX 3080", "rtx-3080"),
    ("3080显卡能跑Qwen2.5-7B吗", "rtx-3080"),
    ("Llama 3 8B on RTX 3070", "rtx-3070"),
    ("Llama 3 8B on RTX 3060", "rtx-3060-12gb"),
    ("Qwen2.5-32B Q4_K_M on an RTX 5090", "rtx-5090"),
]


@pytest.mark.parametrize(("text", "gpu_id"), PHRASINGS)
def test_phrasing_reads_the_right_card(text: str, gpu_id: str, kb: KnowledgeBase) -> None:
    question = parse(text, kb)
    assert question.gpu == gpu_id
    assert question.memory_gb is None  # the card's own memory, not a modified card's


def test_a_laptop_and_its_desktop_namesake_compare_as_two_cards(kb: KnowledgeBase) -> None:
    question = parse("4090 laptop vs 4090 for Llama 3 8B", kb)
    assert question.compare_gpus == ["rtx-4090-laptop", "rtx-4090"]


def test_a_bare_rtx_3080_laptop_says_which_variant_it_assumed(kb: KnowledgeBase) -> None:
    bare = parse("Qwen2.5-14B Q4_K_M on a RTX 3080 laptop", kb)
    assert bare.gpu == "rtx-3080-laptop" and bare.gpu_defaulted
    stated = parse("Qwen2.5-14B Q4_K_M on a RTX 3080 laptop 16GB", kb)
    assert stated.gpu == "rtx-3080-laptop-16gb" and not stated.gpu_defaulted


# --------------------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------------------


def test_gemma_3_27b_q4_does_not_fit_an_rtx_4090_laptop_gpu(kb: KnowledgeBase) -> None:
    answer = ask({"text": "Gemma 3 27B Q4_K_M on an RTX 4090 Laptop GPU"}, kb, fetch_config=None)
    assert answer.check is not None
    assert answer.check.gpu == "rtx-4090-laptop"
    assert answer.check.gpu_memory_gb == 16
    assert answer.check.fits is False


def test_the_same_job_fits_the_desktop_rtx_4090(kb: KnowledgeBase) -> None:
    answer = ask({"text": "Gemma 3 27B Q4_K_M on an RTX 4090"}, kb, fetch_config=None)
    assert answer.check is not None and answer.check.gpu == "rtx-4090"
    assert answer.check.fits is True


def test_qwen_14b_q4_is_sized_for_the_16gb_rtx_3080_laptop(kb: KnowledgeBase) -> None:
    answer = ask({"text": "Qwen2.5-14B Q4_K_M on a RTX 3080 laptop 16GB"}, kb, fetch_config=None)
    assert answer.check is not None
    assert answer.check.gpu == "rtx-3080-laptop-16gb"
    assert answer.check.gpu_memory_gb == 16
    assert answer.check.fits is True


def test_sd_15_on_a_gtx_1060_runs_in_fp16_not_bf16(kb: KnowledgeBase) -> None:
    answer = ask({"text": "SD 1.5 on a GTX 1060 6GB"}, kb, fetch_config=None)
    assert answer.query.gpu == "gtx-1060-6gb"
    assert answer.query.precision == "fp16"
    assert answer.check is not None and answer.check.fits is True
