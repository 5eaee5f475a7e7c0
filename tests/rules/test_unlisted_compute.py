"""A card that lists no throughput figure (one known by its memory and bandwidth only): memory-bound figures
only, never a made-up peak.

Toy 7B (tests/rules/_models.py) on the toy card with every compute figure removed."""

from __future__ import annotations

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, compute_known, estimate_speed, supports_bf16, training_hours
from rules import speed_constants as S
from rules.hardware import dense_tflops, slow_tensor_cores
from rules.speed import ComputeUnknown, decode_step, prefill_seconds, train_step_seconds
from tests.rules._models import make_gpu, make_model

UNLISTED = dict(fp16_tflops=None, bf16_tflops=None, fp32_tflops=None, architecture="Ampere (GA102)")


def test_no_figure_is_no_peak_not_a_guess() -> None:
    card = make_gpu(**UNLISTED)
    assert dense_tflops(card, "bf16") is None and dense_tflops(card, "fp32") is None
    assert not compute_known(card) and compute_known(make_gpu())
    assert not slow_tensor_cores(card)  # unknown is not slow: it is not ranked with a Quadro P2200
    assert dense_tflops(make_gpu(fp32_tflops=None, fp16_tflops=40.0, bf16_tflops=None), "fp32") == 10.0


def test_batch_one_decode_is_its_memory_reads() -> None:
    w = Workload(model=make_model(), engine="vllm", context=2)
    step = decode_step(w, make_gpu(**UNLISTED), 1)
    assert step.compute_s == 0.0
    assert step.memory_s == pytest.approx(decode_step(w, make_gpu(), 1).memory_s)
    speed = estimate_speed(w, make_gpu(**UNLISTED), 1)
    assert speed.decode_tokens_per_s == pytest.approx(1 / (step.memory_s + step.overhead_s), abs=0.1)
    assert speed.prefill_tokens_per_s is None


def test_compute_bound_figures_are_left_out() -> None:
    card = make_gpu(**UNLISTED)
    batched = Workload(model=make_model(), engine="vllm", batch=64)
    assert estimate_speed(batched, card, 1).decode_tokens_per_s is None
    train = Workload(model=make_model(), task="lora", context=2048)
    assert estimate_speed(train, card, 1).train_tokens_per_s is None
    assert training_hours(train, card, 1, 1e9) is None
    with pytest.raises(ComputeUnknown):
        prefill_seconds(batched, card, 1, 512)
    with pytest.raises(ComputeUnknown):
        train_step_seconds(train, card, 1)
    assert S.DECODE_MFU > 0  # the batch-1 figure above ignores only this compute term


def test_bf16_by_architecture_when_no_peak_is_listed() -> None:
    assert supports_bf16(make_gpu(**UNLISTED))
    assert not supports_bf16(make_gpu(bf16_tflops=None, architecture="Turing (TU104)"))
    kb = load_knowledge()
    assert supports_bf16(kb.gpus["a10g"]) and not supports_bf16(kb.gpus["t4"])
    assert compute_known(kb.gpus["a10g"])  # its measured GEMM rate (knowledge/data/gpus.yaml)


def test_small_batches_are_timed_from_the_bandwidth_and_larger_ones_are_not() -> None:
    # The compute term at batch 8 is a small share of the memory term on a tensor-core card (at most ≈ 14%: the
    # constant's docstring): checked here on the A10 and on the A10 with its figures taken away.
    kb = load_knowledge()
    a10 = kb.gpus["a10"]
    unlisted = a10.model_copy(update=dict(fp16_tflops=None, bf16_tflops=None, fp32_tflops=None, fp8_tflops=None,
                                      int8_tops=None))
    model = kb.models["llama-3.1-8b"]
    at_limit = Workload(model=model, engine="vllm", batch=S.UNLISTED_COMPUTE_DECODE_BATCH, context=4096)
    step = decode_step(at_limit, a10, 1)
    assert step.compute_s < 0.1 * step.memory_s
    assert estimate_speed(at_limit, unlisted, 1).decode_tokens_per_s is not None
    above = Workload(model=model, engine="vllm", batch=S.UNLISTED_COMPUTE_DECODE_BATCH + 1, context=4096)
    assert estimate_speed(above, unlisted, 1).decode_tokens_per_s is None
