"""Training a diffusion pipeline: its denoiser fine-tuned whole (full fine-tuning, DreamBooth) or through adapters
(LoRA; QLoRA over an NF4 base), on one card or data-parallel over several, as the image trainers people use hold
it.

Why apart from the LLM trainer's rules: image trainers keep their memory differently.

* The trained weights are fp32. diffusers' example scripts refuse a trainable denoiser that is not ("Please make
  sure to always have all model weights in full float32 precision when starting training - even if doing mixed
  precision training", examples/dreambooth/train_dreambooth.py) and upcast LoRA adapters to fp32 under fp16
  (`cast_training_params`, examples/dreambooth/train_dreambooth_lora_*.py); mixed precision autocasts the
  compute. A full run therefore holds 4 B of weights and 4 B of gradients per parameter and the optimizer's
  moments, with no second master copy.
* The frozen parts (the base under adapters, the VAE, the text encoders) are in the 16-bit `weight_dtype`; the
  base is NF4 under QLoRA.
* The text encoders run once per caption, so trainers cache their outputs: kohya's
  `--cache_text_encoder_outputs`, SimpleTuner's text-embed cache, and diffusers' DreamBooth scripts, which
  encode the one instance prompt and free the encoders. That is the default here (`text_encoders` "cached");
  they stay on the card when said to ("resident"), and a run that trains them ("trained") holds them as it
  holds the denoiser.
* Activations grow with the pixels of each image; gradient checkpointing (diffusers' `--gradient_checkpointing`,
  off in the scripts, on in the trainers' configurations for the large denoisers) keeps each block's input and
  recomputes the rest. Which constants size them, and what they were fitted on, is in rules/constants.py
  (DIFFUSION_TRAIN_*).
* Over several cards a full fine-tune may shard its states with DeepSpeed ZeRO; an adapter run shards only its
  adapters' (see `diffusion_training_options`).
"""

from __future__ import annotations

from rules import constants as C
from rules.engine_profile import optimizer_for
from rules.memory_common import breakdown, gib
from rules.memory_diffusion import PipelineParts, part_bytes, pipeline_parts
from rules.precision import normalise_quant
from rules.types import MemoryEstimate, Workload


def adapter_params(w: Workload, parts: PipelineParts) -> float:
    """Adapter parameters: the entry's count per unit of rank for the scripts' default targets (the attention
    projections to_q, to_k, to_v, to_out.0), else a 2% stand-in of the denoiser."""
    per_rank = w.model.details.get("lora_params_per_rank")
    if isinstance(per_rank, int | float) and not isinstance(per_rank, bool) and per_rank > 0:
        return float(per_rank) * w.lora_rank
    return C.DIFFUSION_ADAPTER_SHARE * parts.denoiser


def activation_bytes(w: Workload, parts: PipelineParts, resolution: int, checkpointing: bool) -> float:
    """What one micro-batch keeps for backward at `resolution`² pixels per image (see the module docstring)."""
    per_mpixel = (C.DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL_CHECKPOINTED if checkpointing
                  else C.DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL)
    size = (parts.denoiser / 1e9) ** C.DIFFUSION_TRAIN_ACT_PARAMS_EXPONENT
    dtype_scale = 2.0 if w.precision == "fp32" else 1.0
    return per_mpixel * size * resolution * resolution / 1e6 * w.batch * dtype_scale * C.GIB


