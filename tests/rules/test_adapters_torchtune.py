"""Adapter targets and PEFT methods, and torchtune's memory behaviour, with hand-computed cases.

make_model(): hidden 4096, 32 heads of 128 (MHA), intermediate 11008 (gated), 32 layers, vocab 32,000.
"""

from __future__ import annotations

import pytest

from rules import constants as C
from rules import estimate_memory
from rules.memory_adapters import adapter_input_features, adapter_params
from rules.precision import param_split
from rules.types import Workload
from tests.rules._models import make_model

GIB = 2**30


def test_adapter_on_q_and_v_only() -> None:
    # q: 4096 → 4096, v: 4096 → 4096: r · (8192 + 8192) per layer = 8 · 16,384 · 32 layers = 4,194,304.
    w = Workload(model=make_model(), task="lora", lora_rank=8, lora_targets=("q", "v"))
    assert adapter_params(w) == 4_194_304
    assert adapter_input_features(w) == 2 * 4096


def test_all_linear_keeps_six_hidden_plus_intermediate_inputs() -> None:
    w = Workload(model=make_model(), task="lora")
    assert adapter_input_features(w) == 6 * 4096 + 11008


def test_prompt_methods_have_no_per_linear_adapter_and_stated_params_win() -> None:
    w = Workload(model=make_model(), task="lora", peft_method="prompt", trainable_params=8_601_628)
    assert adapter_input_features(w) == 0
    assert adapter_params(w) == 8_601_628


def test_q_v_adapter_keeps_fewer_activations_than_all_linear() -> None:
    # One layer less per token and layer: 3 B × (35,584 − 8,192) × 2048 tokens × 32 layers (no checkpointing).
    base = dict(model=make_model(), task="lora", context=2048, gradient_checkpointing=False)
    full = estimate_memory(Workload(**base))  # type: ignore[arg-type]
    qv = estimate_memory(Workload(**base, lora_targets=("q", "v")))  # type: ignore[arg-type]
    diff = 3 * (35_584 - 8_192) * 2048 * 32 / GIB
    assert full.breakdown["activations"] - qv.breakdown["activations"] == pytest.approx(diff, abs=1e-3)


FULL = dict(task="train", precision="bf16", context=1024, batch=1, gradient_checkpointing=True)


def test_torchtune_keeps_adam_states_in_bf16() -> None:
    # transformers: fp32 master + moments 12 B/param; torchtune: two bf16 moments, 4 B/param.
    model = make_model()
    p = param_split(model).total
    hf = estimate_memory(Workload(model=model, **FULL))  # type: ignore[arg-type]
    tt = estimate_memory(Workload(model=model, engine="torchtune", **FULL))  # type: ignore[arg-type]
    assert hf.breakdown["optimizer"] == pytest.approx(12 * p / GIB, abs=1e-3)
    assert tt.breakdown["optimizer"] == pytest.approx(4 * p / GIB, abs=1e-3)


def test_optimizer_in_backward_holds_one_layers_gradients() -> None:
    model = make_model()
    split = param_split(model)
    est = estimate_memory(Workload(model=model, engine="torchtune", optimizer_in_backward=True,
                                   **FULL))  # type: ignore[arg-type]
    assert est.breakdown["gradients"] == pytest.approx(2 * split.largest_layer / GIB, abs=1e-3)


def test_checkpointed_training_holds_the_logits_or_the_recomputed_layer_never_both() -> None:
    # The loss's backward frees the logits before the last layer is recomputed. Per token and layer
    # 18·4096 + 6·11008 = 139,776 B → 143,130,624 B at 1024 tokens; logits 10 B × 32,000 × 1024 = 327,680,000 B;
    # layer inputs 2 B × 4096 × 1024 × 32 = 268,435,456 B. Activations = inputs + max(layer, logits).
    est = estimate_memory(Workload(model=make_model(), **FULL))  # type: ignore[arg-type]
    assert est.breakdown["activations"] == pytest.approx((268_435_456 + 327_680_000) / GIB, abs=1e-4)


