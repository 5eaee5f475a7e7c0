"""What a card offers: usable memory, dense tensor peak for a precision, and a price (or its proxy)."""

from __future__ import annotations

from collections.abc import Sequence

from knowledge.engines import format_min_capability
from knowledge.schema import GPU, InstanceFamily
from rules import constants as C
from rules import speed_constants as S


def visible_gib(gpu: GPU) -> float:
    """Memory PyTorch sees: the nominal size (vendors' "GB" on these cards are GiB) less ECC on GDDR
    datacenter cards."""
    nominal = gpu.memory_gb
    if gpu.form == "datacenter" and (gpu.memory_type or "").upper().startswith("GDDR"):
        nominal *= 1 - C.GDDR_ECC_RESERVE_FRACTION
    return nominal


def usable_gib(gpu: GPU) -> float:
    """Memory left for the allocator: visible memory less the CUDA context."""
    return max(0.0, visible_gib(gpu) - C.CUDA_CONTEXT_GIB)


def dense_tflops(gpu: GPU, precision: str) -> float | None:
    """Dense tensor-core peak for the compute dtype of `precision`; None when the card lists no throughput figure
    at all (a card known only by its memory and bandwidth), so nothing compute-bound is timed on a made-up number.
    Weight-only int8/int4 formats dequantise to 16 bits and accumulate in fp32 (bitsandbytes' compute dtype,
    the AWQ/GPTQ/Marlin kernels): the bf16 peak where the card lists one, which on a GeForce card is half the
    fp16-accumulate figure its datasheet leads with (RTX 4090: 165 against 330 TFLOPS)."""
    if precision == "fp8" and gpu.fp8_tflops:
        return gpu.fp8_tflops
    if precision == "fp32":
        return gpu.fp32_tflops or (gpu.fp16_tflops / 4 if gpu.fp16_tflops else None)
    if precision in ("bf16", "int8", "int4", "mxfp4") and gpu.bf16_tflops:
        return gpu.bf16_tflops
    return gpu.fp16_tflops or gpu.bf16_tflops or gpu.fp32_tflops


def compute_known(gpu: GPU) -> bool:
    """Whether the card lists a throughput figure: prefill, training and batched decode are timed only then."""
    return dense_tflops(gpu, "fp16") is not None


UNKNOWN_BANDWIDTH_GBPS = 1.0
"""The bandwidth a card known only by its memory carries when nobody stated one: the schema needs a figure, and
nothing is timed at this one (`bandwidth_known`)."""


def bandwidth_known(gpu: GPU) -> bool:
    """Whether the card's memory bandwidth is a real figure (listed, or stated in the question): one sequence's
    decode is timed only then."""
    return gpu.bandwidth_gbps != UNKNOWN_BANDWIDTH_GBPS


def slow_tensor_cores(gpu: GPU) -> bool:
    """A card whose 16-bit peak is below what ML work needs (a Quadro P2200); an unlisted peak is not called
    slow (a card named by its memory alone may have any tensor cores)."""
    peak = dense_tflops(gpu, "fp16")
    return peak is not None and peak < C.MIN_FP16_TENSOR_TFLOPS


BF16_ARCHITECTURES = ("Ampere", "Ada", "Hopper", "Blackwell")
"""NVIDIA architectures whose tensor cores run bf16: from the third generation (Ampere) on (NVIDIA Ampere
architecture whitepaper, "Third-Generation Tensor Cores": BF16 added beside FP16/TF32). Turing, Volta and
Pascal have none."""


def supports_bf16(gpu: GPU) -> bool:
    """The card lists a bf16 peak, or is an NVIDIA architecture that has bf16 tensor cores (an Ampere card
    listing no peak has them all the same)."""
    if gpu.bf16_tflops is not None:
        return True
    return gpu.vendor.lower() == "nvidia" and (gpu.architecture or "").startswith(BF16_ARCHITECTURES)


