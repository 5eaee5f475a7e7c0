"""GPU memory of a workload: weights + KV cache + activations + gradients + optimizer + overhead, per card.

The rules live in three modules, all reached through `estimate_memory`:

* rules/memory_common.py — layer counts, head sizes, the KV cache of a token and of a batch;
* rules/memory_inference.py — inference per card as the engine profile holds it (logits, attention,
  KV-cache precision, up-front reservation of vLLM/SGLang/lmdeploy/TensorRT-LLM, layer split vs TP);
* rules/memory_training.py — full training (ZeRO/FSDP), LoRA and QLoRA, with the engine's checkpointing
  and loss.

This module sizes the models without a transformer config (CNNs, diffusion, ViT/CLIP, Whisper) and
dispatches. Constants and their sources: rules/constants.py; engine facts: knowledge/data/engines.yaml.
"""

from __future__ import annotations

from dataclasses import replace

from knowledge.schema import GPU
from rules import constants as C
from rules import weight_formats as WF
from rules.engine_profile import optimizer_for
from rules.hardware import usable_gib
from rules.memory_common import (
    COMPONENTS,
    TRANSFORMER_ARCHS,
    breakdown,
    gib,
    head_dim,
    is_transformer,
    kv_bytes_per_token,
    kv_cache_bytes,
    kv_heads_per_gpu,
    kv_layers,
    num_layers,
    prefill_tokens,
)
from rules.memory_diffusion import pipeline_parts, pipeline_weight_bytes
from rules.memory_diffusion_training import diffusion_training_options
from rules.memory_inference import (
    inference_estimate,
    needed_view,
    prefill_activation_bytes,
    vllm_activation_bytes,
)
from rules.memory_training import (
    _model_states,
    first_fitting,
    lora_adapter_params,
    train_activation_bytes,
    training_options,
)
from rules.precision import compute_dtype_bytes, normalise_quant, weight_bytes
from rules.types import MemoryEstimate, Workload

_prefill_tokens = prefill_tokens
"""Kept for callers of the old private name (rules/speed.py)."""

__all__ = [
    "COMPONENTS", "TRANSFORMER_ARCHS", "_model_states", "_prefill_tokens", "estimate_memory", "first_fitting",
    "head_dim", "is_transformer", "kv_bytes_per_token", "kv_cache_bytes", "kv_heads_per_gpu", "kv_layers",
    "lora_adapter_params", "needed_view", "num_layers", "prefill_activation_bytes", "prefill_tokens",
    "train_activation_bytes", "training_options", "vllm_activation_bytes",
]


# --------------------------------------------------------------------------------------------------------
# Models without a transformer config: CNNs, diffusion, ViT/CLIP, Whisper
# --------------------------------------------------------------------------------------------------------


