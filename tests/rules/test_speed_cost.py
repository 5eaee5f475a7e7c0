"""Speed: decode bounded by bandwidth, prefill and training by the dense peak; cost per million tokens."""

from __future__ import annotations

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, cost_per_million_tokens, estimate_speed, training_hours
from rules import constants as C
from tests.rules._models import make_gpu, make_model


def test_decode_is_bandwidth_over_bytes_read() -> None:
    # vLLM η = 0.75, 2,000 GB/s; per step: 14e9 B of weights + KV of context//2 = 1 token (524,288 B).
    w = Workload(model=make_model(), engine="vllm", context=2)
    s = estimate_speed(w, make_gpu(), 1)
    assert s.decode_tokens_per_s == pytest.approx(0.75 * 2000e9 / (14e9 + 524_288), abs=0.1)  # 107.1
    assert s.aggregate_tokens_per_s == s.decode_tokens_per_s


def test_kv_reads_slow_long_contexts() -> None:
    short = estimate_speed(Workload(model=make_model(), engine="vllm", context=2), make_gpu(), 1)
    # 32,768 tokens: the average step reads 16,384 × 512 KiB = 8 GiB of KV besides 14e9 B of weights.
    long = estimate_speed(Workload(model=make_model(), engine="vllm", context=32768), make_gpu(), 1)
    expected = 0.75 * 2000e9 / (14e9 + 16384 * 524_288)
    assert long.decode_tokens_per_s == pytest.approx(expected, abs=0.1)
    assert long.decode_tokens_per_s < short.decode_tokens_per_s  # type: ignore[operator]


def test_tensor_parallel_scaling_nvlink_vs_pcie() -> None:
    w = Workload(model=make_model(), engine="vllm", context=2)
    one = estimate_speed(w, make_gpu(), 1).decode_tokens_per_s
    nvlink = estimate_speed(w, make_gpu(), 2).decode_tokens_per_s
    pcie = estimate_speed(w, make_gpu(nvlink_gbps=None), 2).decode_tokens_per_s
    assert one and nvlink and pcie
    assert nvlink / one == pytest.approx(1 + C.TP_EFFICIENCY, rel=1e-3)  # 1.85
    assert pcie / one == pytest.approx(1 + C.TP_EFFICIENCY_PCIE, rel=1e-3)  # 1.6


def test_moe_decodes_at_its_active_parameters() -> None:
    kb = load_knowledge()
    if "mixtral-8x7b" not in kb.models:
        pytest.skip("mixtral-8x7b not in the knowledge base")
    m = kb.model("mixtral-8x7b")
    s = estimate_speed(Workload(model=m, engine="vllm", context=2), make_gpu(), 1)
    # Reads 12.9e9 × 2 B per token, not 46.7e9 × 2: ≈ 58 tokens/s at 0.75 × 2,000 GB/s.
    kv = 2 * 32 * 8 * 128 * 2
    assert s.decode_tokens_per_s == pytest.approx(0.75 * 2000e9 / (46.7e9 * 2 * 12.9 / 46.7 + kv), rel=1e-3)


def test_prefill_uses_the_dense_peak() -> None:
    w = Workload(model=make_model(), context=2048)
    s = estimate_speed(w, make_gpu(), 1)
    # (2 · 7e9 + 4 · 32 · 2048 · 4096) FLOPs per token at 312e12 × 0.5.
    flops = 2 * 7e9 + 4 * 32 * 2048 * 4096
    assert s.prefill_tokens_per_s == pytest.approx(312e12 * 0.5 / flops, rel=1e-3)


def test_training_hours_6pd() -> None:
    w = Workload(model=make_model(), task="train", gradient_checkpointing=False)
    # 6 · 7e9 · 1e9 / (8 · 312e12 · 0.4) = 42,067 s = 11.69 h.
    assert training_hours(w, make_gpu(), 8, 1e9) == pytest.approx(6 * 7e9 * 1e9 / (8 * 312e12 * 0.4) / 3600)
    assert training_hours(w, make_gpu(), 8, 1e9) == pytest.approx(11.69, abs=0.01)
    # With full recomputation 8·P·D.
    ckpt = Workload(model=make_model(), task="train", gradient_checkpointing=True)
    assert training_hours(ckpt, make_gpu(), 8, 1e9) == pytest.approx(11.69 * 8 / 6, abs=0.01)
    # Twice the cards, half the time.
    assert training_hours(w, make_gpu(), 16, 1e9) == pytest.approx(11.69 / 2, abs=0.01)


