"""How much of a card a job may use on its engine, and whether it fits there: the primitives the fit check, the
alternatives it suggests and the ranking share (rules/fit.py states the fit rule)."""

from __future__ import annotations

from dataclasses import replace

from knowledge.engines import engine_min_capability, refuses_float16
from knowledge.schema import GPU
from rules import constants as C
from rules.engine_profile import engine_limit_gib, profile_for
from rules.hardware import compute_capability, runs_format, runs_precision, supports_bf16, usable_gib
from rules.memory import estimate_memory, is_transformer
from rules.memory_inference import activation_peak, activations_outside_share, parallel_layout
from rules.precision import normalise_quant
from rules.search import largest_true
from rules.types import MemoryEstimate, Workload


def valid_tp(workload: Workload, count: int) -> bool:
    """Can `count` cards run this workload the way its engine splits it?

    Tensor-parallel engines: the degree inside a node must divide the attention heads, and the KV heads must
    divide by it (or it by them: vLLM replicates KV heads); beyond a node, whole nodes. Layer-split engines
    (transformers `device_map`, llama.cpp): any count. A generic model's heads are not known: no test.
    Training: any count (ZeRO/FSDP)."""
    if count == 1 or workload.task != "inference":
        return True
    model = workload.model
    if not is_transformer(model):
        return False  # CNN/diffusion inference is not split across cards (run replicas instead)
    if profile_for(workload).multi_gpu.mode != "tensor-parallel":
        return count <= C.MAX_PICK_GPUS
    tp, pp = parallel_layout(count)
    if tp * pp != count:
        return False
    if model.family == "generic" or not model.num_attention_heads:
        return True
    heads = model.num_attention_heads
    kv = model.num_kv_heads or heads
    if heads % tp:
        return False
    return kv % tp == 0 if kv >= tp else tp % kv == 0


def needed_gib(est: MemoryEstimate) -> float:
    """What a job must keep on a card: a reserving engine's requirement on that card, else the estimate."""
    return est.required_per_gpu_gib if est.required_per_gpu_gib is not None else est.per_gpu_gib


def reserves_share_of_card(workload: Workload) -> bool:
    """vLLM/SGLang-style engines: a fixed share of the card (its complement is their headroom)."""
    return (workload.task == "inference" and is_transformer(workload.model)
            and profile_for(workload).reservation.kind == "fraction_of_total")


def limit_gib(workload: Workload, gpu: GPU) -> float:
    """The most a job may need per card on its engine: the engine's reservation (vLLM, SGLang), else the
    visible memory less the CUDA context."""
    if reserves_share_of_card(workload):
        # SGLang keeps activations outside its share: the job may need the share plus them, within the card.
        margin_grows = profile_for(workload).reservation.margin_activation_fraction
        peak = activation_peak(workload, gpu) / C.GIB if margin_grows else 0.0
        share = engine_limit_gib(workload, gpu, peak)
        outside = activations_outside_share(workload, gpu) / C.GIB
        return min(share + outside, usable_gib(gpu)) if outside else share
    return usable_gib(gpu)


def is_tight(need: float, limit: float) -> bool:
    """Within TIGHT_FRACTION of the limit, either side: a few percent of allocator churn decides it."""
    return limit > 0 and abs(need - limit) <= C.TIGHT_FRACTION * limit


def comfortable(need: float, limit: float) -> bool:
    """Fits and leaves the recommended margin free."""
    return need <= limit * (1 - C.HEADROOM_FRACTION)


def free_gib(workload: Workload, gpu: GPU) -> float:
    """Memory a job may use before the card is full: the engine's reservation, else the usable memory."""
    if reserves_share_of_card(workload):
        return limit_gib(workload, gpu)
    return usable_gib(gpu)