def _simple(w: Workload, n: int) -> MemoryEstimate:
    """Sized from params_b and `details` (see constants: DIFFUSION_/CNN_ coefficients)."""
    model = w.model
    p = model.params_b * 1e9
    quant = normalise_quant(w.quant, w.precision, "transformers")
    if w.task == "qlora" and quant is None and model.arch == "diffusion":
        quant = "nf4"  # QLoRA of a pipeline: its denoiser (and T5) in NF4 under the adapters, as for an LLM
    offloaded = model.arch == "diffusion" and w.task == "inference" and w.offload == "all"
    by_part = pipeline_weight_bytes(model, w.precision, quant, offload=offloaded,
                                    text_encoders_too=w.quantise_text_encoders)
    if by_part is not None:
        weights, notes = by_part
    else:
        weights, notes = (weight_bytes(model, w.precision, quant) if quant else
                          (p * WF.BYTES_PER_PARAM_PLAIN[w.precision], []))
    details = model.details
    batch = w.batch
    dtype_scale = compute_dtype_bytes(w.precision) / 2.0
    if model.arch == "diffusion":
        res = w.image_resolution or int(details.get("native_resolution", 512))
        if (w.task == "inference" and w.precision in ("fp16", "int8", "int4")
                and details.get("vae_decodes_fp32_when_fp16")):
            # The pipeline casts its VAE to fp32 for the decode, the activation peak, in an fp16 run (training
            # scripts do not decode images, so it is an inference rule). A quantised denoiser leaves the VAE in
            # the pipeline's 16-bit dtype, fp16 where SDXL runs, so its decode is upcast the same way.
            dtype_scale = 2.0
            notes.append("vae-fp32-decode")
        act = C.DIFFUSION_ACTIVATION_GIB_PER_MPIXEL * (res * res / 1e6) * batch * dtype_scale * C.GIB
        notes.append("diffusion")
        chosen: dict[str, object] = {"resolution": res, "batch": batch}
        if offloaded:
            chosen["offload"] = "model"
    elif "gflops_per_image" in details:
        gflops = float(details["gflops_per_image"])
        act = C.CNN_ACTIVATION_MIB_PER_GFLOP * gflops * batch * dtype_scale * 2**20
        chosen = {"batch": batch}
    else:
        # Encoder-decoder/dual encoders without a full config: the weights dominate; 10% for activations.
        act = 0.1 * weights * batch
        chosen = {"batch": batch}
    grads = opt = 0.0
    if w.task in ("train", "lora", "qlora"):
        act *= C.TRAIN_CNN_ACT_MULTIPLIER if model.arch != "diffusion" else 4.0
        parts = pipeline_parts(model)
        full = parts.denoiser if parts is not None else p  # diffusion fine-tuning trains the denoiser only
        trainable = full if w.task == "train" else 0.02 * full
        grads = 2.0 * trainable
        opt = C.OPTIMIZER_BYTES_PER_PARAM[optimizer_for(w)] * trainable
    overhead = C.INFERENCE_OVERHEAD_GIB * C.GIB + C.INFERENCE_OVERHEAD_FRACTION * weights
    per = dict(weights=weights, activations=act, gradients=grads, optimizer=opt, overhead=overhead)
    per_gpu = sum(per.values())
    if n > 1:
        notes.append("data-parallel")
    return MemoryEstimate(total_gib=round(gib(per_gpu * n), 3), per_gpu_gib=round(gib(per_gpu), 3),
                          gpu_count=n, breakdown=breakdown(**per), notes=notes, chosen=chosen,
                          cuda_context_gib=C.CUDA_CONTEXT_GIB)


def estimate_memory(workload: Workload, gpu_count: int = 1, gpu: GPU | None = None) -> MemoryEstimate:
    """Memory of `workload` spread over `gpu_count` cards (see the module docstring for the formulas)."""
    if gpu_count < 1:
        raise ValueError("gpu_count must be at least 1")
    model = workload.model
    if model.arch == "encoder" and workload.context > (model.max_context or C.ENCODER_DEFAULT_CONTEXT):
        workload = replace(workload, context=model.max_context or C.ENCODER_DEFAULT_CONTEXT)
    if workload.task == "inference":
        if not is_transformer(model):
            return _simple(workload, gpu_count)
        return inference_estimate(workload, gpu_count, gpu)
    if not is_transformer(model):
        if model.arch == "diffusion":
            options = diffusion_training_options(workload, gpu_count, card_known=gpu is not None)
            if options is not None:
                return first_fitting(options, gpu)
        return _simple(workload, gpu_count)
    if workload.paged_optimizer:
        return paged(first_fitting(training_options(workload, gpu_count, card_known=gpu is not None), gpu,
                                   paged_need), gpu)
    return first_fitting(training_options(workload, gpu_count, card_known=gpu is not None), gpu)


def paged_need(est: MemoryEstimate) -> float:
    """What a job with a paged optimizer must keep on the card: all but the optimizer's moments (GiB), which are
    the whole optimizer share unless it holds a mixed-precision fp32 master too."""
    pageable = est.chosen.get("pageable_optimizer_gib")
    moments = float(pageable) if isinstance(pageable, (int, float)) else est.breakdown.get("optimizer", 0.0)
    return est.per_gpu_gib - moments


def paged(est: MemoryEstimate, gpu: GPU | None) -> MemoryEstimate:
    """A paged optimizer's states stay on the card while there is room and move to host RAM when there is
    not: the job needs everything else, and on a known card occupies at most what the card gives it."""
    need = round(paged_need(est), 3)
    occupied = est.per_gpu_gib if gpu is None else round(min(est.per_gpu_gib, max(need, usable_gib(gpu))), 3)
    return replace(est, per_gpu_gib=occupied, total_gib=round(occupied * est.gpu_count, 3),
                   required_per_gpu_gib=need, notes=[*est.notes, "paged-optimizer"])