UNIFIED_MEMORY_GPU_SHARE = ((48.0, 0.75), (0.0, 2 / 3))
"""The part of a Mac's unified memory macOS lets the GPU use by default (Metal's recommendedMaxWorkingSetSize),
by installed memory (GB, share) from the largest: about 3/4 from 48 GB up (128 GB → about 96 GB, 64 GB → about
48 GB: stencel.io "Apple silicon limitations with usage on local LLM"; gpustack/gpustack issue 1375: "75% of
total RAM"; llama.cpp issue 1870: a 64 GB M2 Max fails to load models from about 47 GB; a 48 GB M3 Max logs
"recommendedMaxWorkingSetSize = 38654.71 MB", 36 GiB = 3/4 of 48 GiB, in a public llama-server note, search-index
file id 14594768867: audit 33 M-112) and 2/3 below (16 GB M4
→ 10.67 GB: exo-explore/exo PR 1672; 32 GB → "~21–24 GB": stencel.io; one 16 GB M3 reports 11.84 GB in
AlexsJones/llmfit PR 754, so small machines vary between the two). `sudo sysctl iogpu.wired_limit_mb` raises it."""


def gpu_share_of_unified_memory(memory_gb: float) -> float:
    """What fraction of a Mac's unified memory its GPU may use by default (UNIFIED_MEMORY_GPU_SHARE)."""
    return next(share for floor, share in UNIFIED_MEMORY_GPU_SHARE if memory_gb >= floor)


FP8_WEIGHT_ONLY_ARCHITECTURES = ("Ampere",)
"""NVIDIA architectures without FP8 tensor cores on which vLLM still runs FP8 checkpoints, weight-only (W8A16)
through its FP8 Marlin kernel (vllm-project/vllm PR 5975, July 2024). The docs page (features/quantization/fp8)
says compute capability 7.5 (Turing) too, but the code that decides, vllm/model_executor/layers/quantization/
utils/marlin_utils_fp8.py `is_fp8_marlin_supported`, has asked for 8.0 in every release since (and Fp8Config's
minimum capability is 80): a T4 runs no FP8 checkpoint (audit 23 LOW-18). Volta and Pascal run none."""


COMPUTE_CAPABILITY: tuple[tuple[str, float], ...] = (
    ("Kepler", 3.5), ("Maxwell", 5.0), ("Pascal", 6.0), ("Volta", 7.0), ("Turing", 7.5), ("Ampere", 8.0),
    ("Ada", 8.9), ("Hopper", 9.0), ("Blackwell", 10.0))
"""The lowest CUDA compute capability of each NVIDIA architecture (https://developer.nvidia.com/cuda-gpus:
Pascal 6.0-6.1, Volta 7.0, Turing 7.5, Ampere 8.0-8.6, Ada 8.9, Hopper 9.0, Blackwell 10.0+)."""


FLASH_ATTENTION_2_MIN_CC = 8.0
"""FlashAttention-2 runs on Ampere, Ada and Hopper (Dao-AILab/flash-attention README: "FlashAttention-2 currently
supports: Ampere, Ada, or Hopper GPUs (e.g., A100, RTX 3090, RTX 4090, H100). Support for Turing GPUs (T4, RTX
2080) is coming soon, please use FlashAttention 1.x for Turing GPUs for now")."""


def compute_capability(gpu: GPU) -> float | None:
    """The card's CUDA compute capability by its architecture (the lowest of the architecture: enough to tell
    whether a kernel's floor is met); None for other vendors and cards known only by their memory."""
    if gpu.vendor.lower() != "nvidia" or not gpu.architecture:
        return None
    return next((cc for name, cc in COMPUTE_CAPABILITY if gpu.architecture.startswith(name)), None)