def test_chunked_cross_entropy_run_eagerly_keeps_fp32_log_softmax_of_every_chunk() -> None:
    # 10 B per (token, vocab) with a plain loss. Chunked and eager: torchtune before 0.7 (CEWithChunkedOutputLoss)
    # keeps the bf16 chunks 2 + fp32 log-softmax 4 = 6 B; today's LinearCrossEntropyLoss keeps the fp32
    # log-softmax 4 + one chunk's fp32 working set 0.5 = 4.5 B. All exceed the recomputed layer (143,130,624 B),
    # so the differences are (10 − 6) and (10 − 4.5) B × 32,000 × 1024.
    model = make_model()
    plain = estimate_memory(Workload(model=model, engine="torchtune", chunked_loss=False,
                                     **FULL))  # type: ignore[arg-type]
    for version, kept in (("0.6", 6.0), (None, 4.5)):
        chunked = estimate_memory(Workload(model=model, engine="torchtune", engine_version=version,
                                           chunked_loss=True, **FULL))  # type: ignore[arg-type]
        assert plain.breakdown["activations"] - chunked.breakdown["activations"] == pytest.approx(
            (10 - kept) * 32_000 * 1024 / GIB, abs=1e-4)


def test_torchtune_configs_checkpoint_and_chunk_the_loss_by_default_since_0_3() -> None:
    # The shipped single-device configs: activation checkpointing on, a chunked loss (0.3+). Before 0.3 the loss
    # was plain CrossEntropyLoss (10 B per logit): 5.5 B × 32,000 × 1024 more than today's 4.5 B. With
    # lora_dropout 0 the adapters keep no dropout copy, so the recomputed layer (139,776 B × 1024 =
    # 143,130,624 B) stays below today's logits (4.5 × 32,000 × 1024 = 147,456,000 B) and the logits set the peak.
    base = dict(model=make_model(), task="lora", precision="bf16", context=1024, batch=1, engine="torchtune")
    today = estimate_memory(Workload(**base))  # type: ignore[arg-type]
    early = estimate_memory(Workload(**base, engine_version="0.2"))  # type: ignore[arg-type]
    assert today.chosen["gradient_checkpointing"] is True and "chunked-loss" in today.notes
    assert today.breakdown["activations"] == pytest.approx((2 * 4096 * 1024 * 32 + 147_456_000) / GIB, abs=1e-4)
    assert "chunked-loss" not in early.notes
    assert early.breakdown["activations"] - today.breakdown["activations"] == pytest.approx(
        5.5 * 32_000 * 1024 / GIB, abs=1e-4)


def test_compiled_chunked_cross_entropy_keeps_the_bf16_logits() -> None:
    # Compiled: 2.5 B × 32,000 × 1024 = 81,920,000 B of logits, below the recomputed layer's 143,130,624 B,
    # so the layer sets the peak: activations = 268,435,456 + 143,130,624 B.
    model = make_model()
    compiled = estimate_memory(Workload(model=model, engine="torchtune", chunked_loss=True, compiled=True,
                                        **FULL))  # type: ignore[arg-type]
    assert compiled.breakdown["activations"] == pytest.approx((268_435_456 + 143_130_624) / GIB, abs=1e-4)
    # Without torchtune's compiled figure (transformers has none), compiling changes nothing.
    hf = dict(model=model, chunked_loss=True, **FULL)
    assert estimate_memory(Workload(**hf, compiled=True)).per_gpu_gib == (  # type: ignore[arg-type]
        estimate_memory(Workload(**hf)).per_gpu_gib)  # type: ignore[arg-type]


def test_activation_offloading_moves_the_checkpoints_off_the_card() -> None:
    # Recompute keeps each layer's 16-bit input: 2 B × 4096 × 1024 tokens × 32 layers = 0.25 GiB.
    model = make_model()
    kept = estimate_memory(Workload(model=model, engine="torchtune", **FULL))  # type: ignore[arg-type]
    off = estimate_memory(Workload(model=model, engine="torchtune", activation_offloading=True,
                                   **FULL))  # type: ignore[arg-type]
    assert kept.breakdown["activations"] - off.breakdown["activations"] == pytest.approx(
        2 * 4096 * 1024 * 32 / GIB, abs=1e-4)


def test_allocated_bytes_leave_out_the_allocator_reserve_and_the_constant() -> None:
    # Allocated bytes are tensors only: neither the reserve over the 16-bit weights (2 B × params) nor the
    # constant that reserved / nvidia-smi readings show beyond the tensors.
    model = make_model()
    p = param_split(model).total
    reserved = estimate_memory(Workload(model=model, engine="torchtune", **FULL))  # type: ignore[arg-type]
    active = estimate_memory(Workload(model=model, engine="torchtune", allocated_only=True,
                                      **FULL))  # type: ignore[arg-type]
    assert reserved.breakdown["overhead"] - active.breakdown["overhead"] == pytest.approx(
        C.TRAIN_OVERHEAD_FRACTION * 2 * p / GIB + C.TRAIN_OVERHEAD_GIB, abs=1e-3)
    assert active.breakdown["overhead"] == 0.0
