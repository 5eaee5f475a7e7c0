"""Inference: weights + KV + prefill transient + overhead; layer split over cards; vLLM's 90% reserve; MoE."""

from __future__ import annotations

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, estimate_memory
from rules import constants as C
from rules.memory import COMPONENTS
from tests.rules._models import make_gpu, make_model

GIB = C.GIB
WEIGHTS = 7e9 * 2  # toy model in bf16
KV_4096 = 4096 * 524_288  # 2 GiB
# Prefill transient at 4,096 prompt tokens: (4 × 11,008 + 14 × 4,096) = 101,376 B per token
# + last-position logits 6 B × 32,000.
ACT_4096 = 101_376 * 4096 + 6 * 32000


def test_breakdown_always_has_every_key() -> None:
    est = estimate_memory(Workload(model=make_model()))
    assert set(est.breakdown) == set(COMPONENTS)
    assert est.cuda_context_gib == C.CUDA_CONTEXT_GIB


def test_single_card_sum() -> None:
    est = estimate_memory(Workload(model=make_model(), context=4096))
    overhead = C.INFERENCE_OVERHEAD_GIB * GIB + C.INFERENCE_OVERHEAD_FRACTION * WEIGHTS
    assert est.breakdown["weights"] == pytest.approx(WEIGHTS / GIB, abs=1e-3)  # 13.04 GiB
    assert est.breakdown["kv_cache"] == pytest.approx(2.0, abs=1e-3)
    assert est.breakdown["activations"] == pytest.approx(ACT_4096 / GIB, abs=1e-3)  # 0.39 GiB
    assert est.breakdown["gradients"] == est.breakdown["optimizer"] == 0.0
    assert est.per_gpu_gib == pytest.approx((WEIGHTS + KV_4096 + ACT_4096 + overhead) / GIB, abs=2e-3)
    assert est.total_gib == est.per_gpu_gib


def test_prefill_counts_the_prompt_not_the_generated_tokens() -> None:
    # context 4,096 of which 4,095 generated: the prompt is 1 token, the KV still holds 4,096.
    est = estimate_memory(Workload(model=make_model(), context=4096, gen_tokens=4095))
    assert est.breakdown["kv_cache"] == pytest.approx(2.0, abs=1e-3)
    assert est.breakdown["activations"] == pytest.approx((101_376 + 6 * 32000) / GIB, abs=1e-4)


def test_batch_multiplies_kv_and_activations() -> None:
    one = estimate_memory(Workload(model=make_model(), context=2048))
    four = estimate_memory(Workload(model=make_model(), context=2048, batch=4))
    assert four.breakdown["kv_cache"] == pytest.approx(4 * one.breakdown["kv_cache"], abs=1e-3)
    assert four.breakdown["activations"] == pytest.approx(4 * one.breakdown["activations"], abs=1e-3)
    assert four.breakdown["weights"] == one.breakdown["weights"]


def test_two_cards_split_weights_and_kv_never_pool() -> None:
    one = estimate_memory(Workload(model=make_model(), context=4096), 1)
    two = estimate_memory(Workload(model=make_model(), context=4096), 2)
    assert two.breakdown["weights"] == pytest.approx(one.breakdown["weights"] / 2, abs=1e-3)
    assert two.breakdown["kv_cache"] == pytest.approx(1.0, abs=1e-3)
    # Every card has its own transient and overhead: the total exceeds the single-card figure.
    assert two.total_gib > one.total_gib
    assert two.per_gpu_gib < one.per_gpu_gib
    assert "layer-split" in two.notes


def test_quantised_weights_and_bnb_workspace() -> None:
    gptq = estimate_memory(Workload(model=make_model(), precision="int4", quant="gptq", context=1))
    nf4 = estimate_memory(Workload(model=make_model(), precision="int4", quant="nf4", context=1))
    assert "embeddings-16bit" in gptq.notes
    # NF4 packed weights: 6.738e9 × 0.5625 + 0.262e9 × 2 = 4.314e9 B = 4.02 GiB, + 12% workspace in overhead.
    assert nf4.breakdown["weights"] == pytest.approx(4.314e9 / GIB, abs=0.01)
    assert "quant-workspace" in nf4.notes
    assert nf4.breakdown["overhead"] > gptq.breakdown["overhead"]


def test_vllm_reserves_its_share_and_fills_it_with_kv() -> None:
    gpu = make_gpu()  # 80 GB HBM: visible 80 GiB, a "large" card for vLLM (≥ 70 GiB, not an A100)
    est = estimate_memory(Workload(model=make_model(), engine="vllm", context=4096, engine_version="0.19"), 1, gpu)
    # Reserved 0.9 × 80 = 72 GiB (before 0.20); vLLM counts its own non-KV memory (V1: the CUDA context stays
    # outside).
    assert est.per_gpu_gib == pytest.approx(72.0, abs=1e-3)
    v033 = estimate_memory(Workload(model=make_model(), engine="vllm", context=4096, engine_version="0.33"), 1, gpu)
    assert v033.per_gpu_gib == pytest.approx(0.92 * 80, abs=1e-3)  # 0.20-0.33
    assert "vllm-reserve" in est.notes
    # Activations: the sampler warm-up over 1,024 requests × 32,000 entries × 38.5 B = 1.2615e9 B, + the 8,192
    # profiled tokens' hidden states (× 4,096 × 2 B = 67.1e6) = 1.3287e9 B = 1.2374 GiB (the forward pass,
    # 8,192 × (6 × 11,008 + 6 × 4,096) = 0.742e9 B, is smaller). Non-KV memory 0.13 GiB.
    act = (1024 * 32000 * 38.5 + 8192 * 4096 * 2) / GIB
    assert est.breakdown["activations"] == pytest.approx(act, abs=1e-3)
    assert est.breakdown["overhead"] == pytest.approx(0.13, abs=1e-3)
    # Pool = 72 − 13.04 − 1.24 − 0.13 = 57.59 GiB → 28 sequences of 2 GiB.
    assert est.chosen["kv_pool_gib"] == pytest.approx(72 - WEIGHTS / GIB - act - 0.13, abs=1e-2)
    assert est.chosen["max_concurrent_sequences"] == 28
    assert est.chosen["max_num_seqs"] == 1024
    # What the job itself needs: weights + activations + non-KV + one 4,096-token sequence.
    assert est.required_per_gpu_gib == pytest.approx(WEIGHTS / GIB + act + 0.13 + 2.0, abs=1e-2)


