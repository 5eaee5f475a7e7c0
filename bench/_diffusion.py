"""Image-generation rows of the ground truth → request fields (image size, batch, offload, which parts a
format quantises), or the reason they cannot be mapped honestly."""

from __future__ import annotations

import math
from typing import Any

from _engines import flag_setting

LARGE_TEXT_ENCODERS = ("text_encoder_2", "text_encoder_3")
"""The pipelines' T5-XXL slots (FLUX text_encoder_2, SD3 text_encoder_3): what `quantise_text_encoders` covers."""

BACKEND_QUANT = (("gguf", None), ("bitsandbytes", "bnb"), ("bnb", "bnb"), ("torchao", "plain"), ("quanto", "plain"),
                 ("layerwise", "plain"))
"""How a row's quantisation backend maps to the rules' formats: bitsandbytes to its own NF4 / LLM.int8 layouts,
weight-only int8/int4/fp8 (torchao, Quanto, layerwise casting) to the plain per-channel sizes; GGUF keeps the
row's own type from map_precision."""


def _resolution(settings: dict[str, Any]) -> int | None:
    value = settings.get("resolution")
    if isinstance(value, int | float) and value > 0:
        return int(value)
    width, height = settings.get("width"), settings.get("height")
    if isinstance(width, int | float) and isinstance(height, int | float):
        return round(math.sqrt(float(width) * float(height)))
    return None  # "pipeline default": the model's native resolution


class Unmodelled(Exception):
    """The row's set-up is one the rules do not model (the caller turns it into a skip)."""


def diffusion_request(case: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """Fields to add to an image-generation row's request; raises Unmodelled for what the rules do not size."""
    settings: dict[str, Any] = case.get("settings") or {}
    offload = str(settings.get("offload") or "none")
    if offload in ("sequential_cpu_offload", "group_offload"):
        raise Unmodelled(f"{offload} (layer-by-layer streaming) not modelled")
    encoders = str(settings.get("text_encoders") or "all").lower()
    if case.get("task") != "inference":
        return training_request(settings, int(request.get("batch", 1)))
    if not encoders.startswith(("all", "not stated")):
        raise Unmodelled(f"text encoders not on the card ({encoders}): not modelled")
    if any(flag_setting(settings.get(k)) for k in ("vae_slicing", "vae_tiling", "attention_slicing")) or \
            "tiny" in str(settings.get("vae") or "").lower():
        raise Unmodelled("VAE slicing or tiling, attention slicing or a tiny VAE: not modelled")
    out: dict[str, Any] = {}
    resolution = _resolution(settings)
    if resolution is not None:
        out["image_resolution"] = resolution
    if offload == "model_cpu_offload":
        out["offload"] = "all"
    parts = [str(part) for part in settings.get("quantized_components") or []]
    if request.get("quant") or request.get("precision") not in ("bf16", "fp16", "fp32"):
        # an entry names its component first and may gloss it: "T5 text_encoder_2 (qfloat8)"
        out["quantise_text_encoders"] = any(name in part for part in parts for name in LARGE_TEXT_ENCODERS)
        backend = str(settings.get("quant_backend") or "").lower()
        kind = next((k for word, k in BACKEND_QUANT if word in backend), None)
        precision = request.get("precision")
        if kind == "bnb" and not request.get("quant"):
            out["quant"] = "nf4" if precision == "int4" else "bnb-int8"
        elif kind == "plain" and not request.get("quant") and precision in ("int8", "int4", "fp8"):
            out["quant"] = str(precision)
    return out


def training_request(settings: dict[str, Any], batch: int) -> dict[str, Any]:
    """A training row's image size, images per step and where its text encoders are: trained
    (`train_text_encoder`), cached (precomputed, cached or freed before training), on the card (loaded by the
    script, the default of diffusers' text-to-image scripts, which encode each caption), or unstated (the rules'
    default, cached). Raises Unmodelled for a ControlNet (a trained copy of half the UNet), blocks swapped to the
    CPU or DeepSpeed offload."""
    if "controlnet" in str(settings.get("trained_module") or "").lower():
        raise Unmodelled("ControlNet training (a trained copy of the UNet's encoder) not modelled")
    if "swap" in str(settings.get("offload") or "").lower():
        raise Unmodelled("blocks swapped to the CPU (kohya --blocks_to_swap) not modelled")
    if "offload" in str(settings.get("deepspeed") or "").lower():
        raise Unmodelled("DeepSpeed offload of an image trainer not modelled")
    out: dict[str, Any] = {}
    if flag_setting(settings.get("with_prior_preservation")):
        out["batch"] = 2 * batch  # DreamBooth's prior preservation runs a class image beside each instance image
    if "fused" in str(settings.get("optimizer") or "").lower():
        out["optimizer_in_backward"] = True  # kohya --fused_backward_pass: each gradient applied and freed at once
    mixed = str(settings.get("mixed_precision") or "").lower()
    if "full_fp16" in mixed or "full_bf16" in mixed:
        out["pure_16bit"] = True  # kohya --full_fp16/--full_bf16: 16-bit weights and gradients, no fp32 copy
    resolution = _resolution(settings)
    if resolution is not None:
        out["image_resolution"] = resolution
    encoders = str(settings.get("text_encoders") or "").lower()
    if flag_setting(settings.get("train_text_encoder")):
        out["text_encoders"] = "trained"
    elif any(word in encoders for word in ("on the card", "on the gpu", "loaded by the script", "resident")):
        out["text_encoders"] = "resident"
    elif any(word in encoders for word in ("precomputed", "cached", "not loaded", "freed", "offloaded")):
        out["text_encoders"] = "cached"
    if flag_setting(settings.get("fp8_training")):
        out["precision"] = "bf16"  # torchao float8 training: fp8 matmuls over bf16 weights, not an fp8 base
    return out
