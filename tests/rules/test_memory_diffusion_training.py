"""Training a diffusion pipeline (rules/memory_diffusion_training.py), worked by hand on toys: a FLUX-like
transformer pipeline and an SD-1.5-like UNet one."""

from __future__ import annotations

from typing import Any

import pytest

from rules import constants as C
from rules import estimate_memory
from rules.memory_diffusion import pipeline_parts
from rules.memory_diffusion_training import activation_bytes, diffusion_training_options
from rules.types import Workload
from tests.rules._models import make_gpu, make_model

GIB = 2**30


def pipeline(denoiser_b: float, encoders: list[tuple[str, float]], vae_b: float, **details: Any) -> Any:
    components = {"transformer_params_b": denoiser_b, "vae_params_b": vae_b,
                  "text_encoders": [{"name": name, "params_b": b} for name, b in encoders]}
    return make_model(id="toy-pipeline", modality="image-generation", arch="diffusion",
                      params_b=denoiser_b + vae_b + sum(b for _, b in encoders), num_layers=None, hidden_size=None,
                      num_attention_heads=None, num_kv_heads=None, head_dim=None, attention=None,
                      intermediate_size=None, mlp=None, vocab_size=None, tie_embeddings=None,
                      details={"components": components, "native_resolution": 512, **details})


def sd15_like(**details: Any) -> Any:
    return pipeline(0.86, [("CLIP-L", 0.123)], 0.084, **details)


def flux_like(**details: Any) -> Any:
    return pipeline(12.0, [("CLIP-L", 0.12), ("T5-XXL", 4.76)], 0.08, native_resolution=1024, **details)


def test_full_training_holds_fp32_weights_gradients_and_adam_moments() -> None:
    est = estimate_memory(Workload(model=sd15_like(), task="train", precision="fp16", gradient_checkpointing=True))
    # The trained UNet in fp32 (4 B) + the 16-bit VAE; the text encoder's outputs are cached (off the card).
    assert est.breakdown["weights"] == pytest.approx((0.86e9 * 4 + 0.084e9 * 2) / GIB, abs=0.001)
    assert est.breakdown["gradients"] == pytest.approx(0.86e9 * 4 / GIB, abs=0.001)
    assert est.breakdown["optimizer"] == pytest.approx(0.86e9 * 8 / GIB, abs=0.001)  # two fp32 moments
    assert "diffusion-text-encoders-cached" in est.notes
    eight_bit = estimate_memory(Workload(model=sd15_like(), task="train", precision="fp16",
                                         gradient_checkpointing=True, optimizer="adamw-8bit"))
    assert eight_bit.breakdown["optimizer"] == pytest.approx(0.86e9 * 2 / GIB, abs=0.001)


def test_text_encoders_cached_resident_or_trained() -> None:
    base = dict(model=sd15_like(), task="train", precision="fp16", gradient_checkpointing=True)
    cached = estimate_memory(Workload(**base))  # type: ignore[arg-type]
    resident = estimate_memory(Workload(**base, text_encoders="resident"))  # type: ignore[arg-type]
    trained = estimate_memory(Workload(**base, text_encoders="trained"))  # type: ignore[arg-type]
    assert resident.breakdown["weights"] - cached.breakdown["weights"] == pytest.approx(0.123e9 * 2 / GIB, abs=0.001)
    # Trained whole: fp32 weights, fp32 gradients and moments, like the UNet.
    assert trained.breakdown["weights"] - cached.breakdown["weights"] == pytest.approx(0.123e9 * 4 / GIB, abs=0.001)
    assert trained.breakdown["gradients"] == pytest.approx((0.86e9 + 0.123e9) * 4 / GIB, abs=0.001)
    assert "diffusion-text-encoders-trained" in trained.notes


def test_lora_counts_its_adapters_from_the_entry_per_rank() -> None:
    model = flux_like(lora_params_per_rank=1_167_360)
    est = estimate_memory(Workload(model=model, task="lora", precision="bf16", lora_rank=4,
                                   gradient_checkpointing=True))
    adapters = 4 * 1_167_360
    assert est.chosen["trainable_params_m"] == pytest.approx(4.7, abs=0.05)
    # Frozen transformer and VAE in bf16, adapters in fp32; gradients fp32; AdamW's two fp32 moments.
    assert est.breakdown["weights"] == pytest.approx((12.08e9 * 2 + adapters * 4) / GIB, abs=0.001)
    assert est.breakdown["gradients"] == pytest.approx(adapters * 4 / GIB, abs=0.001)
    assert est.breakdown["optimizer"] == pytest.approx(adapters * 8 / GIB, abs=0.001)
    without = estimate_memory(Workload(model=flux_like(), task="lora", precision="bf16", gradient_checkpointing=True))
    assert without.chosen["trainable_params_m"] == pytest.approx(C.DIFFUSION_ADAPTER_SHARE * 12e3, abs=0.1)


def test_qlora_puts_the_denoiser_in_nf4_and_the_t5_too_when_it_stays() -> None:
    cached = estimate_memory(Workload(model=flux_like(lora_params_per_rank=1_000_000), task="qlora",
                                      precision="bf16", gradient_checkpointing=True))
    adapters = 16 * 1_000_000 * 4
    assert cached.breakdown["weights"] == pytest.approx((12e9 * 0.5625 + 0.08e9 * 2 + adapters) / GIB, abs=0.001)
    resident = estimate_memory(Workload(model=flux_like(lora_params_per_rank=1_000_000), task="qlora",
                                        precision="bf16", gradient_checkpointing=True, text_encoders="resident"))
    assert resident.breakdown["weights"] - cached.breakdown["weights"] == pytest.approx(
        (4.76e9 * 0.5625 + 0.12e9 * 2) / GIB, abs=0.001)