def test_training_tokens_per_s() -> None:
    w = Workload(model=make_model(), task="train", gradient_checkpointing=False)
    s = estimate_speed(w, make_gpu(), 8)
    assert s.train_tokens_per_s == pytest.approx(8 * 312e12 * 0.4 / (6 * 7e9), rel=1e-3)  # 23,771
    assert s.decode_tokens_per_s is None


def test_fp8_uses_the_fp8_peak_and_v100_falls_back_to_fp16() -> None:
    h100 = make_gpu(fp8_tflops=1979.0, bf16_tflops=989.0, fp16_tflops=989.0)
    # A long prompt keeps prefill compute-bound, above the MIN_FORWARD_PASS_S floor.
    w8 = Workload(model=make_model(), precision="fp8", context=32768)
    w16 = Workload(model=make_model(), precision="bf16", context=32768)
    p8 = estimate_speed(w8, h100, 1).prefill_tokens_per_s
    p16 = estimate_speed(w16, h100, 1).prefill_tokens_per_s
    assert p8 and p16 and p8 / p16 == pytest.approx(2.0, rel=1e-3)
    v100 = make_gpu(bf16_tflops=None, fp16_tflops=125.0)
    # V100 has no bf16: it runs at its fp16 peak, 125 vs the H100's 989 TFLOPS for the same prompt.
    v100_prefill = estimate_speed(w16, v100, 1).prefill_tokens_per_s
    assert v100_prefill == pytest.approx(p16 * 125.0 / 989.0, rel=1e-3)


def test_cost_per_million_tokens() -> None:
    # 3.6 per hour at 1,000 tokens/s = 3.6 per 3.6 M tokens = 1.0 per million.
    assert cost_per_million_tokens(3.6, 1000) == pytest.approx(1.0)
    assert cost_per_million_tokens(10.0, 50) == pytest.approx(10 / (50 * 3600) * 1e6)  # 55.6
    with pytest.raises(ValueError):
        cost_per_million_tokens(1.0, 0)


def test_transformers_decode_has_a_fixed_step_cost() -> None:
    # 14e9 B / (0.72 × 2,000 GB/s) = 9.72 ms + 16 ms per step → 38.9 tokens/s (vLLM: 107).
    s = estimate_speed(Workload(model=make_model(), context=2), make_gpu(), 1)
    step = (14e9 + 524_288) / (0.72 * 2000e9) + 0.016
    assert s.decode_tokens_per_s == pytest.approx(1 / step, abs=0.1)


def test_transformers_layer_split_does_not_add_bandwidth() -> None:
    w = Workload(model=make_model(), context=2)
    assert estimate_speed(w, make_gpu(), 2).decode_tokens_per_s == estimate_speed(w, make_gpu(), 1).decode_tokens_per_s


def test_transformers_quantised_decode_is_not_faster_per_byte() -> None:
    bf16 = estimate_speed(Workload(model=make_model(), context=2), make_gpu(), 1).decode_tokens_per_s
    bnb8 = estimate_speed(Workload(model=make_model(), precision="int8", quant="bnb-int8", context=2),
                          make_gpu(), 1).decode_tokens_per_s
    assert bf16 and bnb8 and bnb8 == pytest.approx(bf16 * 0.25, rel=0.01)
    vllm_awq = estimate_speed(Workload(model=make_model(), precision="int4", quant="awq", engine="vllm",
                                       context=2), make_gpu(), 1).decode_tokens_per_s
    vllm_bf16 = estimate_speed(Workload(model=make_model(), engine="vllm", context=2), make_gpu(),
                               1).decode_tokens_per_s
    assert vllm_awq and vllm_bf16 and vllm_awq > 3 * vllm_bf16  # 3.75 GiB vs 13 GiB read per step


@pytest.mark.parametrize(("model_id", "published"), [("qwen2.5-7b", 40.38), ("qwen2.5-14b", 24.74),
                                                     ("qwen2.5-32b", 17.54)])
def test_qwen25_transformers_speed_benchmark(model_id: str, published: float) -> None:
    """Qwen2.5 speed benchmark (transformers 4.46, bf16, batch 1, A100-80GB, 1 prompt + 2,048 generated)."""
    kb = load_knowledge()
    w = Workload(model=kb.model(model_id), context=2049, gen_tokens=2048)
    s = estimate_speed(w, kb.gpu("a100-80gb"), 1)
    assert s.decode_tokens_per_s == pytest.approx(published, rel=0.15)
