"""Fit with headroom on one card's memory, suggestions with their numbers, and the ranking."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, check_fit, estimate_memory, rank_picks, valid_tp
from rules import constants as C
from rules.fit import limit_gib
from rules.hardware import price_proxy, runs_precision, usable_gib, visible_gib
from tests.rules._models import make_gpu, make_model

T4_LIKE = dict(id="t4ish", memory_gb=16.0, memory_type="GDDR6", bandwidth_gbps=320.0, fp16_tflops=65.0,
               bf16_tflops=None, nvlink_gbps=None)
A10_LIKE = dict(id="a10ish", memory_gb=24.0, memory_type="GDDR6", bandwidth_gbps=600.0, fp16_tflops=125.0,
                bf16_tflops=125.0, nvlink_gbps=None)


def test_usable_memory_is_below_nominal() -> None:
    t4 = make_gpu(**T4_LIKE)
    # GDDR6 with ECC: 16 × 15/16 = 15 GiB visible; − 0.5 GiB CUDA context = 14.5 GiB: the limit itself
    # (the 10% margin is advice, not a second limit).
    assert visible_gib(t4) == 15.0
    assert usable_gib(t4) == 14.5
    assert limit_gib(Workload(model=make_model()), t4) == pytest.approx(14.5)
    # vLLM 0.20-0.33: 0.92 × 15 = 13.8 GiB (it counts its non-KV memory itself; V1 leaves the CUDA context
    # outside); 0.9 × 15 = 13.5 GiB before 0.20; from 0.34 the card less the context and a 1 GiB margin (the
    # toy model's activation peak on a T4, under 1.33 GiB, keeps the margin at its floor): 15 − 0.5 − 1 = 13.5.
    vllm = Workload(model=make_model(), engine="vllm")
    assert limit_gib(replace(vllm, engine_version="0.33"), t4) == pytest.approx(13.8)
    assert limit_gib(replace(vllm, engine_version="0.19"), t4) == pytest.approx(13.5)
    assert limit_gib(vllm, t4) == pytest.approx(15 - 0.5 - 1.0)
    # SGLang: weights and KV in 0.9 × 15 − 0.5 = 13.0 GiB, activations beside them: the card's 14.5 GiB caps it.
    assert limit_gib(Workload(model=make_model(), engine="sglang"), t4) == pytest.approx(14.5)
    hbm = make_gpu()
    assert usable_gib(hbm) == 80.0 - C.CUDA_CONTEXT_GIB


def test_fits_and_headroom() -> None:
    w = Workload(model=make_model(), context=4096)
    a10 = make_gpu(**A10_LIKE)
    check = check_fit(w, a10, 1, candidates=[])
    need = estimate_memory(w).per_gpu_gib  # ≈ 16.2 GiB
    assert check.fits
    assert check.memory_per_gpu_gib == pytest.approx(need, abs=0.01)
    # limit = 24 × 15/16 − 0.5 = 22.0 GiB
    assert check.limit_gib == pytest.approx(22.0)
    assert check.headroom_gib == pytest.approx(22.0 - need, abs=0.01)
    assert not check.tight
    assert check.suggestions == []


def test_does_not_fit_suggests_alternatives_with_numbers() -> None:
    w = Workload(model=make_model(), context=4096)
    t4 = make_gpu(**T4_LIKE)
    big = make_gpu(id="big", memory_gb=48.0)
    check = check_fit(w, t4, 1, candidates=[t4, big])
    assert not check.fits
    assert check.headroom_gib < 0
    kinds = {s.kind: s for s in check.suggestions}
    # int8 GPTQ: ≈ 6.7 GiB of weights + 2 GiB KV + transient → ≈ 9.6 GiB, fits 14.5.
    assert kinds["quantise"].quant == "gptq-int8"
    assert kinds["quantise"].memory_per_gpu_gib is not None and kinds["quantise"].memory_per_gpu_gib < 14.5
    assert kinds["more-gpus"].count == 2
    assert kinds["bigger-gpu"].gpu_id == "big"
    # A machine that holds one such card (a Mac's GPU) is offered no more of it; the rest stays.
    alone = check_fit(w, make_gpu(**T4_LIKE, max_per_machine=1), 1, candidates=[t4, big])
    assert {s.kind for s in alone.suggestions} == set(kinds) - {"more-gpus"}
    # Only at 1,024 tokens does it squeeze under 14.5 GiB (13.04 GiB of weights + 0.5 GiB of KV + overhead).
    assert kinds["shorter-context"].context == 1024
    for s in check.suggestions:
        assert s.memory_per_gpu_gib is not None


def test_full_training_that_does_not_fit_is_offered_8bit_adamw_first() -> None:
    # Toy 7B, full training on one 80 GB card: 2 + 2 + 12 = 16 B per parameter (104 GiB) cannot fit. 8-bit
    # AdamW keeps its two moments in 2 B instead of 8 beside the fp32 master (4): 2 + 2 + 6 = 10 B per parameter,
    # 65.2 GiB of model states, and every weight still trains — offered before a change of method.
    w = Workload(model=make_model(), task="train", context=2048, gradient_checkpointing=True)
    check = check_fit(w, make_gpu(), 1, candidates=[])
    assert not check.fits
    assert check.suggestions[0].kind == "optimizer-8bit"
    eight_bit = estimate_memory(replace(w, optimizer="adamw-8bit"), 1, make_gpu())
    assert eight_bit.breakdown["optimizer"] == pytest.approx(7e9 * (4 + 2) / 2**30, rel=1e-3)
    assert check.suggestions[0].memory_per_gpu_gib == pytest.approx(eight_bit.per_gpu_gib, abs=0.01)
    already = check_fit(replace(w, optimizer="adamw-8bit", batch=64), make_gpu(), 1, candidates=[])
    assert not already.fits and not any(s.kind == "optimizer-8bit" for s in already.suggestions)


def test_full_training_that_does_not_fit_is_offered_cpu_offload_with_its_host_ram() -> None:
    # Toy 7B, full training on one 80 GB card: 16 B per parameter of model states (104 GiB) cannot fit. With
    # ZeRO-Offload (ZeRO-2 on one card) the card keeps the 16-bit weights, 13.04 GiB, and the host holds
    # DeepSpeed's max(4 × 1, 16) × 1.5 = 24 B per parameter = 156.5 GiB.
    w = Workload(model=make_model(), task="train", context=2048, gradient_checkpointing=True)
    check = check_fit(w, make_gpu(), 1, candidates=[])
    assert not check.fits
    [offload] = [s for s in check.suggestions if s.kind.startswith("offload")]
    assert offload.kind == "offload-optimizer"
    assert offload.host_ram_gib == pytest.approx(7e9 * 24 / 2**30, abs=0.1)
    assert offload.memory_per_gpu_gib is not None and 13.04 < offload.memory_per_gpu_gib < usable_gib(make_gpu())
    offloaded = check_fit(Workload(model=make_model(), task="train", context=2048, offload="optimizer"),
                          make_gpu(), 1, candidates=[])
    assert offloaded.fits and not any(s.kind.startswith("offload") for s in offloaded.suggestions)


def test_a_long_context_that_does_not_fit_is_offered_the_engines_smaller_kv_cache() -> None:
    # Toy at Q4_K_M on llama.cpp, 32,768 tokens: 3.9 GiB of weights + 16 GiB of f16 KV (524,288 B per token)
    # cannot fit a 16 GB card's 15.5 GiB; with q8_0 (34/32 B per element) the KV is 8.5 GiB and it fits.
    card = make_gpu(id="g16", memory_gb=16.0, memory_type="GDDR6X", nvlink_gbps=None)
    w = Workload(model=make_model(), engine="llama.cpp", precision="int4", context=32768)
    check = check_fit(w, card, 1, candidates=[])
    assert not check.fits
    [kv] = [s for s in check.suggestions if s.kind == "kv-cache"]
    assert kv.kv_cache == "int8"  # the larger of llama.cpp's smaller types that fits (q8_0 before q4_0)
    smaller = estimate_memory(Workload(model=make_model(), engine="llama.cpp", precision="int4", context=32768,
                                       kv_cache="int8"))
    assert kv.memory_per_gpu_gib == pytest.approx(smaller.per_gpu_gib, abs=0.01)
    assert smaller.breakdown["kv_cache"] == pytest.approx(16 * 34 / 32 / 2, abs=0.01)
    on_hf = check_fit(Workload(model=make_model(), precision="int4", context=32768), card, 1, candidates=[])
    assert not any(s.kind == "kv-cache" for s in on_hf.suggestions)  # transformers keeps a 16-bit cache


def test_quantising_onto_more_of_the_same_cards_when_one_is_too_small_even_at_4_bits() -> None:
    # A 70B-class decoder (80 layers of 8192, 64 heads): 4-bit AWQ weights ≈ 37 GiB do not fit one 24 GB card
    # (23.5 GiB usable) but do fit two; the suggestion says so rather than nothing about quantising.
    big_model = make_model(params_b=70.0, num_layers=80, hidden_size=8192, num_attention_heads=64,
                           num_kv_heads=8, intermediate_size=28672)
    card = make_gpu(id="g24", memory_gb=24.0, memory_type="GDDR6X", nvlink_gbps=None)
    check = check_fit(Workload(model=big_model, context=4096), card, 1, candidates=[card])
    [quantise] = [s for s in check.suggestions if s.kind == "quantise"]
    assert (quantise.precision, quantise.quant, quantise.count, quantise.gpu_id) == ("int4", "awq", 2, "g24")
    assert quantise.memory_per_gpu_gib is not None and quantise.memory_per_gpu_gib <= usable_gib(card)
    one = check_fit(Workload(model=big_model, precision="int4", quant="awq", context=4096), card, 1)
    assert not one.fits  # one card really is too small at 4 bits


def test_quantising_only_ever_suggests_smaller_weights() -> None:
    # A job already at 4 bits (llama.cpp Q4_K_M, or AWQ) is never told to "quantise to INT8": that makes the
    # weights bigger. The same 70B-class model on one 24 GB card: no quantise suggestion at all.
    big_model = make_model(params_b=70.0, num_layers=80, hidden_size=8192, num_attention_heads=64,
                           num_kv_heads=8, intermediate_size=28672)
    card = make_gpu(id="g24", memory_gb=24.0, memory_type="GDDR6X", nvlink_gbps=None)
    for precision, quant, engine in (("int4", "gguf-q4_k_m", "llama.cpp"), ("int4", "awq", "transformers")):
        w = Workload(model=big_model, precision=precision, quant=quant, engine=engine, context=4096)  # type: ignore[arg-type]
        check = check_fit(w, card, 1, candidates=[card])
        assert not check.fits
        assert [s for s in check.suggestions if s.kind == "quantise"] == []
    # From 16 bits the smaller formats are still offered.
    bf16 = check_fit(Workload(model=big_model, context=4096), card, 1, candidates=[card])
    assert [s.quant for s in bf16.suggestions if s.kind == "quantise"] == ["awq"]


def test_shorter_context_when_only_the_kv_cache_is_too_big() -> None:
    w = Workload(model=make_model(), context=4096)  # ≈ 16.2 GiB
    card = make_gpu(id="card16", memory_gb=16.0)  # limit 16 − 0.5 = 15.5 GiB
    check = check_fit(w, card, 1, candidates=[])
    assert not check.fits
    ctx = [s for s in check.suggestions if s.kind == "shorter-context"]
    # 2,048 tokens: 1 GiB of KV and half the transient → ≈ 15.0 GiB ≤ 15.5.
    assert ctx and ctx[0].context == 2048
    assert ctx[0].memory_per_gpu_gib == pytest.approx(estimate_memory(
        Workload(model=make_model(), context=2048)).per_gpu_gib, abs=0.01)


def test_training_suggests_lora_then_qlora() -> None:
    w = Workload(model=make_model(), task="train", context=1024)
    check = check_fit(w, make_gpu(**A10_LIKE), 1, candidates=[])
    assert not check.fits
    assert check.suggestions[0].kind in ("lora", "qlora")
    assert any(s.kind == "more-gpus" for s in check.suggestions)


def test_an_activation_bound_lora_job_is_offered_checkpointing_not_more_cards() -> None:
    # Mistral-7B LoRA on 8-bit weights, 2 × 4,096 tokens, gradient checkpointing off (axolotl issue 814, which
    # OOMed on an A100 80GB): activations are most of the job, and each data-parallel card holds its own.
    kb = load_knowledge()
    w = Workload(model=kb.model("mistral-7b"), task="lora", precision="int8", context=4096, batch=2,
                 gradient_checkpointing=False)
    gpu = kb.gpus["a100-80gb"]
    check = check_fit(w, gpu, 1, candidates=list(kb.gpus.values()))
    assert check.tight or not check.fits
    kinds = [s.kind for s in check.suggestions]
    assert kinds[0] == "checkpointing" and "more-gpus" not in kinds
    # Offered "to be safe", every change on this card leaves the job clear of the tight band.
    limit = limit_gib(w, gpu)
    assert all(s.memory_per_gpu_gib <= limit * (1 - C.TIGHT_FRACTION)
               for s in check.suggestions if s.kind != "bigger-gpu")


@pytest.mark.parametrize(("heads", "kv", "tp", "ok"), [
    (32, 32, 8, True),
    (32, 8, 8, True),
    (32, 2, 4, True),  # tp 4 > 2 KV heads: replicated, 4 % 2 == 0
    (28, 4, 4, True),  # Qwen2.5-7B
    (28, 4, 8, False),  # 28 heads do not divide by 8
    (40, 8, 8, True),
    (32, 3, 2, False),  # 3 KV heads do not divide by 2
])
def test_tensor_parallel_degree_rule(heads: int, kv: int, tp: int, ok: bool) -> None:
    m = make_model(num_attention_heads=heads, num_kv_heads=kv, head_dim=128)
    assert valid_tp(Workload(model=m, engine="vllm"), tp) is ok
    assert valid_tp(Workload(model=m, task="train"), tp)  # data parallel: any count
    assert valid_tp(Workload(model=m, engine="transformers"), tp)  # device_map layer split: any count


def test_qwen25_7b_cannot_run_tp8() -> None:
    kb = load_knowledge()
    w = Workload(model=kb.model("qwen2.5-7b"), engine="vllm")
    assert valid_tp(w, 4) and not valid_tp(w, 8)


def test_beyond_a_node_is_whole_nodes_of_eight() -> None:
    m = make_model(num_attention_heads=32, num_kv_heads=8, head_dim=128)
    w = Workload(model=m, engine="vllm")
    assert valid_tp(w, 16) and valid_tp(w, 64)  # TP 8 × PP 2, TP 8 × PP 8
    assert not valid_tp(w, 12)  # not whole nodes
    est = estimate_memory(w, 16)
    assert "tp8" in est.notes and "nodes2" in est.notes


def test_tight_either_side_of_the_limit() -> None:
    from rules.fit import is_tight

    assert is_tight(22.0, 22.5) and is_tight(23.0, 22.5)  # within 3% of 22.5 = 0.675 GiB
    assert not is_tight(21.5, 22.5) and not is_tight(23.5, 22.5)


def test_layer_split_puts_one_embedding_matrix_on_the_fullest_card() -> None:
    # 7B-like: vocab 32,000 × hidden 4,096 = 131M per matrix, untied (2 matrices, 262M); bf16.
    m = make_model()
    one = estimate_memory(Workload(model=m), 1).breakdown["weights"]
    two = estimate_memory(Workload(model=m), 2).breakdown["weights"]
    embedding = 2 * 32_000 * 4_096 * 2 / 2**30  # GiB of both matrices
    assert two == pytest.approx((one - embedding) / 2 + embedding / 2, abs=0.01)


def test_never_picks_not_recommended_cards_and_takes_the_smallest_count() -> None:
    w = Workload(model=make_model(), context=4096)  # ≈ 16.2 GiB
    t4 = make_gpu(**T4_LIKE)
    bad = make_gpu(id="bad", recommended=False, memory_gb=96.0)
    picks = rank_picks(w, [t4, bad])
    assert [p.gpu_id for p in picks] == ["t4ish"]
    assert picks[0].count == 2 and picks[0].fits  # 8.1 GiB per card ≤ 13.2


def test_unfit_entries_only_when_nothing_fits() -> None:
    w = Workload(model=make_model(params_b=400.0), context=4096)
    t4 = make_gpu(**T4_LIKE)
    picks = rank_picks(w, [t4, make_gpu()])
    assert picks and all(not p.fits for p in picks)
    assert all(p.count == 8 for p in picks)
    fitting = rank_picks(Workload(model=make_model(), context=4096), [t4, make_gpu()])
    assert all(p.fits for p in fitting)


def test_ranking_cheapest_first_for_inference_cost_per_token_for_training() -> None:
    t4, a10, a100 = make_gpu(**T4_LIKE), make_gpu(**A10_LIKE), make_gpu()
    # price proxies: T4 320 + 80 + 130 = 530; A10 600 + 120 + 250 = 970; A100-like 2000 + 400 + 624 = 3024.
    assert (price_proxy(t4), price_proxy(a10), price_proxy(a100)) == (530.0, 970.0, 3024.0)
    small = Workload(model=make_model(params_b=1.0, num_layers=16, hidden_size=2048, num_attention_heads=16,
                                      num_kv_heads=16, intermediate_size=5504), context=2048)
    assert [p.gpu_id for p in rank_picks(small, [a100, a10, t4])] == ["t4ish", "a10ish", "card"]
    # Training: cost / (peak × MFU): T4 530/65 = 8.2, A10 970/125 = 7.8, A100-like 3024/312 = 9.7.
    train = Workload(model=small.model, task="train", context=512)
    assert rank_picks(train, [a100, a10, t4])[0].gpu_id == "a10ish"
    # budget=True: cheapest hourly. 1B × 16 B = 14.9 GiB of states does not fit one T4 (13.2): two T4s cost
    # 1,060 > one A10 970.
    assert rank_picks(train, [a100, a10, t4], budget=True)[0].gpu_id == "a10ish"
    tiny = Workload(model=make_model(params_b=0.3, num_layers=12, hidden_size=1024, num_attention_heads=16,
                                     num_kv_heads=16, intermediate_size=2816), task="train", context=512)
    assert rank_picks(tiny, [a100, a10, t4])[0].gpu_id == "a10ish"
    assert rank_picks(tiny, [a100, a10, t4], budget=True)[0].gpu_id == "t4ish"


def test_fixed_count_and_vllm_pick_reports_concurrency() -> None:
    w = Workload(model=make_model(), engine="vllm", context=4096)
    picks = rank_picks(w, [make_gpu()], fixed_count=2)
    assert picks[0].count == 2
    assert picks[0].max_concurrent_sequences is not None and picks[0].max_concurrent_sequences > 26


def test_bigger_gpu_suggestion_skips_cards_without_tensor_cores() -> None:
    w = Workload(model=make_model(), context=4096)
    pascal = make_gpu(id="pascal24", memory_gb=24.0, fp16_tflops=0.2, bf16_tflops=None, bandwidth_gbps=350.0)
    a10 = make_gpu(**A10_LIKE)
    check = check_fit(w, make_gpu(**T4_LIKE), 1, candidates=[pascal, a10])
    assert next(s for s in check.suggestions if s.kind == "bigger-gpu").gpu_id == "a10ish"
    # …and the ranking puts such a card last even though its price proxy is lower.
    assert price_proxy(pascal) < price_proxy(a10)
    assert [p.gpu_id for p in rank_picks(w, [pascal, a10])] == ["a10ish", "pascal24"]


@pytest.mark.parametrize(("architecture", "fp8_tflops", "engine", "runs"), [
    ("Hopper (GH100)", 989.0, "transformers", True),  # FP8 tensor cores: every engine
    ("Ampere (GA100)", None, "vllm", True),  # vLLM's FP8 Marlin, weight-only
    ("Ampere (GA100)", None, "transformers", False),
    ("Turing (TU104)", None, "vllm", False),  # is_fp8_marlin_supported asks for 8.0, whatever the docs say
    ("Volta (GV100)", None, "vllm", False),
])
def test_fp8_weights_need_fp8_tensor_cores_or_vllm_weight_only(architecture: str, fp8_tflops: float | None,
                                                                engine: str, runs: bool) -> None:
    gpu = make_gpu(id="card", architecture=architecture, fp8_tflops=fp8_tflops, memory_gb=80.0)
    w = Workload(model=make_model(), precision="fp8", engine=engine, context=2048)  # type: ignore[arg-type]
    check = check_fit(w, gpu, 1, candidates=[gpu])
    assert check.fits is runs
    assert check.unsupported_precision == (None if runs else "fp8")
    assert check.memory_per_gpu_gib < usable_gib(gpu)  # memory was never the reason
    assert bool(rank_picks(w, [gpu])) is runs
    assert runs_precision(gpu, "bf16", engine)  # only FP8 is restricted


def test_a_card_that_comes_in_pairs_is_placed_in_pairs_unless_someone_rents_it_singly() -> None:
    from rules.fit import placeable

    superchip = make_gpu(id="pair", gpus_per_node=2)
    assert not placeable(superchip, 1, lambda g, n: None)  # no price row rents one: a pair is the unit
    assert placeable(superchip, 2, lambda g, n: None)
    assert placeable(superchip, 1, lambda g, n: 3.0)  # a priced single-card instance exists
    assert placeable(superchip, 1)  # without price rows to consult, nothing rules it out
    w = Workload(model=make_model(), context=2048)
    picks = rank_picks(w, [superchip], hourly_price_of=lambda g, n: None)
    assert picks and picks[0].count == 2


def test_eager_attention_that_does_not_fit_is_offered_flash_attention_with_its_figure() -> None:
    # Toy at 20,480 tokens with eager attention: 32 heads × 20,480² × 6 B = 75 GiB of scores on top of 12.6 GiB of
    # weights and 10 GiB of KV, beyond an 80 GB card; with a fused kernel the scores vanish and the job fits.
    w = Workload(model=make_model(), context=20480, flash_attention=False)
    check = check_fit(w, make_gpu(), 1, candidates=[])
    assert not check.fits
    [fused] = [s for s in check.suggestions if s.kind == "flash-attention"]
    assert fused.memory_per_gpu_gib == pytest.approx(
        estimate_memory(Workload(model=make_model(), context=20480), 1, make_gpu()).per_gpu_gib, abs=0.01)
    assert check.suggestions[0].kind == "flash-attention"  # a switch comes before new hardware


def test_an_old_engine_release_is_offered_the_current_one_only_when_the_release_matters() -> None:
    # A GQA toy (8 KV heads) at 30,720 tokens on a 24 GB card: transformers 4.38 also returns every prompt
    # position's logits, 30,720 × 32,000 × 6 B ≈ 5.5 GiB, which a current release does not hold.
    card = make_gpu(id="g24", memory_gb=24.0, memory_type="GDDR6X", nvlink_gbps=None)
    model = make_model(num_kv_heads=8, attention="gqa")
    old = Workload(model=model, context=30720, engine_version="4.38")
    current = Workload(model=model, context=30720)
    est_new = estimate_memory(current, 1, card)
    assert estimate_memory(old, 1, card).per_gpu_gib - est_new.per_gpu_gib >= 30720 * 32000 * 6 / 2**30 - 0.01
    check = check_fit(old, card, 1, candidates=[])
    assert not check.fits and check_fit(current, card, 1, candidates=[]).fits
    [newer] = [s for s in check.suggestions if s.kind == "newer-engine"]
    assert newer.memory_per_gpu_gib == pytest.approx(est_new.per_gpu_gib, abs=0.01)
    # A release the profiles do not tell apart from today's is no advice.
    same = check_fit(Workload(model=model, context=40960, engine_version="4.50"), card, 1, candidates=[])
    assert not same.fits and same.suggestions
    assert not any(s.kind == "newer-engine" for s in same.suggestions)


def test_a_serving_engine_on_fp8_tensor_cores_is_offered_its_own_fp8_quantisation_first() -> None:
    # vLLM quantises a bf16 checkpoint to FP8 on load; the card needs FP8 tensor cores (an FP8 peak).
    w = Workload(model=make_model(), context=4096, engine="vllm")
    fp8_card = make_gpu(**{**T4_LIKE, "id": "fp8-card", "fp8_tflops": 130.0})
    kinds = {s.kind: s for s in check_fit(w, fp8_card, 1, candidates=[fp8_card]).suggestions}
    assert (kinds["quantise"].precision, kinds["quantise"].quant) == ("fp8", "fp8")
    # Without FP8 tensor cores, or with transformers (no load-time FP8), a GPTQ file is what is offered.
    t4 = make_gpu(**T4_LIKE)
    assert {s.kind: s for s in check_fit(w, t4, 1, candidates=[t4]).suggestions}["quantise"].quant == "gptq-int8"
    plain = replace(w, engine="transformers")
    assert {s.kind: s for s in check_fit(plain, fp8_card, 1, candidates=[fp8_card]).suggestions}[
        "quantise"].quant == "gptq-int8"


def test_lmdeploy_is_offered_the_4bit_awq_its_turbomind_runs_not_a_gptq_int8_checkpoint() -> None:
    from dataclasses import replace

    from rules.alternatives import suggestions
    from rules.types import Workload
    from tests.rules._models import make_gpu, make_model

    card = make_gpu(memory_gb=16.0)
    job = Workload(model=make_model(params_b=13.0, num_layers=40, hidden_size=5120, num_attention_heads=40,
                                    num_kv_heads=40, intermediate_size=13824),
                   task="inference", precision="bf16", engine="lmdeploy", context=2048)
    offered = {(s.precision, s.quant) for s in suggestions(job, card, 1, [card]) if s.kind == "quantise"}
    assert offered == {("int4", "awq")}
    plain = {(s.precision, s.quant) for s in suggestions(replace(job, engine="transformers"), card, 1, [card])
             if s.kind == "quantise"}
    assert plain == {("int8", "gptq-int8")}  # 13 GB of int8 weights fit a 16 GB card: the smaller step first


def test_weights_already_in_four_bits_are_not_offered_another_four_bit_format() -> None:
    from rules.alternatives import suggestions
    from rules.types import Workload

    kb = load_knowledge()
    card = kb.gpus["h100-sxm"]
    job = Workload(model=kb.models["gpt-oss-120b"], task="inference", precision="mxfp4", quant="mxfp4",
                   engine="vllm", context=32768, batch=4)
    assert not any(s.kind == "quantise" and s.precision == "int4" for s in suggestions(job, card, 1, [card]))


@pytest.mark.parametrize(("architecture", "quant", "runs"), [
    ("Volta (GV100)", "awq", False),  # vLLM awq.py get_min_capability 75
    ("Turing (TU104)", "awq", True),
    ("Volta (GV100)", "gptq", True),  # gptq.py 60
    ("Turing (TU104)", "mxfp4", False),  # mxfp4.py 80
    ("Ampere (GA100)", "mxfp4", True),
])
def test_vllm_runs_a_weight_format_only_from_its_kernels_compute_capability(architecture: str, quant: str,
                                                                            runs: bool) -> None:
    from rules.hardware import runs_format
    from tests.rules._models import make_gpu

    assert runs_format(make_gpu(architecture=architecture), quant, "vllm") is runs
    assert runs_format(make_gpu(architecture=None, vendor="generic"), quant, "vllm")  # a card known by memory


@pytest.mark.parametrize(("architecture", "quant", "runs"), [
    ("Volta (GV100)", "awq", False),  # AutoAWQ: compute capability 7.5 (audit 15 B-M3: a V100 was the AWQ pick)
    ("Pascal (GP102)", "awq", False),
    ("Turing (TU104)", "awq", True),
    ("Volta (GV100)", "gptq", True),  # no floor stated for transformers' GPTQ
    ("Turing (TU104)", "mxfp4", True),
])
def test_transformers_runs_awq_only_from_turing(architecture: str, quant: str, runs: bool) -> None:
    from rules.hardware import runs_format
    from tests.rules._models import make_gpu

    assert runs_format(make_gpu(architecture=architecture), quant, "transformers") is runs


def test_a_shorter_context_offered_for_a_too_long_one_is_no_longer_than_the_models_window() -> None:
    # 10M tokens of an 8B with a 131,072 window: halving finds 156,250 fitting, past the window; the window fits
    from rules.alternatives import suggestions
    from rules.types import Workload
    from tests.rules._models import make_gpu, make_model

    model = make_model(params_b=8.0, num_kv_heads=8, attention="gqa", max_context=131_072)
    card = make_gpu()
    job = Workload(model=model, task="inference", precision="bf16", context=10_000_000)
    [cut] = [s for s in suggestions(job, card, 1, [card]) if s.kind == "shorter-context"]
    assert cut.context == 131_072


def test_an_old_release_with_eager_attention_is_offered_both_switches_when_neither_alone_fits() -> None:
    # A GQA toy with a 152,064-token vocabulary at 10,240 tokens on a 24 GB card (23.5 GiB usable): transformers
    # 4.38 keeps every position's fp32 logits and eager attention 32 heads × 10,240² scores. Flash attention
    # alone leaves the logits (24.7 GiB), a current release alone leaves the scores (34.8 GiB); both together
    # hold 13 GiB of weights, 1.25 GiB of KV and one position's logits.
    card = make_gpu(id="g24", memory_gb=24.0, memory_type="GDDR6X", nvlink_gbps=None)
    model = make_model(num_kv_heads=8, attention="gqa", vocab_size=152064)
    old = Workload(model=model, context=10240, engine_version="4.38", flash_attention=False)
    for alone in (replace(old, flash_attention=True), replace(old, engine_version=None)):
        assert estimate_memory(alone, 1, card).per_gpu_gib > limit_gib(alone, card)
    both = estimate_memory(Workload(model=model, context=10240), 1, card).per_gpu_gib
    check = check_fit(old, card, 1, candidates=[])
    assert not check.fits
    [newer] = [s for s in check.suggestions if s.kind == "newer-engine"]
    assert newer.flash_attention is True
    assert newer.memory_per_gpu_gib == pytest.approx(both, abs=0.01)
    assert not any(s.kind == "flash-attention" for s in check.suggestions)


def test_more_cards_are_not_offered_when_a_layer_split_leaves_each_card_the_activations() -> None:
    # transformers' device_map splits layers: each card runs its layers' whole working set, so eager attention's
    # 32 × 10,240² scores (19.7 GiB of the toy's 34.8) stay on every card however many share the weights. Sharing
    # only the 12.6 GiB of weights, 16 cards would be needed (or 4 at INT8): no advice for a 7B model.
    card = make_gpu(id="g24", memory_gb=24.0, memory_type="GDDR6X", nvlink_gbps=None)
    w = Workload(model=make_model(num_kv_heads=8, attention="gqa"), context=10240, flash_attention=False)
    est = estimate_memory(w, 1, card)
    assert est.breakdown["activations"] > 0.5 * est.per_gpu_gib
    check = check_fit(w, card, 1, candidates=[])
    assert not check.fits and check.suggestions
    assert all(s.count in (None, 1) for s in check.suggestions), check.suggestions


def test_cards_sold_with_the_same_memory_are_judged_alike_for_a_small_job() -> None:
    # A job of 3.8 GiB is under a quarter of a V100 16GB's 15.5 usable GiB but not of a T4's 14.5: judged on
    # the usable memory, the T4 ranked first as "right-sized" at 4x the V100's hourly price. Both are 16 GB
    # cards (14.4 GiB less the CUDA context): the job is right-sized on both, and the cheaper one leads.
    kb = load_knowledge()
    t4, v100 = kb.gpus["t4"], kb.gpus["v100-16gb"]
    w = Workload(model=make_model(params_b=1.1), context=2048)
    need = estimate_memory(w, 1, t4).per_gpu_gib
    assert C.SMALL_JOB_SHARE * usable_gib(t4) < need < C.SMALL_JOB_SHARE * usable_gib(v100)
    prices = {"t4": 0.53, "v100-16gb": 0.14}
    picks = rank_picks(w, [t4, v100], [], limit=2, hourly_price_of=lambda g, n: prices[g.id] * n)
    assert [p.gpu_id for p in picks] == ["v100-16gb", "t4"]


def test_the_largest_fitting_count_is_found_between_the_halving_that_fits_and_the_one_that_did_not() -> None:
    from rules.alternatives import largest_fitting

    def need(batch: int) -> float | None:
        return batch * 2.0 if batch * 2.0 <= 57 else None  # 28 fits, 29 does not

    assert largest_fitting(32, need) == (28, 56.0)
    assert largest_fitting(29, need) == (28, 56.0)
    assert largest_fitting(2, lambda b: None) is None
    assert largest_fitting(100, lambda b: 1.0 if b <= 3 else None) == (3, 1.0)


def test_a_rented_card_without_a_price_follows_the_priced_ones() -> None:
    # By the capability proxy (8000 GB/s + 5 × 186 GB + 2 × 2,500 TFLOPS) two GB200s cost about as much as two
    # B200s and train faster, so they led a 13B fine-tune; nobody publishes a price for them, so the B200 set
    # whose price can be checked comes first and the GB200 set follows.
    kb = load_knowledge()
    b200, gb200 = kb.gpus["b200"], kb.gpus["gb200"]
    w = Workload(model=make_model(params_b=13.0), task="train", context=2048)
    proxy_only = rank_picks(w, [gb200, b200], limit=2, hourly_price_of=lambda g, n: None)
    assert proxy_only[0].gpu_id == "gb200"
    priced = rank_picks(w, [gb200, b200], limit=2,
                        hourly_price_of=lambda g, n: 6.0 * n if g.id == "b200" else None)
    assert [p.gpu_id for p in priced] == ["b200", "gb200"]


def test_geforce_cards_without_a_price_keep_their_proxy_order_and_fewer_of_them_come_first() -> None:
    # No GeForce card has a rental price: that is no reason to rank one below another. Among them the set a box
    # holds with fewer cards comes first: a 24 GB card before two 12 GB ones that the proxy makes cheaper.
    big = make_gpu(id="big", form="consumer", memory_gb=32.0, memory_type="GDDR7", bandwidth_gbps=1800.0,
                   fp16_tflops=210.0, bf16_tflops=210.0, nvlink_gbps=None)
    small = make_gpu(id="small", form="consumer", memory_gb=12.0, memory_type="GDDR6X", bandwidth_gbps=500.0,
                     fp16_tflops=90.0, bf16_tflops=90.0, nvlink_gbps=None)
    w = Workload(model=make_model(params_b=6.0), task="lora", context=2048)
    picks = rank_picks(w, [small, big], limit=2, hourly_price_of=lambda g, n: None)
    assert picks[1].score > picks[0].score  # the pair trains more tokens per unit of proxy cost
    assert (picks[0].gpu_id, picks[0].count) == ("big", 1)
    assert picks[1].gpu_id == "small" and picks[1].count > 1


def test_no_pick_spans_more_than_twice_the_machines_of_the_leanest_priced_one() -> None:
    # DeepSeek-V3 in FP8 fits eight H200s in one machine; 64 A10s over eight machines also hold it and once led
    # a Chinese reply. Sixteen A100s (two machines) stay: within twice the leanest.
    kb = load_knowledge()
    model = kb.models["deepseek-v3"]
    w = Workload(model=model, precision="fp8", engine="vllm")
    cards = [kb.gpus[g] for g in ("h200", "a100-80gb", "a10")]
    prices = {"h200": 3.5, "a100-80gb": 1.8, "a10": 0.4}
    picks = rank_picks(w, cards, limit=10, max_count=64, hourly_price_of=lambda g, n: prices[g.id] * n)
    counts = {p.gpu_id: p.count for p in picks if p.fits}
    assert counts.get("h200") == 8 and counts.get("a100-80gb") == 16
    assert "a10" not in counts
    # a count the user fixed is theirs to ask about
    fixed = rank_picks(w, [kb.gpus["a10"]], limit=1, fixed_count=64, max_count=64,
                       hourly_price_of=lambda g, n: prices[g.id] * n)
    assert fixed and fixed[0].count == 64


def test_the_lora_offered_instead_of_a_full_fine_tune_keeps_its_checkpointing() -> None:
    # A 9B full fine-tune on two 80 GB cards needs checkpointing (and still does not fit); the LoRA offered
    # instead was sized without it (67.8 GiB), 2.4× the checkpointed LoRA a pick beside it showed (28 GiB).
    kb = load_knowledge()
    card = kb.gpus["a800-80gb"]
    w = Workload(model=kb.models["glm-4-9b"], task="train", context=4096)
    check = check_fit(w, card, 2, candidates=[])
    assert not check.fits
    lora = next(s for s in check.suggestions if s.kind == "lora")
    checkpointed = estimate_memory(replace(w, task="lora", gradient_checkpointing=True), 2, card).per_gpu_gib
    uncheckpointed = estimate_memory(replace(w, task="lora", gradient_checkpointing=False), 2, card).per_gpu_gib
    assert uncheckpointed > 2 * checkpointed
    assert lora.memory_per_gpu_gib == pytest.approx(checkpointed, abs=0.3)


def test_the_format_a_model_is_released_in_is_the_quantisation_offered_first() -> None:
    # QwQ-32B at 32k on 2× RTX 3090 with vLLM: GPTQ-Int8 squeezes in (22.2 of 22.4 GiB, no room for the cache)
    # but its makers publish AWQ only; the AWQ release is the one offered
    from rules.alternatives import released_by_makers

    kb = load_knowledge()
    model = kb.models["qwq-32b"]
    assert released_by_makers(model, "awq") and not released_by_makers(model, "gptq-int8")
    w = Workload(model=model, task="inference", precision="bf16", context=32768, batch=1, engine="vllm")
    check = check_fit(w, kb.gpus["rtx-3090"], 2)
    [quantise] = [s for s in check.suggestions if s.kind == "quantise"]
    assert quantise.quant == "awq" and quantise.count is None