def _once(w: Workload, parts: PipelineParts, n: int, checkpointing: bool, stage: int = 0) -> MemoryEstimate:
    quant = normalise_quant(w.quant, w.precision, "transformers")
    if w.task == "qlora" and quant is None:
        quant = "nf4"
    frozen_precision = "fp16" if w.precision in ("fp8", "int8", "int4", "mxfp4") else w.precision
    sizes = part_bytes(parts, frozen_precision if quant is None else w.precision, quant,
                       text_encoders_too=None if quant else False)
    mode = w.text_encoders or "cached"
    encoders = {part: size for part, size in sizes.items() if part.startswith("text_encoder")}
    trained = parts.denoiser if w.task == "train" else adapter_params(w, parts)
    notes = ["diffusion-training" if w.task == "train" else "diffusion-training-adapters"]
    if mode == "cached":
        notes.append("diffusion-text-encoders-cached")
        encoder_bytes = 0.0
    else:
        encoder_bytes = sum(encoders.values())
        if mode == "trained":
            notes.append("diffusion-text-encoders-trained")
            encoder_params = sum(p for _, p in parts.text_encoders)
            if w.task == "train":
                encoder_bytes = 0.0  # trained whole: counted with the denoiser's fp32 weights below
                trained += encoder_params
            else:
                trained += C.DIFFUSION_ADAPTER_SHARE * encoder_params
    weight_bytes = 2.0 if w.pure_16bit else 4.0
    # DeepSpeed ZeRO across the n data-parallel cards (accelerate's DeepSpeed plugin, SimpleTuner's ZeRO configs):
    # stage 1 shards the optimizer states, 2 the gradients too, 3 every parameter of the wrapped denoiser as well;
    # the VAE and the text encoders stay whole outside the engine.
    shard = [1.0 if stage < level else 1.0 / n for level in (3, 2, 1)]
    if w.task == "train":
        weights = trained * weight_bytes * shard[0] + sizes["vae"] + encoder_bytes
    else:
        weights = (sizes["denoiser"] + trained * weight_bytes) * shard[0] + sizes["vae"] + encoder_bytes
    # An optimizer stepped inside backward (kohya's --fused_backward_pass) frees each gradient as it is made.
    gradients = 0.0 if w.optimizer_in_backward else trained * weight_bytes * shard[1]
    # the moments of a parameter already trained in fp32 (no master copy beyond it), as an adapter's are
    moments = C.ADAPTER_OPTIMIZER_BYTES[optimizer_for(w)] * (0.5 if w.pure_16bit else 1.0)
    optimizer = trained * moments * shard[2]
    resolution = w.image_resolution or int(w.model.details.get("native_resolution", 512))
    activations = activation_bytes(w, parts, resolution, checkpointing)
    if checkpointing:
        notes.append("gradient-checkpointing")
    overhead = C.TRAIN_OVERHEAD_GIB * C.GIB + C.TRAIN_OVERHEAD_FRACTION * weights
    per = dict(weights=weights, activations=activations, gradients=gradients, optimizer=optimizer,
               overhead=overhead)
    per_gpu = sum(per.values())
    if n > 1:
        notes.append(f"zero{stage}" if stage else "data-parallel")
    chosen: dict[str, object] = {"zero_stage": stage, "resolution": resolution, "batch": w.batch,
                                 "gradient_checkpointing": checkpointing, "text_encoders": mode,
                                 "optimizer": optimizer_for(w), "trainable_params_m": round(trained / 1e6, 1)}
    if w.task != "train":
        chosen["lora_rank"] = w.lora_rank
    return MemoryEstimate(total_gib=round(gib(per_gpu * n), 3), per_gpu_gib=round(gib(per_gpu), 3), gpu_count=n,
                          breakdown=breakdown(**per), notes=notes, chosen=chosen,
                          cuda_context_gib=C.CUDA_CONTEXT_GIB)


def checkpoints_by_default(w: Workload) -> bool:
    """Whether the image trainers' own configurations train this denoiser with gradient checkpointing (one above
    GRADIENT_CHECKPOINTING_MIN_PARAMS_B: SDXL, SD3.5, FLUX), which is how it is sized unless the question says."""
    parts = pipeline_parts(w.model) if w.task != "inference" else None
    return parts is not None and parts.denoiser > C.GRADIENT_CHECKPOINTING_MIN_PARAMS_B * 1e9


def diffusion_training_options(w: Workload, n: int, *, card_known: bool = True) -> list[MemoryEstimate] | None:
    """The set-ups tried in order (ZeRO stages within each checkpointing choice, unless stated): as stated; else,
    for a denoiser beyond GRADIENT_CHECKPOINTING_MIN_PARAMS_B
    (SDXL, SD3.5, FLUX), with recomputation, as the trainers' own configurations for them run (SimpleTuner's
    config.json.example, kohya's and diffusers' documented commands) and the only set-up the fitted constants
    have seen at that size; for a smaller one (SD 1.x/2.x), without it and then, on a known card, with it (the
    scripts' default is off; a practitioner turns it on when the job does not fit). None when the entry does not
    split the pipeline into parts."""
    parts = pipeline_parts(w.model)
    if parts is None:
        return None
    # Plain data parallel first (the scripts' default), then sharded. An adapter run shards no further than its
    # adapters' states: the image trainers' multi-card recipes (diffusers' DeepSpeed ZeRO-2 variant, SimpleTuner)
    # do not partition the frozen base, so more cards do not shrink an image LoRA.
    unstated: list[int] = [0] if n == 1 else ([0, 2, 3] if w.task == "train" else [0, 2])
    stages = [w.zero_stage if n > 1 else 0] if w.zero_stage is not None else unstated
    if w.gradient_checkpointing is not None:
        plans = [w.gradient_checkpointing]
    elif checkpoints_by_default(w):
        plans = [True]
    else:
        plans = [False, True] if card_known else [False]
    return [_once(w, parts, n, checkpointing, stage) for checkpointing in plans for stage in stages]
