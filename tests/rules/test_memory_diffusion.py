"""Diffusion pipelines sized part by part (rules/memory_diffusion.py), worked by hand on a FLUX-like toy."""

from __future__ import annotations

from typing import Any

import pytest

from rules import constants as C
from rules import estimate_memory
from rules import weight_formats as WF
from rules.alternatives import suggestions
from rules.memory_diffusion import LARGE_TEXT_ENCODER_PARAMS_B, pipeline_parts, pipeline_weight_bytes
from rules.speed_media import diffusion_seconds_per_image, diffusion_steps
from rules.types import Workload
from tests.rules._models import make_gpu, make_model

GIB = 2**30


def flux_like(**details: Any) -> Any:
    """12B transformer, CLIP-L 0.12B and T5 4.76B text encoders, 0.08B VAE: 16.96B in all."""
    components = {"transformer_params_b": 12.0, "vae_params_b": 0.08,
                  "text_encoders": [{"name": "CLIP-L", "params_b": 0.12}, {"name": "T5-XXL", "params_b": 4.76}]}
    return make_model(id="flux-toy", modality="image-generation", arch="diffusion", params_b=16.96,
                      num_layers=None, hidden_size=None, num_attention_heads=None, num_kv_heads=None,
                      head_dim=None, attention=None, intermediate_size=None, mlp=None, vocab_size=None,
                      tie_embeddings=None,
                      details={"components": components, "native_resolution": 1024, **details})


def test_parts_come_from_the_components() -> None:
    parts = pipeline_parts(flux_like())
    assert parts is not None
    assert parts.denoiser == pytest.approx(12e9)
    assert parts.vae == pytest.approx(0.08e9)
    assert parts.quantised_text_encoders == pytest.approx(4.76e9)  # T5 is above the 1B line
    assert parts.small_text_encoders == pytest.approx(0.12e9)
    assert LARGE_TEXT_ENCODER_PARAMS_B == 1.0


def test_unlisted_text_encoders_are_what_params_b_leaves() -> None:
    # SD1.5's entry: UNet 0.86B and VAE 0.084B of 1.07B; the 0.126B left is its CLIP text tower.
    model = flux_like().model_copy(update={
        "params_b": 1.07, "details": {"components": {"unet_params_b": 0.86, "vae_params_b": 0.084}}})
    parts = pipeline_parts(model)
    assert parts is not None
    assert parts.text_encoders[0][1] == pytest.approx(0.126e9)
    assert pipeline_parts(make_model()) is None  # a decoder has no pipeline


def test_bf16_pipeline_weighs_every_part_at_two_bytes() -> None:
    weights, notes = pipeline_weight_bytes(flux_like(), "bf16", None) or (0.0, [])
    assert weights == pytest.approx(16.96e9 * 2)
    assert notes == []


def test_nf4_quantises_the_denoiser_and_t5_only() -> None:
    # (12 + 4.76)e9 × 0.5625 B (NF4, fp32 absmax per 64) + (0.12 + 0.08)e9 × 2 B.
    weights, notes = pipeline_weight_bytes(flux_like(), "int4", "nf4") or (0.0, [])
    assert weights == pytest.approx(16.76e9 * 0.5625 + 0.2e9 * 2)
    assert "diffusion-small-parts-16bit" in notes


def test_model_cpu_offload_keeps_the_largest_part() -> None:
    weights, notes = pipeline_weight_bytes(flux_like(), "bf16", None, offload=True) or (0.0, [])
    assert weights == pytest.approx(12e9 * 2)  # the transformer; T5 (9.5 GB) waits in host RAM
    assert "diffusion-model-offload" in notes
    est = estimate_memory(Workload(model=flux_like(), precision="bf16", offload="all"))
    assert est.breakdown["weights"] == pytest.approx(12e9 * 2 / GIB, abs=0.01)
    assert est.chosen["offload"] == "model"