def test_activations_grow_with_pixels_and_batch_and_checkpointing_cuts_them() -> None:
    model = sd15_like()
    parts = pipeline_parts(model)
    assert parts is not None
    one = activation_bytes(Workload(model=model, task="train"), parts, 512, checkpointing=False)
    assert activation_bytes(Workload(model=model, task="train", batch=4), parts, 1024, checkpointing=False) == \
        pytest.approx(one * 16)
    ckpt = activation_bytes(Workload(model=model, task="train"), parts, 512, checkpointing=True)
    assert ckpt < one
    size = 0.86 ** C.DIFFUSION_TRAIN_ACT_PARAMS_EXPONENT
    assert one == pytest.approx(C.DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL * size * 0.262144 * GIB)


def test_checkpointing_is_turned_on_only_when_the_card_needs_it() -> None:
    w = Workload(model=sd15_like(), task="train", precision="fp16", batch=8)
    options = diffusion_training_options(w, 1)
    assert options is not None and [o.chosen["gradient_checkpointing"] for o in options] == [False, True]
    roomy = estimate_memory(w, 1, make_gpu(memory_gb=80.0))
    assert roomy.chosen["gradient_checkpointing"] is False
    tight_card = make_gpu(memory_gb=options[1].per_gpu_gib + 1.5)
    assert options[0].per_gpu_gib > tight_card.memory_gb  # the premise: only recomputation fits
    assert estimate_memory(w, 1, tight_card).chosen["gradient_checkpointing"] is True
    stated = estimate_memory(Workload(model=sd15_like(), task="train", gradient_checkpointing=False), 1,
                             make_gpu(memory_gb=8.0))
    assert stated.chosen["gradient_checkpointing"] is False  # as the question says, fitting or not


def test_a_large_denoiser_is_sized_with_checkpointing_as_its_trainers_run_it() -> None:
    w = Workload(model=flux_like(), task="lora", precision="bf16")
    options = diffusion_training_options(w, 1)
    assert options is not None and [o.chosen["gradient_checkpointing"] for o in options] == [True]
    assert estimate_memory(w, 1, make_gpu(memory_gb=80.0)).chosen["gradient_checkpointing"] is True
    off = estimate_memory(Workload(model=flux_like(), task="lora", precision="bf16", gradient_checkpointing=False))
    assert off.chosen["gradient_checkpointing"] is False  # said off: sized off


def test_a_pipeline_without_parts_keeps_the_generic_sizing() -> None:
    model = make_model(id="opaque", modality="image-generation", arch="diffusion", params_b=1.0, num_layers=None,
                       hidden_size=None, num_attention_heads=None, num_kv_heads=None, head_dim=None, attention=None,
                       intermediate_size=None, mlp=None, vocab_size=None, tie_embeddings=None, details={})
    assert diffusion_training_options(Workload(model=model, task="lora"), 1) is None
    assert estimate_memory(Workload(model=model, task="lora")).per_gpu_gib > 0


def test_zero_shards_an_image_trainers_states_across_the_cards() -> None:
    w = Workload(model=flux_like(), task="train", precision="bf16", gradient_checkpointing=True)
    one = estimate_memory(w, 1)
    assert one.chosen["zero_stage"] == 0
    for stage, weights, grads, moments in ((2, 1, 4, 4), (3, 4, 4, 4)):
        est = estimate_memory(Workload(model=flux_like(), task="train", precision="bf16", gradient_checkpointing=True,
                                       zero_stage=stage), 4)  # type: ignore[arg-type]
        assert est.chosen["zero_stage"] == stage and f"zero{stage}" in est.notes
        # fp32 weights and gradients (4 B each) and AdamW's two fp32 moments (8 B) of the 12B transformer
        assert est.breakdown["weights"] == pytest.approx((12e9 * 4 / weights + 0.08e9 * 2) / GIB, abs=0.01)
        assert est.breakdown["gradients"] == pytest.approx(12e9 * 4 / grads / GIB, abs=0.01)
        assert est.breakdown["optimizer"] == pytest.approx(12e9 * 8 / moments / GIB, abs=0.01)
    # With no stage stated, plain data parallel first and the sharded stages only when a card needs them
    options = diffusion_training_options(w, 4)
    assert options is not None and [o.chosen["zero_stage"] for o in options] == [0, 2, 3]
    assert estimate_memory(w, 4, make_gpu(memory_gb=80.0)).chosen["zero_stage"] == 3


def test_more_cards_do_not_shrink_an_image_lora() -> None:
    w = Workload(model=flux_like(), task="lora", precision="bf16", gradient_checkpointing=True)
    options = diffusion_training_options(w, 4)
    assert options is not None and [o.chosen["zero_stage"] for o in options] == [0, 2]
    one, four = estimate_memory(w, 1), estimate_memory(w, 4, make_gpu(memory_gb=24.0))
    assert four.breakdown["weights"] == pytest.approx(one.breakdown["weights"], abs=0.01)  # the base stays whole