def kv_pool_short(est: MemoryEstimate) -> bool:
    """Whether a reserving engine's KV pool on this card holds fewer tokens than the job's sequences need.

    LMDeploy and TensorRT-LLM size the pool as a share of the memory the weights leave, not of the card, so
    the job's need can sit inside the card while the pool holds 28 of 32 sequences: the engine starts and the
    others wait for a free slot. The asked concurrency is then not served, whatever the card's total says."""
    pool = est.chosen.get("kv_pool_gib")
    kv_needed = (est.required_breakdown or {}).get("kv_cache")
    return isinstance(pool, (int, float)) and kv_needed is not None and kv_needed > pool + POOL_ROUNDING_GIB


POOL_ROUNDING_GIB = 0.01
"""Both sides of the pool comparison are rounded figures: a difference below this is rounding, not a shortfall."""


def fits_estimate(workload: Workload, gpu: GPU, count: int, est: MemoryEstimate) -> bool:
    """The fit rule (rules/fit.py) on an estimate already made: a valid split, the need within the engine's
    limit, and a reserving engine's KV pool holding every sequence asked for."""
    return valid_tp(workload, count) and needed_gib(est) <= limit_gib(workload, gpu) and not kv_pool_short(est)


def fits_on(workload: Workload, gpu: GPU, count: int) -> tuple[bool, MemoryEstimate]:
    """Whether the job fits `count` of `gpu` (rules/fit.py's rule), and the estimate."""
    est = estimate_memory(workload, count, gpu)
    return fits_estimate(workload, gpu, count, est), est


CONTEXT_STEP = 256
"""Granularity of the longest-context search: finer than anyone sets a window, coarse enough for ~16 checks."""


def longest_context(workload: Workload, gpu: GPU, count: int, ceiling: int) -> int | None:
    """The longest context, in steps of CONTEXT_STEP tokens up to `ceiling`, at which the job still fits `count` ×
    `gpu` (its batch, engine and precision as given): what "the max context on this card" asks. The need grows
    with the context (KV cache, activations, logits), so one bisection finds it. None when not one step fits."""
    top = max(1, ceiling // CONTEXT_STEP)
    best = largest_true(lambda steps: fits_on(replace(workload, context=steps * CONTEXT_STEP), gpu, count)[0],
                        1, top)
    if best < 1:
        return None
    return ceiling if best == top and fits_on(replace(workload, context=ceiling), gpu, count)[0] else \
        best * CONTEXT_STEP


def within_one_machine(gpu: GPU, count: int) -> bool:
    """Whether `count` of the card fit in one machine where more cannot be had: a Mac's one GPU
    (`max_per_machine`), and GeForce cards, which nobody links across nodes (no NVLink, no InfiniBand: a home or
    office box holds up to eight)."""
    if gpu.max_per_machine is not None:
        return count <= gpu.max_per_machine
    return gpu.form != "consumer" or count <= C.GPUS_PER_NODE


def unsupported_format(w: Workload, gpu: GPU) -> str | None:
    """The weights' format the card cannot run on the job's engine: its precision (FP8 without FP8 tensor cores;
    16-bit without bf16 for a model the engine refuses to run in float16) or its quantisation method (vLLM's AWQ
    kernel below Turing), or "engine" when the engine itself does not run on the card (vLLM below compute
    capability 7.0: a P40 or P100); None when the card runs it."""
    floor, capability = engine_min_capability(w.engine), compute_capability(gpu)
    if floor is not None and capability is not None and capability < floor:
        return "engine"
    if not runs_precision(gpu, w.precision, w.engine):
        return w.precision
    if (w.precision != "fp32" and gpu.architecture and not supports_bf16(gpu)
            and refuses_float16(w.engine, w.model.family)):
        # 16-bit or quantised weights compute in float16 on a card without bf16 (a card known only by its
        # memory, "a 24GB card", cannot be ruled out)
        return "fp16"
    quant = normalise_quant(w.quant, w.precision, w.engine)
    return None if runs_format(gpu, quant, w.engine) else quant