def test_estimate_adds_activations_per_megapixel() -> None:
    est = estimate_memory(Workload(model=flux_like(), precision="bf16", image_resolution=1024, batch=2))
    expected = C.DIFFUSION_ACTIVATION_GIB_PER_MPIXEL * (1024 * 1024 / 1e6) * 2
    assert est.breakdown["activations"] == pytest.approx(expected, rel=1e-3)
    assert est.breakdown["weights"] == pytest.approx(16.96e9 * 2 / GIB, abs=0.01)


def test_a_pipeline_that_decodes_in_fp32_doubles_the_activations_of_an_fp16_run_only() -> None:
    # SDXL's pipeline casts its VAE to fp32 for the decode when the run is fp16: 1.048576 Mpx × 2 (fp32 bytes).
    upcasting = flux_like(vae_decodes_fp32_when_fp16=True)
    per_image = C.DIFFUSION_ACTIVATION_GIB_PER_MPIXEL * (1024 * 1024 / 1e6)
    fp16 = estimate_memory(Workload(model=upcasting, precision="fp16", image_resolution=1024))
    assert fp16.breakdown["activations"] == pytest.approx(2 * per_image, rel=1e-3)
    assert "vae-fp32-decode" in fp16.notes
    bf16 = estimate_memory(Workload(model=upcasting, precision="bf16", image_resolution=1024))
    assert bf16.breakdown["activations"] == pytest.approx(per_image, rel=1e-3)  # bf16 does not overflow
    plain = estimate_memory(Workload(model=flux_like(), precision="fp16", image_resolution=1024))
    assert plain.breakdown["activations"] == pytest.approx(per_image, rel=1e-3)
    training = estimate_memory(Workload(model=upcasting, task="lora", precision="fp16", image_resolution=1024))
    assert "vae-fp32-decode" not in training.notes  # training scripts never decode through the pipeline



def test_an_fp16_run_that_decodes_in_fp32_is_offered_bf16_on_a_card_that_has_it() -> None:
    upcasting = flux_like(vae_decodes_fp32_when_fp16=True)
    w = Workload(model=upcasting, precision="fp16", image_resolution=1024, batch=8)
    bf16_card = make_gpu(memory_gb=56.0)  # fp16 needs ≈ 63 GiB at 8 images, bf16 ≈ 48
    kinds = {s.kind: s for s in suggestions(w, bf16_card, 1, [bf16_card])}
    assert kinds["bf16"].precision == "bf16"
    assert kinds["bf16"].memory_per_gpu_gib == pytest.approx(
        estimate_memory(Workload(model=upcasting, precision="bf16", image_resolution=1024, batch=8)).per_gpu_gib,
        abs=0.01)
    fp16_only = make_gpu(memory_gb=56.0, bf16_tflops=None, architecture="Volta")
    assert "bf16" not in {s.kind for s in suggestions(w, fp16_only, 1, [fp16_only])}

def test_a_card_too_small_is_offered_offload_and_bitsandbytes() -> None:
    card = make_gpu(memory_gb=32.0)  # 33.9 GB of bf16 weights; the 24 GB transformer alone fits
    kinds = {s.kind: s for s in suggestions(Workload(model=flux_like(), precision="bf16"), card, 1, [card])}
    assert kinds["quantise"].quant in ("bnb-int8", "nf4")  # diffusers quantises on load: no GPTQ/AWQ files
    assert "model-offload" in kinds


def test_seconds_per_image_scale_with_steps_and_pixels() -> None:
    a100 = make_gpu()
    slow = make_gpu(fp16_tflops=78.0, bf16_tflops=78.0)  # a quarter of the reference's peak
    model = flux_like(reference_speed={"gpu": "card", "seconds_per_image": 10.0, "steps": 50, "resolution": 1024},
                      default_steps=28)
    assert diffusion_steps(model) == 28
    assert diffusion_seconds_per_image(model, a100, a100) == pytest.approx(10.0)
    assert diffusion_seconds_per_image(model, slow, a100, steps=28) == pytest.approx(10.0 * 4 * 28 / 50)
    assert diffusion_seconds_per_image(model, a100, a100, steps=50, resolution=512) == pytest.approx(2.5)
    assert diffusion_seconds_per_image(flux_like(), a100, a100) is None  # no reference, no figure