def test_vllm_tensor_parallel_divides_weights_and_kv_heads() -> None:
    gpu = make_gpu()
    m = make_model(num_kv_heads=8, attention="gqa")
    est = estimate_memory(Workload(model=m, engine="vllm", context=4096), 2, gpu)
    assert est.breakdown["weights"] == pytest.approx(WEIGHTS / 2 / GIB, abs=1e-3)
    # 4 KV heads per card: 2 × 32 × 4 × 128 × 2 × 4,096 = 0.25 GiB for one sequence. Every rank samples the
    # whole vocabulary (activations not divided); non-KV memory 0.55 GiB with NCCL at TP > 1.
    act = (1024 * 32000 * 38.5 + 8192 * 4096 * 2) / GIB
    assert est.required_per_gpu_gib == pytest.approx(WEIGHTS / 2 / GIB + act + 0.55 + 0.25, abs=1e-2)
    assert "tp2" in est.notes


def test_moe_holds_every_expert() -> None:
    kb = load_knowledge()
    if "mixtral-8x7b" not in kb.models:
        pytest.skip("mixtral-8x7b not in the knowledge base")
    m = kb.model("mixtral-8x7b")
    est = estimate_memory(Workload(model=m, context=1))
    assert "moe-all-experts" in est.notes
    # All 46.7 B parameters in bf16 = 87.0 GiB, not the 12.9 B active (24 GiB).
    assert est.breakdown["weights"] == pytest.approx(46.7e9 * 2 / GIB, abs=0.01)


def test_stable_diffusion_sized_from_params_and_resolution() -> None:
    kb = load_knowledge()
    sd = kb.model("stable-diffusion-1.5")
    est = estimate_memory(Workload(model=sd, precision="fp16"))
    # 1.07e9 × 2 B = 1.99 GiB weights + 2.2 GiB/Mpx × 0.262 Mpx = 0.58 GiB: ≈ 2.9 GiB (published 3–5 GiB incl.
    # the CUDA context and cuDNN workspaces).
    assert est.breakdown["weights"] == pytest.approx(1.07e9 * 2 / GIB, abs=0.01)
    assert 2.5 < est.per_gpu_gib < 4.0
    sdxl = estimate_memory(Workload(model=kb.model("sdxl"), precision="fp16"))
    # 3.5e9 × 2 = 6.52 GiB + 2.2 × 1.05 Mpx = 2.3 GiB: ≈ 9 GiB (published 8–12 GiB at 1024²).
    assert 8.0 < sdxl.per_gpu_gib < 12.0
    big = estimate_memory(Workload(model=sd, precision="fp16", image_resolution=1024))
    assert big.breakdown["activations"] == pytest.approx(4 * est.breakdown["activations"], rel=0.01)


def test_encoder_context_is_capped_at_its_window() -> None:
    kb = load_knowledge()
    est = estimate_memory(Workload(model=kb.model("bert-base"), context=8192))
    assert est.chosen["context"] == 512


def test_vllm_that_does_not_fit_reports_what_it_needs() -> None:
    small = make_gpu(memory_gb=16.0)  # reserves 0.9 × 16 − 0.5 = 13.9 GiB; the toy needs ≈ 20 GiB
    est = estimate_memory(Workload(model=make_model(), engine="vllm", context=4096), 1, small)
    assert est.required_per_gpu_gib is not None and est.required_per_gpu_gib > 13.9
    assert est.per_gpu_gib == est.required_per_gpu_gib
    assert est.breakdown["kv_cache"] == pytest.approx(2.0, abs=1e-3)  # the KV it needs, not an empty pool
    assert "vllm-does-not-fit" in est.notes


def test_allocated_bytes_carry_no_overhead_constant_or_reserve() -> None:
    # torch.cuda.max_memory_allocated counts tensors: weights + KV + prefill transient, nothing above them.
    est = estimate_memory(Workload(model=make_model(), context=4096, allocated_only=True))
    assert est.breakdown["overhead"] == 0.0
    assert est.per_gpu_gib == pytest.approx((WEIGHTS + KV_4096 + ACT_4096) / GIB, abs=1e-3)
    reserved = estimate_memory(Workload(model=make_model(), context=4096))
    overhead = C.INFERENCE_OVERHEAD_GIB * GIB + C.INFERENCE_OVERHEAD_FRACTION * WEIGHTS
    assert reserved.per_gpu_gib - est.per_gpu_gib == pytest.approx(overhead / GIB, abs=1e-3)


def test_fp8_on_a_card_without_fp8_tensor_cores_is_noted_weight_only() -> None:
    from knowledge.loader import load_knowledge
    from rules import Workload, estimate_memory

    kb = load_knowledge()
    job = Workload(model=kb.models["llama-3.1-70b"], task="inference", precision="fp8", engine="vllm", context=4096)
    assert "fp8-weight-only" in estimate_memory(job, 2, kb.gpus["a100-80gb"]).notes
    assert "fp8-weight-only" not in estimate_memory(job, 2, kb.gpus["h100-sxm"]).notes
