"""Diffusion pipelines sized part by part: the denoiser (a UNet or a diffusion transformer), its text encoders
and the VAE.

Why parts rather than `params_b` alone: the parts do not share a precision. A quantised pipeline quantises the
denoiser and the large text encoders (FLUX's and SD3's T5-XXL), and keeps the CLIP towers and the VAE in
16-bit — diffusers' bitsandbytes guide quantises `FluxTransformer2DModel` and `T5EncoderModel` and leaves
`CLIPTextModel` and `AutoencoderKL` alone "because they're already small" (huggingface.co/docs/diffusers,
quantization/bitsandbytes). And a pipeline run with diffusers' `enable_model_cpu_offload()` keeps one part on
the card at a time, so its peak is the largest part, not the sum.

A model's `details.components` gives the parts in billions: `transformer_params_b` or `unet_params_b` (the
denoiser), `text_encoders` (a list of {name, params_b}) and `vae_params_b`. Where the text encoders are not
listed, what `params_b` leaves after the denoiser and the VAE is counted as one 16-bit text encoder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from knowledge.schema import Model
from rules import weight_formats as WF
from rules.precision import bits_per_weight

LARGE_TEXT_ENCODER_PARAMS_B = 1.0
"""Text encoders at least this large (T5-XXL's 4.7B encoder) are quantised with the denoiser; the CLIP towers
(0.12–0.7B) stay 16-bit, as in diffusers' quantisation guides (see the module docstring)."""


def _large(params: float) -> bool:
    return params >= LARGE_TEXT_ENCODER_PARAMS_B * 1e9


def _encoder_key(index: int, name: str) -> str:
    return f"text_encoder_{index}:{name}"


@dataclass(frozen=True)
class PipelineParts:
    """Parameters (units, not billions) of each part of a diffusion pipeline."""

    denoiser: float
    text_encoders: tuple[tuple[str, float], ...]
    vae: float
    fp32_kept: tuple[float, ...] = ()
    """Per text encoder, the parameters of its transformers `_keep_in_fp32_modules` (T5's `wo`), which the
    bitsandbytes quantizers leave unquantised and load in fp32 (their `use_keep_in_fp32_modules = True`)."""

    @property
    def quantised_text_encoders(self) -> float:
        return sum(p for _, p in self.text_encoders if _large(p))

    @property
    def small_text_encoders(self) -> float:
        return sum(p for _, p in self.text_encoders if not _large(p))

    def params_by_part(self) -> dict[str, float]:
        """Parameters per part, keyed as `part_bytes` keys them."""
        encoders = {_encoder_key(index, name): params for index, (name, params) in enumerate(self.text_encoders)}
        return {"denoiser": self.denoiser, **encoders, "vae": self.vae}

    def formatted(self, with_encoders: bool) -> set[str]:
        """The parts that take a quantised format: the denoiser, and the large text encoders when they are too."""
        keys = {"denoiser"}
        if with_encoders:
            keys |= {_encoder_key(index, name) for index, (name, params) in enumerate(self.text_encoders)
                     if _large(params)}
        return keys


def _billions(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return float(value) * 1e9


def pipeline_parts(model: Model) -> PipelineParts | None:
    """The parts of `model`'s pipeline, or None when its knowledge entry names no denoiser size."""
    components = model.details.get("components")
    if model.arch != "diffusion" or not isinstance(components, dict):
        return None
    denoiser = _billions(components.get("transformer_params_b")) or _billions(components.get("unet_params_b"))
    if denoiser is None:
        return None
    vae = _billions(components.get("vae_params_b")) or 0.0
    listed = components.get("text_encoders")
    encoders: list[tuple[str, float]] = []
    kept: list[float] = []
    if isinstance(listed, list):
        for item in listed:
            params = _billions(item.get("params_b")) if isinstance(item, dict) else None
            if params is not None and isinstance(item, dict):
                encoders.append((str(item.get("name") or "text encoder"), params))
                kept.append(_billions(item.get("keep_in_fp32_params_b")) or 0.0)
    if not encoders:
        rest = model.params_b * 1e9 - denoiser - vae
        if rest > 0:
            encoders.append(("text encoder", rest))
            kept.append(0.0)
    return PipelineParts(denoiser=denoiser, text_encoders=tuple(encoders), vae=vae, fp32_kept=tuple(kept))


BITSANDBYTES_QUANTS = frozenset({"nf4", "fp4", "nf4-dq", "bnb-int8"})
"""The bitsandbytes formats: their transformers quantizers keep a model's `_keep_in_fp32_modules` in fp32."""


def bytes_per_param(precision: str, quant: str | None) -> float:
    """Bytes per parameter of the parts that take the job's format (the denoiser and the large text encoders)."""
    if quant is None:
        return WF.BYTES_PER_PARAM_PLAIN[precision]
    bits = bits_per_weight(quant)
    if bits is not None:
        return bits / 8
    if quant in WF.GGUF_BYTES_PER_PARAM:
        return WF.GGUF_BYTES_PER_PARAM[quant]
    return WF.QUANT_BYTES_PER_PARAM[quant]


def quantises_text_encoders(quant: str | None, stated: bool | None = None) -> bool:
    """Whether the large text encoders take the job's format: as stated, else yes — diffusers' bitsandbytes,
    torchao and Quanto recipes quantise T5 with the transformer — except for a GGUF file, which holds the
    transformer alone (diffusers loads it with `from_single_file` and keeps the pipeline's own T5)."""
    if stated is not None:
        return stated
    return not (quant or "").startswith("gguf")


def _plain_bytes(precision: str) -> float:
    return 4.0 if precision == "fp32" else 2.0


def part_bytes(parts: PipelineParts, precision: str, quant: str | None,
               text_encoders_too: bool | None = None) -> dict[str, float]:
    """Bytes of each part on the card: the job's format for the denoiser and (see `quantises_text_encoders`)
    the large text encoders, 16-bit (32-bit for an fp32 job) for the rest."""
    formatted = parts.formatted(quantises_text_encoders(quant, text_encoders_too))
    per_formatted, per_plain = bytes_per_param(precision, quant), _plain_bytes(precision)
    sizes = {part: params * (per_formatted if part in formatted else per_plain)
             for part, params in parts.params_by_part().items()}
    if quant in BITSANDBYTES_QUANTS:
        for index, ((name, _params), kept) in enumerate(zip(parts.text_encoders, parts.fp32_kept, strict=False)):
            key = _encoder_key(index, name)
            if kept and key in formatted:
                sizes[key] += kept * (4.0 - per_formatted)  # T5's wo in fp32 beside the 4-/8-bit rest
    return sizes


def pipeline_weight_bytes(model: Model, precision: str, quant: str | None, offload: bool = False,
                          text_encoders_too: bool | None = None) -> tuple[float, list[str]] | None:
    """Weight bytes on the card for the whole pipeline (or, with model CPU offload, for its largest part),
    and the notes that explain them; None when the entry does not split the pipeline into parts."""
    parts = pipeline_parts(model)
    if parts is None:
        return None
    with_encoders = quantises_text_encoders(quant, text_encoders_too)
    sizes = part_bytes(parts, precision, quant, with_encoders)
    notes: list[str] = []
    if bytes_per_param(precision, quant) < _plain_bytes(precision):
        notes.append("diffusion-small-parts-16bit" if with_encoders else "diffusion-denoiser-only")
    if with_encoders and quant in BITSANDBYTES_QUANTS and any(parts.fp32_kept):
        notes.append("diffusion-t5-wo-fp32")
    if offload:
        notes.append("diffusion-model-offload")
        pinned = parts.formatted(with_encoders) if quant in PINNED_FORMATS else set()
        moving = [size for part, size in sizes.items() if part not in pinned]
        if pinned:
            notes.append("diffusion-8bit-stays")
        return sum(sizes[part] for part in pinned) + max(moving, default=0.0), notes
    return sum(sizes.values()), notes


PINNED_FORMATS = frozenset({"bnb-int8"})
"""Formats whose modules `enable_model_cpu_offload()` leaves on the card: diffusers places no offload hook on a
component loaded in bitsandbytes 8-bit ("Skipping the hook placement … as it is loaded in `bitsandbytes` 8bit",
DiffusionPipeline.enable_model_cpu_offload, pipeline_utils.py), since LLM.int8 weights could not be moved
between devices. The diffusers quantisation blog measures it: FLUX.1-dev with 8-bit transformer and T5 peaks at
23.4 GiB with model offload against 24.4 without, where 4-bit drops from 17.3 to 12.4."""