def test_a_gguf_denoiser_leaves_t5_in_16_bit() -> None:
    weights, notes = pipeline_weight_bytes(flux_like(), "int4", "gguf-q4_1") or (0.0, [])
    assert weights == pytest.approx(12e9 * WF.GGUF_BYTES_PER_PARAM["gguf-q4_1"] + 4.96e9 * 2)
    assert notes == ["diffusion-denoiser-only"]
    stated, _ = pipeline_weight_bytes(flux_like(), "int4", "nf4", text_encoders_too=False) or (0.0, [])
    assert stated == pytest.approx(12e9 * 0.5625 + 4.96e9 * 2)


def test_model_offload_cannot_move_8bit_parts() -> None:
    # LLM.int8 transformer and T5 stay on the card; only the 16-bit CLIP and VAE move, so the largest of those
    # joins them: 16.76e9 × 1 B + 0.12e9 × 2 B.
    weights, notes = pipeline_weight_bytes(flux_like(), "int8", "bnb-int8", offload=True) or (0.0, [])
    assert weights == pytest.approx(16.76e9 + 0.12e9 * 2)
    assert "diffusion-8bit-stays" in notes
    four_bit, _ = pipeline_weight_bytes(flux_like(), "int4", "nf4", offload=True) or (0.0, [])
    assert four_bit == pytest.approx(12e9 * 0.5625)  # 4-bit parts move: the transformer is the largest


def test_a_quantised_sdxl_denoiser_still_decodes_in_fp32() -> None:
    from knowledge.loader import load_knowledge
    from rules import Workload, estimate_memory

    kb = load_knowledge()
    sdxl = next(m for m in kb.models.values() if m.details.get("vae_decodes_fp32_when_fp16"))
    fp16 = estimate_memory(Workload(model=sdxl, task="inference", precision="fp16", batch=4, image_resolution=1024), 1)
    int8 = estimate_memory(Workload(model=sdxl, task="inference", precision="int8", quant="bnb-int8", batch=4,
                                    image_resolution=1024), 1)
    # 8-bit weights shrink the denoiser, not the VAE decode's fp32 activation peak
    assert int8.breakdown["activations"] == fp16.breakdown["activations"]
    assert int8.breakdown["weights"] < fp16.breakdown["weights"]


def sdxl_like() -> Any:
    """2.57B UNet, 0.82B of CLIP towers, 0.08B VAE that SDXL's pipeline upcasts to fp32 for an fp16 decode."""
    components = {"unet_params_b": 2.57, "vae_params_b": 0.08,
                  "text_encoders": [{"name": "CLIP-L", "params_b": 0.12}, {"name": "CLIP-G", "params_b": 0.7}]}
    return make_model(id="sdxl-toy", modality="image-generation", arch="diffusion", params_b=3.47,
                      num_layers=None, hidden_size=None, num_attention_heads=None, num_kv_heads=None,
                      head_dim=None, attention=None, intermediate_size=None, mlp=None, vocab_size=None,
                      tie_embeddings=None,
                      details={"components": components, "native_resolution": 1024,
                               "vae_decodes_fp32_when_fp16": True})


def test_model_offload_is_offered_before_a_4_bit_denoiser() -> None:
    # the same pictures, only slower: where model CPU offload fits, it comes before NF4 (audit 29 M-63)
    card = make_gpu(id="ten", memory_gb=10.0)
    kinds = [s.kind for s in suggestions(Workload(model=sdxl_like(), precision="fp16"), card, 1, [card])]
    assert "model-offload" in kinds
    assert "quantise" not in kinds or kinds.index("model-offload") < kinds.index("quantise")
