"""The speed model with hand-computed cases (toy 7B: 32 layers, hidden 4,096, MHA 32×128, untied 32,000 vocab;
toy card: 2,000 GB/s, 312 TFLOPS, NVLink 600 GB/s)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.loader import load_knowledge
from knowledge.schema import MoE
from rules import Workload, estimate_speed, training_hours
from rules import speed_constants as S
from rules.speed import (
    allreduce_seconds,
    decode_step,
    experts_touched_fraction,
    ideal_training_hours,
    prefill_seconds,
    train_step_seconds,
    weights_read_bytes,
)
from tests.rules._models import make_gpu, make_model

EMBEDDING = 32000 * 4096  # 131,072,000 parameters of the input table, never read whole per token
KV_PER_TOKEN = 2 * 32 * 32 * 128 * 2  # 524,288 bytes


def test_dense_decode_is_bytes_over_bandwidth_plus_the_layer_floor() -> None:
    w = Workload(model=make_model(), engine="vllm", context=2)  # one cached token on average
    step = decode_step(w, make_gpu(), 1)
    weights = (7e9 - EMBEDDING) * 2  # 13,737,856,000 B
    assert weights_read_bytes(w) == pytest.approx(weights)
    eta = S.DECODE_BANDWIDTH_EFFICIENCY["vllm"]
    assert step.memory_s == pytest.approx((weights + KV_PER_TOKEN) / (eta * 2000e9))  # 8.08 ms at η 0.85
    # 32 layers × 50 µs = 1.6 ms on the GPU side + 3 ms of host time per step (scheduler, sampling).
    assert step.overhead_s == pytest.approx(32 * S.DECODE_LAYER_OVERHEAD_S["vllm"] + S.DECODE_STEP_OVERHEAD_S["vllm"])
    assert step.communication_s == 0.0
    s = estimate_speed(w, make_gpu(), 1)
    assert s.decode_tokens_per_s == pytest.approx(1 / (step.memory_s + step.overhead_s), abs=0.1)  # ≈79
    assert s.aggregate_tokens_per_s == s.decode_tokens_per_s


def test_kv_reads_slow_long_contexts_and_transformers_reads_its_cache_slowly() -> None:
    # 32,768 tokens, no split given: half the context is cached on average = 16,384 × 512 KiB = 8 GiB.
    long = Workload(model=make_model(), engine="vllm", context=32768)
    short = Workload(model=make_model(), engine="vllm", context=2)
    extra = decode_step(long, make_gpu(), 1).memory_s - decode_step(short, make_gpu(), 1).memory_s
    eta = S.DECODE_BANDWIDTH_EFFICIENCY["vllm"]
    assert extra == pytest.approx((16384 - 1) * KV_PER_TOKEN / (eta * 2000e9))
    hf = Workload(model=make_model(), context=32768)
    hf_extra = decode_step(hf, make_gpu(), 1).memory_s - decode_step(
        Workload(model=make_model(), context=2), make_gpu(), 1).memory_s
    assert hf_extra == pytest.approx((16384 - 1) * KV_PER_TOKEN / (S.TRANSFORMERS_KV_BANDWIDTH_EFFICIENCY * 2000e9))


def test_moe_reads_shared_weights_and_the_experts_it_is_routed_to() -> None:
    moe = MoE(num_experts=8, experts_per_token=2, moe_intermediate_size=1024)
    model = make_model(params_b=10.0, active_params_b=7.6, moe=moe)
    routed = 3 * 4096 * 1024 * 8 * 32  # 3,221,225,472 parameters in routed experts
    # One token: 2 of 8 experts per layer → reads all but 6/8 of the routed experts.
    one = Workload(model=model, engine="vllm", batch=1)
    assert weights_read_bytes(one) == pytest.approx((10e9 - EMBEDDING - routed * 0.75) * 2)
    # Four tokens: 1 − (6/8)^4 = 68.4% of the experts are touched.
    assert experts_touched_fraction(model, 4) == pytest.approx(1 - 0.75 ** 4)
    four = Workload(model=model, engine="vllm", batch=4)
    assert weights_read_bytes(four) == pytest.approx((10e9 - EMBEDDING - routed * 0.75 ** 4) * 2)


@pytest.mark.parametrize(("engine", "version", "visited"), [
    ("transformers", "4.51.3", 128),  # before the skip (4.53 for Qwen3-MoE): every expert, every step
    ("transformers", None, 8),  # since: the top-8 the one token was routed to
    ("vllm", None, 0),  # fused MoE kernels: no per-expert loop
])
def test_transformers_moe_decode_pays_per_expert_visited(engine: str, version: str | None, visited: int) -> None:
    moe = MoE(num_experts=128, experts_per_token=8, moe_intermediate_size=768)
    model = make_model(params_b=30.0, active_params_b=3.0, moe=moe, num_layers=48)
    dense = make_model(params_b=30.0, active_params_b=3.0, num_layers=48)
    w = Workload(model=model, engine=engine, engine_version=version, context=2)
    extra = decode_step(w, make_gpu(), 1).overhead_s - decode_step(
        Workload(model=dense, engine=engine, engine_version=version, context=2), make_gpu(), 1).overhead_s
    # 48 layers × 128 experts × 90 µs = 0.553 s a token (≈1.8 tok/s, as Qwen3-30B-A3B under 4.51.3); 8: 35 ms.
    assert extra == pytest.approx(48 * visited * S.TRANSFORMERS_MOE_EXPERT_ITERATION_S)
    # A 1,000-token prompt routes its tokens to every expert, whichever loop visits them.
    prefill_extra = prefill_seconds(w, make_gpu(), 1, 1000) - prefill_seconds(
        Workload(model=dense, engine=engine, engine_version=version, context=2), make_gpu(), 1, 1000)
    assert prefill_extra == pytest.approx(48 * (128 if visited else 0) * S.TRANSFORMERS_MOE_EXPERT_ITERATION_S)



@pytest.mark.parametrize(("version", "quant", "launches"), [
    ("0.4.6.post1", "gptq", 48 * 128 * 2),  # vLLM's old Marlin MoE: a GEMM per expert and projection
    (None, "gptq", 0),  # from 0.4.10 SGLang's own fused Marlin MoE
    ("0.4.6.post1", None, 0),  # a 16-bit MoE always ran the fused Triton kernel
])
def test_sglang_before_0_4_10_launches_a_gemm_per_expert_for_gptq_moe(version: str | None, quant: str | None,
                                                                   launches: int) -> None:
    moe = MoE(num_experts=128, experts_per_token=8, moe_intermediate_size=768)
    model = make_model(params_b=30.0, active_params_b=3.0, moe=moe, num_layers=48)
    dense = make_model(params_b=30.0, active_params_b=3.0, num_layers=48)
    precision = "int4" if quant else "bf16"
    w = Workload(model=model, engine="sglang", engine_version=version, precision=precision, quant=quant, context=2)
    plain = Workload(model=dense, engine="sglang", engine_version=version, precision=precision, quant=quant,
                     context=2)
    extra = decode_step(w, make_gpu(), 1).overhead_s - decode_step(plain, make_gpu(), 1).overhead_s
    # 48 layers × 128 experts × 2 × 2.2 µs = 27 ms a token: Qwen3-30B-A3B GPTQ-Int4 at ≈ 31 tok/s on SGLang 0.4.6.
    assert extra == pytest.approx(launches * S.MARLIN_MOE_EXPERT_LAUNCH_S)

def test_tensor_parallel_adds_two_allreduces_per_layer() -> None:
    w = Workload(model=make_model(), engine="vllm", context=2)
    payload = 4096 * 2 * 2 * 1 / 2  # batch × hidden × 2 B × 2(n−1)/n = 8,192 B
    nvlink = 2 * 32 * (S.ALLREDUCE_LATENCY_S["nvlink"] + payload / 300e9)  # 0.51 ms at 8 µs
    pcie = 2 * 32 * (S.ALLREDUCE_LATENCY_S["pcie"] + payload / (S.PCIE_GBPS * 1e9))  # 1.62 ms at 25 µs
    assert allreduce_seconds(w, make_gpu(), 2) == pytest.approx(nvlink)
    assert allreduce_seconds(w, make_gpu(nvlink_gbps=None), 2) == pytest.approx(pcie)
    # Each card reads half the weights; the step is not half as long.
    one, two = decode_step(w, make_gpu(), 1), decode_step(w, make_gpu(), 2)
    assert two.memory_s == pytest.approx(one.memory_s / 2)
    assert two.total_s == pytest.approx(one.memory_s / 2 + one.overhead_s + nvlink)
    # transformers splits the layers: a token still reads every weight through one card at a time.
    hf = Workload(model=make_model(), context=2)
    assert estimate_speed(hf, make_gpu(), 2).decode_tokens_per_s == estimate_speed(hf, make_gpu(),
                                                                                   1).decode_tokens_per_s


def test_large_batches_are_bound_by_compute() -> None:
    w = Workload(model=make_model(), engine="vllm", context=2, batch=512)
    step = decode_step(w, make_gpu(), 1)
    compute = 512 * 2 * 7e9 / (312e12 * S.DECODE_MFU)  # 45.9 ms at MFU 0.5
    assert step.compute_s == pytest.approx(compute)
    assert step.compute_s > step.memory_s  # 8.2 ms of reads
    s = estimate_speed(w, make_gpu(), 1)
    assert s.aggregate_tokens_per_s == pytest.approx(512 / (compute + step.overhead_s), rel=1e-3)


def test_the_per_token_floor_scales_with_layers() -> None:
    tiny = make_model(params_b=0.01, num_layers=4, hidden_size=256, num_attention_heads=4, num_kv_heads=4,
                      head_dim=64, intermediate_size=1024, vocab_size=1000)
    deep = make_model(params_b=0.01, num_layers=64, hidden_size=256, num_attention_heads=4, num_kv_heads=4,
                      head_dim=64, intermediate_size=1024, vocab_size=1000)
    for engine, per_layer in (("vllm", S.DECODE_LAYER_OVERHEAD_S["vllm"]),
                              ("transformers", S.DECODE_LAYER_OVERHEAD_S["transformers"])):
        shallow = decode_step(Workload(model=tiny, engine=engine, context=2), make_gpu(), 1)
        many = decode_step(Workload(model=deep, engine=engine, context=2), make_gpu(), 1)
        step = S.DECODE_STEP_OVERHEAD_S.get(engine, 0.0)  # once a step, whatever the depth
        assert shallow.overhead_s == pytest.approx(4 * per_layer + step)
        assert many.overhead_s == pytest.approx(64 * per_layer + step)


def test_known_failures_now_give_speeds_that_can_happen() -> None:
    """Issue 8: Qwen3-235B-A22B fp8 on 8×H100 with vLLM printed 780 tok/s per user; published single-stream
    figures are tens. Llama-3.1-70B fp8 on 4×H100 with vLLM runs at ~40–90 per user."""
    kb = load_knowledge()
    h100 = kb.gpu("h100-sxm")
    if "qwen3-235b-a22b" in kb.models:
        s = estimate_speed(Workload(model=kb.model("qwen3-235b-a22b"), precision="fp8", engine="vllm"), h100, 8)
        assert s.decode_tokens_per_s and 20 <= s.decode_tokens_per_s <= 120
    s = estimate_speed(Workload(model=kb.model("llama-3.1-70b"), precision="fp8", engine="vllm"), h100, 4)
    assert s.decode_tokens_per_s and 40 <= s.decode_tokens_per_s <= 90


def test_prefill_is_compute_bound() -> None:
    w = Workload(model=make_model(), engine="vllm", context=2048)
    s = estimate_speed(w, make_gpu(), 1)
    # Causal: the average token attends to 1,024 tokens: 2·7e9 + 4·32·1024·4096 FLOPs per token.
    flops = 2048 * (2 * 7e9 + 4 * 32 * 1024 * 4096)
    seconds = flops / (312e12 * S.PREFILL_MFU) + 32 * S.DECODE_LAYER_OVERHEAD_S["vllm"]
    assert s.prefill_tokens_per_s == pytest.approx(2048 / seconds, rel=1e-3)


def test_fp8_prefill_uses_the_fp8_peak() -> None:
    h100 = make_gpu(fp8_tflops=1979.0, bf16_tflops=989.0, fp16_tflops=989.0)
    w8 = Workload(model=make_model(), precision="fp8", engine="vllm", context=32768)
    w16 = Workload(model=make_model(), precision="bf16", engine="vllm", context=32768)
    p8, p16 = estimate_speed(w8, h100, 1).prefill_tokens_per_s, estimate_speed(w16, h100, 1).prefill_tokens_per_s
    assert p8 and p16 and p8 / p16 == pytest.approx(2.0, rel=0.01)


def test_ideal_training_hours_3b_on_300b_tokens() -> None:
    """6·P·D / (N · peak · MFU): 3B on 300B tokens, 32 A100s at MFU 0.4 = 5.4e21 / 3.99e15 s = 375.6 h."""
    model = make_model(params_b=3.0)
    w = Workload(model=model, task="train", gradient_checkpointing=False)
    hours = ideal_training_hours(w, make_gpu(), 32, 3e11, mfu=0.4)
    assert hours == pytest.approx(6 * 3e9 * 3e11 / (32 * 312e12 * 0.4) / 3600)
    assert hours == pytest.approx(375.6, abs=0.1)
    ckpt = Workload(model=model, task="train", gradient_checkpointing=True)  # +2·P·D recomputation
    assert ideal_training_hours(ckpt, make_gpu(), 32, 3e11, mfu=0.4) == pytest.approx(hours * 8 / 6)
    lora = Workload(model=model, task="lora", gradient_checkpointing=False)  # frozen base: 4·P·D
    assert ideal_training_hours(lora, make_gpu(), 32, 3e11, mfu=0.4) == pytest.approx(hours * 4 / 6)


def test_training_step_and_hours_by_hand() -> None:
    w = Workload(model=make_model(), task="train", gradient_checkpointing=False, context=2048, batch=1)
    body = 7e9 - EMBEDDING
    attention = 4 * 32 * 1024 * 4096  # per token, forward
    flops = 2048 * (6 * body + 3 * attention)  # backward of attention = 2 × forward
    step = flops / (312e12 * S.TRAIN_MFU["transformers"])  # ≈0.51 s; no ZeRO-3, no PEFT: no hook overhead
    assert train_step_seconds(w, make_gpu(), 8) == pytest.approx(step)
    lora = Workload(model=make_model(), task="lora", gradient_checkpointing=False, context=2048, batch=1)
    lora_step = 2048 * (4 * body + 3 * attention) / (312e12 * S.TRAIN_MFU["transformers"]) \
        + 32 * S.TRAIN_LAYER_OVERHEAD_S["transformers"]  # ≈0.36 + 0.13 s
    assert train_step_seconds(lora, make_gpu(), 8) == pytest.approx(lora_step)
    s = estimate_speed(w, make_gpu(), 8)
    assert s.train_tokens_per_s == pytest.approx(8 * 2048 / step, rel=1e-3)
    assert training_hours(w, make_gpu(), 8, 1e9) == pytest.approx(1e9 / (8 * 2048 / step) / 3600)
    # Within a machine the gradient all-reduce (2 × 14 GB × 7/8 through 0.5 × 300 GB/s of NVLink = 0.16 s) hides
    # under the 0.51 s of compute, and so it does across two machines joined by 8 × 200 Gb/s of HDR InfiniBand
    # (a card of unknown launch year): 2 × 14 GB × 15/16 / (0.5 × 200 GB/s) = 0.26 s.
    assert training_hours(w, make_gpu(), 16, 1e9) == pytest.approx(training_hours(w, make_gpu(), 8, 1e9) / 2)
    assert train_step_seconds(w, make_gpu(), 16) == pytest.approx(step)


def test_data_parallel_traffic_bounds_a_short_step_and_slows_across_machines() -> None:
    # ZeRO-3 full fine-tune at 512 tokens a card: 0.13 s of compute, while the weights are gathered twice (no
    # recomputation) and the gradients reduce-scattered: 3 × 14 GB × (n-1)/n per micro-step.
    w = Workload(model=make_model(), task="train", gradient_checkpointing=False, context=512, batch=1, zero_stage=3)
    hooks = 32 * S.TRAIN_LAYER_OVERHEAD_S["transformers"]
    in_one = 42e9 * 7 / 8 / (S.COLLECTIVE_EFFICIENCY * 300e9)  # NVLink 600 GB/s: 300 each way
    assert train_step_seconds(w, make_gpu(), 8) == pytest.approx(in_one + hooks)
    across = 42e9 * 15 / 16 / (S.COLLECTIVE_EFFICIENCY * 8 * 25e9)  # HDR: 8 × 25 GB/s a machine
    assert train_step_seconds(w, make_gpu(), 16) == pytest.approx(across + hooks)
    ndr = 42e9 * 15 / 16 / (S.COLLECTIVE_EFFICIENCY * 300e9)  # NDR's 400 GB/s is above NVLink's 300: NVLink binds
    assert train_step_seconds(w, make_gpu(launch_year=2023), 16) == pytest.approx(ndr + hooks)
    # DDP (stage 0) all-reduces the 14 GB of gradients once per optimizer step: 2 × 14 GB, over 8 micro-steps
    ddp = replace(w, zero_stage=0, grad_accumulation=8)
    compute = train_step_seconds(replace(ddp, grad_accumulation=1), make_gpu(), 1)
    assert train_step_seconds(ddp, make_gpu(), 16) == pytest.approx(compute)
    assert train_step_seconds(replace(ddp, grad_accumulation=1), make_gpu(), 16) == pytest.approx(
        2 * 14e9 * 15 / 16 / (S.COLLECTIVE_EFFICIENCY * 200e9))


def test_qlora_pays_for_dequantisation() -> None:
    lora = Workload(model=make_model(), task="lora", gradient_checkpointing=True, context=512)
    qlora = Workload(model=make_model(), task="qlora", precision="int4", quant="nf4", gradient_checkpointing=True,
                     context=512)
    extra = train_step_seconds(qlora, make_gpu(), 1) - train_step_seconds(lora, make_gpu(), 1)
    assert extra == pytest.approx(7.0 * S.QLORA_DEQUANT_S_PER_BPARAM)  # ≈0.2 s per micro-step for 7B


@pytest.mark.parametrize(("model_id", "published", "tolerance"), [("qwen2.5-7b", 40.38, 0.25),
                                                                  ("qwen2.5-14b", 24.74, 0.25),
                                                                  ("qwen2.5-32b", 17.54, 0.4)])
def test_qwen25_transformers_speed_benchmark(model_id: str, published: float, tolerance: float) -> None:
    """Qwen2.5 speed benchmark (transformers 4.46, bf16, batch 1, A100-80GB, 1 prompt + 2,048 generated).
    7B/14B within the bench's median goal; 32B is ~30% slow in the model (the per-layer floor and the weight
    reads overlap in part on the GPU, the model adds them), within the p90 goal."""
    kb = load_knowledge()
    w = Workload(model=kb.model(model_id), context=2049, gen_tokens=2048)
    s = estimate_speed(w, kb.gpu("a100-80gb"), 1)
    assert s.decode_tokens_per_s == pytest.approx(published, rel=tolerance)


def test_llama_cpp_computes_in_fp32_where_the_cards_fp16_is_slower() -> None:
    # ggml-cuda's fast_fp16_available excludes compute capability 6.1 (P40, GTX 1080 Ti: fp16 at 1/64 rate)
    from rules.speed import engine_peak_tflops
    from rules.types import Workload
    from tests.rules._models import make_gpu, make_model

    pascal = make_gpu(fp16_tflops=0.18, bf16_tflops=None, fp32_tflops=11.8, architecture="Pascal (GP102)")
    ampere = make_gpu()
    job = Workload(model=make_model(), engine="llama.cpp", precision="int4", quant="gguf-q4_k_m")
    assert engine_peak_tflops(job, pascal) == 11.8
    # cuBLAS computes 16-bit matmuls in fp32 (CUBLAS_COMPUTE_32F): the fp32 rate; GPTQ's own half kernels do not
    assert engine_peak_tflops(Workload(model=make_model(), engine="transformers", precision="fp16"), pascal) == 11.8
    gptq = Workload(model=make_model(), engine="transformers", precision="int4", quant="gptq")
    assert engine_peak_tflops(gptq, pascal) == 0.18
    assert engine_peak_tflops(job, ampere) == 312.0


def test_a_mac_decodes_at_its_unified_memory_bandwidth_through_llama_cpps_metal_back_end() -> None:
    # a token reads the weights (and cache) at 0.875 of the bandwidth, plus 5.3 ms: Llama-2-7B Q4_0's
    # read bytes over 0.875 × 400 GB/s + 5.3 ms
    from rules import speed_constants as S
    from rules.speed import unified_memory_decode_tokens_per_s, weights_read_bytes
    from rules.types import Workload
    from tests.rules._models import make_model

    job = Workload(model=make_model(), engine="llama.cpp", precision="int4", quant="gguf-q4_0", context=1)
    read = weights_read_bytes(job)
    expected = 1.0 / (read / (S.METAL_DECODE_BANDWIDTH_EFFICIENCY * 400e9) + S.METAL_DECODE_TOKEN_OVERHEAD_S)
    assert unified_memory_decode_tokens_per_s(job, 400.0) == pytest.approx(expected, rel=0.02)  # + a 1-token cache
    assert 50 < expected < 80  # M1/M2/M3 Max class, as llama.cpp's table measures 7B Q4_0 (61-66 tok/s)


def test_a_macs_moe_decode_pays_for_each_routed_expert_it_visits() -> None:
    # Qwen3-30B-A3B: 48 MoE layers × 8 routed experts = 384 visits a token at 18 µs each, 6.9 ms on top of the
    # bytes: on an M1 Max's 400 GB/s that takes it from ≈ 95 to ≈ 57 tok/s (51 measured, llama.cpp on Metal)
    from knowledge.loader import default_knowledge
    from rules import speed_constants as S
    from rules.speed import unified_memory_decode_tokens_per_s, weights_read_bytes
    from rules.types import Workload

    model = default_knowledge().models["qwen3-30b-a3b"]
    job = Workload(model=model, engine="llama.cpp", precision="int4", quant="gguf-q4_k_m", context=512)
    with_visits = unified_memory_decode_tokens_per_s(job, 400.0)
    assert model.moe is not None and model.moe.experts_per_token == 8 and model.num_layers == 48
    bytes_only = 1.0 / (1.0 / with_visits - 48 * 8 * S.METAL_MOE_EXPERT_VISIT_S)
    assert bytes_only / with_visits == pytest.approx(1 + 48 * 8 * 1.8e-5 * bytes_only, rel=1e-6)
    assert 50 < with_visits < 65 and bytes_only > 85
    assert weights_read_bytes(job) < 2.2e9  # ≈ 3.3B active parameters at Q4_K_M


def test_an_offloaded_optimizer_step_is_added_once_a_step_and_shared_by_a_machines_cards() -> None:
    from rules.memory_adapters import adapter_params
    from rules.speed import offloaded_step_seconds, train_step_seconds

    gpu = make_gpu()
    full = Workload(model=make_model(), task="train", context=2048, offload="optimizer")
    # 7e9 parameters at 1e9 a second a machine: 7 s a step on one card, 3.5 s on 16 cards (two machines of 8)
    assert offloaded_step_seconds(full, 1) == pytest.approx(7e9 / S.CPU_ADAM_PARAMS_PER_S_PER_MACHINE)
    assert offloaded_step_seconds(full, 8) == pytest.approx(7.0)
    assert offloaded_step_seconds(full, 16) == pytest.approx(3.5)
    assert offloaded_step_seconds(Workload(model=make_model(), task="train", context=2048, offload="optimizer",
                                           grad_accumulation=4), 1) == pytest.approx(1.75)
    lora = Workload(model=make_model(), task="lora", context=2048, offload="optimizer")
    assert offloaded_step_seconds(lora, 1) == pytest.approx(adapter_params(lora) / 1e9)
    plain = Workload(model=make_model(), task="train", context=2048)
    assert offloaded_step_seconds(plain, 1) == 0.0
    assert train_step_seconds(full, gpu, 1) - train_step_seconds(plain, gpu, 1) == pytest.approx(7.0)


@pytest.mark.parametrize(("checkpointing", "passes"), [(False, 1), (True, 2)])
def test_transformers_moe_training_pays_its_expert_loop_in_every_forward(checkpointing: bool, passes: int) -> None:
    from rules.speed import train_step_seconds

    # 8,192 tokens reach all 128 experts of all 48 layers: 48 × 128 × 90 µs = 0.553 s per forward pass, once
    # more when the backward recomputes it; the fused engines (Unsloth here) pay nothing.
    moe = MoE(num_experts=128, experts_per_token=8, moe_intermediate_size=768)
    model = make_model(params_b=30.0, active_params_b=3.0, moe=moe, num_layers=48)
    dense = make_model(params_b=30.0, active_params_b=3.0, num_layers=48)
    for engine, loop in (("transformers", passes * 48 * 128 * S.TRANSFORMERS_MOE_EXPERT_ITERATION_S), ("unsloth", 0)):
        w = Workload(model=model, task="lora", engine=engine, context=8192, gradient_checkpointing=checkpointing)
        extra = train_step_seconds(w, make_gpu(), 1) - train_step_seconds(
            Workload(model=dense, task="lora", engine=engine, context=8192, gradient_checkpointing=checkpointing),
            make_gpu(), 1)
        assert extra == pytest.approx(loop, abs=1e-9)


def test_bridged_cards_talk_over_nvlink_in_pairs_and_over_pcie_beyond() -> None:
    from rules.hardware import nvlinked
    from rules.speed import allreduce_seconds

    bridged = make_gpu(nvlink_gbps=112.5, interconnect="PCIe Gen4 x16; NVLink bridge (2-way) 112.5 GB/s")
    assert nvlinked(bridged, 2) and not nvlinked(bridged, 4)
    assert nvlinked(make_gpu(interconnect="NVLink 4 900 GB/s"), 8)
    assert nvlinked(make_gpu(interconnect="2- or 4-way NVLink bridge 900 GB/s"), 4)
    w = Workload(model=make_model(), engine="vllm", batch=1)
    # 2 all-reduces a layer of 4096 16-bit values: on 4 bridged cards at PCIe's latency (log2 4 = 2 steps) and
    # 25 GB/s
    payload = 4096 * 2 * 2 * 3 / 4
    pcie = 2 * 32 * (S.ALLREDUCE_LATENCY_S["pcie"] * 2 + payload / (S.PCIE_GBPS * 1e9))
    assert allreduce_seconds(w, bridged, 4) == pytest.approx(pcie)
    nvlink = 2 * 32 * (S.ALLREDUCE_LATENCY_S["nvlink"] * 1 + 4096 * 2 * 2 * 1 / 2 / (112.5 / 2 * 1e9))
    assert allreduce_seconds(w, bridged, 2) == pytest.approx(nvlink)


def test_decode_ceiling_is_the_full_bandwidth_over_the_bytes_a_token_reads() -> None:
    # Llama 3 8B bf16: (8.03e9 − 128,256 × 4,096 embedding rows not read) × 2 B = 15.009 GB of weights, and the
    # KV cache at the average cached length of a 4,096 context (2,048 tokens × 2 × 32 layers × 8 heads × 128
    # × 2 B = 0.268 GB): 1,008 GB/s / 15.278 GB = 66.0 tok/s on an RTX 4090; tensor parallel halves the bytes
    from knowledge import load_knowledge
    from rules import decode_ceiling_tokens_per_s

    kb = load_knowledge()
    w = Workload(model=kb.models["llama-3-8b"], task="inference", precision="bf16", context=4096, batch=1,
                 engine="vllm")
    one = decode_ceiling_tokens_per_s(w, kb.gpus["rtx-4090"], 1)
    assert one == pytest.approx(1008e9 / (15.009e9 + 0.2684e9), rel=1e-3)
    assert decode_ceiling_tokens_per_s(w, kb.gpus["rtx-4090"], 2) == pytest.approx(2 * one)
    assert decode_ceiling_tokens_per_s(replace(w, batch=8), kb.gpus["rtx-4090"], 1) == pytest.approx(one)


def test_a_pipeline_across_machines_hands_over_hidden_size_activations_per_token() -> None:
    from rules.speed import pipeline_handoff_seconds

    kb = load_knowledge()
    model = kb.models["llama-3.1-405b"]
    job = Workload(model=model, task="inference", precision="bf16", engine="vllm", context=4096,
                   inter_node_gbps=100 / 8 / 8)  # 100 Gb/s per machine, as the parser stores it per card
    card = kb.gpus["h100-sxm"]
    # one boundary between 2 machines: 4,096 tokens × 16,384 × 2 B over 12.5 GB/s
    assert pipeline_handoff_seconds(job, card, 16, 4096) == pytest.approx(4096 * 16384 * 2 / 12.5e9)
    assert pipeline_handoff_seconds(job, card, 8, 4096) == 0.0  # one machine: nothing crosses the network
    assert pipeline_handoff_seconds(job, card, 24, 1) == pytest.approx(2 * 16384 * 2 / 12.5e9)


def test_a_small_all_reduce_adds_one_step_per_doubling_of_the_group() -> None:
    # Qwen3's SGLang table decodes Qwen3-235B-A22B as fast in bf16 on 8 H20s as in FP8 on 4: the same bytes a card,
    # so the all-reduces of TP8 cost about what TP4's do (a ring's n - 1 steps made TP8 20-25% slower)
    from rules.speed import allreduce_seconds

    w = Workload(model=make_model(), engine="vllm", batch=1)
    card = make_gpu(interconnect="NVLink 4 900 GB/s", nvlink_gbps=900.0)
    two, four, eight = (allreduce_seconds(w, card, n) for n in (2, 4, 8))
    latency = S.ALLREDUCE_LATENCY_S["nvlink"] * 2 * 32  # per step, two all-reduces in each of 32 layers
    assert four - two == pytest.approx(latency, rel=0.01) and eight - four == pytest.approx(latency, rel=0.01)


def test_a_second_machine_adds_a_network_cost_to_every_decode_step() -> None:
    # audit 23 M-23: DeepSeek-R1 on 16 H100s decoded at 43 tok/s (SGLang, TP16 over InfiniBand), half the 88 the
    # rules gave as if 16 cards in one machine; each boundary adds its round trips to every step
    w = Workload(model=make_model(), engine="sglang", batch=1)
    card = make_gpu(interconnect="NVLink 4 900 GB/s", nvlink_gbps=900.0)
    eight, sixteen, twenty_four = (decode_step(w, card, n) for n in (8, 16, 24))
    within = allreduce_seconds(w, card, 16)
    assert eight.communication_s == pytest.approx(allreduce_seconds(w, card, 8))
    assert sixteen.communication_s == pytest.approx(within + S.CROSS_MACHINE_DECODE_STEP_S)
    assert twenty_four.communication_s == pytest.approx(allreduce_seconds(w, card, 24)
                                                        + 2 * S.CROSS_MACHINE_DECODE_STEP_S)
    # so a second machine no longer doubles a small model's batch-1 decode: 16 cards are slower than 8 here
    assert sixteen.total_s > eight.total_s


def test_an_encoders_token_table_is_a_lookup_not_compute() -> None:
    # audit 23 M-20: bge-m3 (568M, 256M of it the 250,002 × 1,024 XLM-R table) was timed 1.6× slower than
    # bge-large, the same 24-layer encoder; a decoder's 2·P keeps its table (its lm_head is a matmul)
    from rules.speed import flops_per_token

    encoder = make_model(arch="encoder", params_b=0.568, num_layers=24, hidden_size=1024, num_attention_heads=16,
                         num_kv_heads=16, head_dim=64, intermediate_size=4096, mlp="plain", vocab_size=250002,
                         tie_embeddings=True)
    attn = 4.0 * 24 * 100 * 1024
    assert flops_per_token(Workload(model=encoder), 100) == pytest.approx(2 * (0.568e9 - 250002 * 1024) + attn)
    decoder = make_model()
    assert flops_per_token(Workload(model=decoder), 100) == pytest.approx(2 * 7e9 + 4.0 * 32 * 100 * 4096)