def runs_format(gpu: GPU, quant: str | None, engine: str) -> bool:
    """Whether the engine's kernels for weight format `quant` run on this card (its profile's format_floor:
    vLLM's AWQ needs Turing, MXFP4 Ampere); unknown cards and unrestricted formats pass."""
    floor = format_min_capability(engine, quant)
    capability = compute_capability(gpu)
    return floor is None or capability is None or capability >= floor


def runs_precision(gpu: GPU, precision: str, engine: str) -> bool:
    """Whether `engine` can run weights in `precision` on this card at all. Only FP8 is restricted: it needs
    FP8 tensor cores (Ada, Hopper, Blackwell, MI300: the card lists an FP8 peak), or vLLM's weight-only path on
    Ampere. Other formats run everywhere the rules recommend a card (bf16 falls back to fp16 there)."""
    if precision != "fp8" or gpu.fp8_tflops or not gpu.architecture:
        return True  # a card known only by its memory ("a 24GB card") cannot be ruled out
    architecture = gpu.architecture or ""
    return engine == "vllm" and gpu.vendor.lower() == "nvidia" and architecture.startswith(
        FP8_WEIGHT_ONLY_ARCHITECTURES)


def price_proxy(gpu: GPU) -> float:
    """Relative hourly cost when no price is known: bandwidth + 5 × memory + 2 × fp16 TFLOPS (constants)."""
    return (C.PRICE_PROXY_BANDWIDTH_WEIGHT * gpu.bandwidth_gbps + C.PRICE_PROXY_MEMORY_WEIGHT * gpu.memory_gb
            + C.PRICE_PROXY_TFLOPS_WEIGHT * (dense_tflops(gpu, "fp16") or 0.0))


def nvlinked(gpu: GPU, count: int) -> bool:
    """Whether `count` of this card talk over NVLink. A card with an NVLink *bridge* (RTX 3090, A6000, A100
    PCIe, H100 PCIe/NVL: "NVLink bridge … (pairs)" in its interconnect) links two cards, or four where a 4-way
    bridge exists; a larger group's collectives cross PCIe between the bridged groups, and PCIe bounds them.
    SXM cards are linked across their baseboard's switch."""
    if not gpu.nvlink_gbps:
        return False
    text = (gpu.interconnect or "").lower()
    if "bridge" not in text:
        return True
    return count <= (4 if "4-way" in text else 2)


def tp_scaling(gpu: GPU, count: int) -> float:
    """Effective cards of `count` tensor-parallel cards: 1 + efficiency × (count − 1), NVLink or PCIe."""
    eff = S.TP_EFFICIENCY if nvlinked(gpu, count) else S.TP_EFFICIENCY_PCIE
    return 1.0 + eff * (count - 1)


def instance_for(gpu: GPU, count: int, instances: Sequence[InstanceFamily]) -> tuple[str | None, float | None,
                                                                                    str | None]:
    """The smallest listed instance type with at least `count` of these cards, and its price when known
    (family prices are per card-instance as listed; only the family's own price is used)."""
    best: tuple[int, str, float | None] | None = None
    for family in instances:
        if family.gpu_id != gpu.id:
            continue
        for itype in family.example_instance_types:
            cards = itype.gpus or 0
            if cards >= count and (best is None or cards < best[0]):
                price = family.price_cny_per_hour_on_demand if cards == count else None
                best = (cards, itype.instance_type, price)
    if best is None:
        return None, None, None
    return best[1], best[2], ("CNY" if best[2] is not None else None)


def hourly_price(gpu: GPU, count: int,
                 instances: Sequence[InstanceFamily]) -> tuple[float | None, str | None]:
    _, price, currency = instance_for(gpu, count, instances)
    if price is not None:
        return price, currency
    if gpu.price_usd_per_hour is not None:
        return gpu.price_usd_per_hour * count, "USD"
    return None, None


def machines(count: int) -> int:
    """The machines `count` cards take, GPUS_PER_NODE to a machine."""
    return -(-count // C.GPUS_PER_NODE)
