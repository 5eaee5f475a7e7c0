"""Each engine profile changes the memory figure the way its source says; expected values worked out by hand
on the toy 7B model (32 layers, hidden 4096, 32 KV heads of 128, vocabulary 32,000; 524,288 KV bytes per
token in 16-bit)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.schema import MLA
from rules import Workload, check_fit, estimate_memory
from rules import constants as C
from rules import weight_formats as WF
from rules.engine_profile import UnsupportedKVCache, mla_head_sizes, profile_for
from rules.types import ENGINES
from tests.rules._models import make_gpu, make_model

GIB = C.GIB
WEIGHTS = 7e9 * 2
KV_PER_TOKEN_16 = 524_288
PER_TOKEN_PREFILL = 4 * 11_008 + 14 * 4_096  # 101,376 B (PREFILL_BYTES_PER_INTERMEDIATE/HIDDEN)
OVERHEAD = C.INFERENCE_OVERHEAD_GIB * GIB + C.INFERENCE_OVERHEAD_FRACTION * WEIGHTS


def test_every_engine_id_has_a_profile() -> None:
    for engine in ENGINES:
        assert profile_for(Workload(model=make_model(), engine=engine)).id == engine


@pytest.mark.parametrize(("engine", "kv_cache", "elem"), [
    ("vllm", "fp8", 1.0), ("sglang", "fp8", 1.0), ("tensorrt-llm", "fp8", 1.0),
    ("lmdeploy", "int8", 1.0), ("lmdeploy", "int4", 0.5),
    ("llama.cpp", "int8", 34 / 32), ("llama.cpp", "int4", 18 / 32),
])
def test_kv_cache_precision_scales_the_kv_cache(engine: str, kv_cache: str, elem: float) -> None:
    # No card: the serving engines report what the job needs; 4,096 tokens × 32 layers × 2 × 4096 × elem.
    w = Workload(model=make_model(), engine=engine, context=4096, kv_cache=kv_cache)  # type: ignore[arg-type]
    est = estimate_memory(w, 1, None)
    expected = 4096 * 2 * 32 * 4096 * elem / GIB  # fp16 would be 2.0 GiB
    assert est.breakdown["kv_cache"] == pytest.approx(expected, abs=1e-3)


def test_an_engine_without_that_kv_type_names_the_ones_it_accepts() -> None:
    w = Workload(model=make_model(), engine="vllm", kv_cache="int4")
    with pytest.raises(UnsupportedKVCache, match="fp16, bf16, fp8"):
        estimate_memory(w)


LITE_MLA = dict(num_layers=27, hidden_size=2048, num_attention_heads=16, num_kv_heads=16, head_dim=None,
                attention="mla", mla=MLA(kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128))
"""DeepSeek-V2-Lite's attention: 27 layers of 16 heads, a 512 latent and a 64 RoPE key."""


@pytest.mark.parametrize(("engine", "version", "precision", "heads"), [
    ("transformers", None, "bf16", (192, 128)),   # K = nope + rope, V = v_head_dim
    ("vllm", None, "bf16", None),                  # MLA back end: the latent
    ("vllm", "0.6.3", "bf16", (256, 256)),         # padded to 256 per head
    ("vllm", "0.7.0", "bf16", (192, 192)),         # per head at the q/k head size
    ("vllm", "0.7.1", "bf16", None),               # MLA on an unquantised model
    ("vllm", "0.7.2", "fp8", None),                # ... and on FP8
    ("vllm", "0.7.2", "int4", (192, 192)),         # ... but not on AWQ/GPTQ: back to per head
    ("vllm", "0.7.3", "int4", None),               # from 0.7.3 whatever the format
    ("sglang", None, "bf16", None),
])
def test_engines_cache_latent_attention_their_own_way(engine: str, version: str | None, precision: str,
                                                      heads: tuple[int, int] | None) -> None:
    w = Workload(model=make_model(**LITE_MLA), engine=engine, engine_version=version,  # type: ignore[arg-type]
                 precision=precision)  # type: ignore[arg-type]
    assert mla_head_sizes(w, profile_for(w)) == heads


def test_transformers_sizes_deepseek_attention_per_head_and_says_so() -> None:
    # 4,096 tokens × 276,480 B = 1.0547 GiB in transformers; vLLM's latent: 4,096 × 31,104 B = 0.1187 GiB.
    model = make_model(**LITE_MLA)
    hf = estimate_memory(Workload(model=model, context=4096))
    assert hf.breakdown["kv_cache"] == pytest.approx(4096 * 276_480 / GIB, abs=1e-3)
    assert "mla-cache-per-head" in hf.notes
    served = estimate_memory(Workload(model=model, context=4096, engine="vllm"), 1, None)
    assert "mla-cache-per-head" not in served.notes
    assert served.breakdown["kv_cache"] == pytest.approx(4096 * 31_104 / GIB, abs=2e-3)


def test_old_transformers_keeps_fp32_logits_for_every_prompt_position() -> None:
    # transformers 4.38: 6 B × 32,000 vocab × 4,096 prompt tokens = 0.7324 GiB more than the last position.
    new = estimate_memory(Workload(model=make_model(), context=4096))
    old = estimate_memory(Workload(model=make_model(), context=4096, engine_version="4.38"))
    extra = 6 * 32_000 * (4096 - 1) / GIB
    assert old.breakdown["activations"] - new.breakdown["activations"] == pytest.approx(extra, abs=1e-3)
    assert "logits-all-positions" in old.notes
    assert estimate_memory(Workload(model=make_model(), context=4096, engine_version="4.46")).per_gpu_gib == \
        new.per_gpu_gib


def test_transformers_before_sdpa_materialises_the_attention_scores() -> None:
    # 4.35 (eager): + 6 B × 32 heads × 2,048² = 0.75 GiB on top of the 4.38 figure.
    sdpa = estimate_memory(Workload(model=make_model(), context=2048, engine_version="4.38"))
    eager = estimate_memory(Workload(model=make_model(), context=2048, engine_version="4.35"))
    assert eager.breakdown["activations"] - sdpa.breakdown["activations"] == \
        pytest.approx(6 * 32 * 2048**2 / GIB, abs=1e-3)


def test_vllm_fills_its_share_of_the_card_and_sglang_adds_activations_outside_it() -> None:
    gpu = make_gpu()  # 80 GB
    vllm = estimate_memory(Workload(model=make_model(), engine="vllm", context=4096, engine_version="0.33"), 1, gpu)
    # vLLM's share holds everything it allocates; its profile counts its own non-KV memory (no context term).
    assert vllm.per_gpu_gib == pytest.approx(0.92 * 80, abs=1e-3)  # gpu_memory_utilization 0.92 in 0.20-0.33
    sglang = estimate_memory(Workload(model=make_model(), engine="sglang", context=4096), 1, gpu)
    assert sglang.per_gpu_gib == pytest.approx(0.9 * 80 - C.CUDA_CONTEXT_GIB + sglang.breakdown["activations"],
                                               abs=2e-3)


def test_lmdeploy_gives_the_kv_pool_80_percent_of_what_is_free() -> None:
    # Free after weights, activations (8,192-token prefill chunk, min(4,096) here) and overhead, on 79.5 GiB.
    gpu = make_gpu()
    est = estimate_memory(Workload(model=make_model(), engine="lmdeploy", context=4096), 1, gpu)
    act = (PER_TOKEN_PREFILL * 4096 + 4 * 32_000) / GIB
    fixed = WEIGHTS / GIB + act + C.INFERENCE_OVERHEAD_GIB
    pool = 0.8 * (80 - C.CUDA_CONTEXT_GIB - fixed)
    assert est.breakdown["kv_cache"] == pytest.approx(pool, abs=1e-3)
    assert est.per_gpu_gib == pytest.approx(fixed + pool, abs=2e-3)


def test_lmdeploy_before_0_1_holds_only_the_sequences_in_flight() -> None:
    est = estimate_memory(Workload(model=make_model(), engine="lmdeploy", engine_version="0.0.3", context=4096),
                          1, make_gpu())
    assert est.breakdown["kv_cache"] == pytest.approx(2.0, abs=1e-3)


def test_turbomind_2_gives_half_the_card_to_kv_blocks_on_top_of_the_weights() -> None:
    est = estimate_memory(Workload(model=make_model(), engine="lmdeploy", engine_version="0.2.1", context=4096),
                          1, make_gpu())
    assert est.breakdown["kv_cache"] == pytest.approx(0.5 * 80, abs=1e-3)
    assert est.breakdown["weights"] == pytest.approx(WEIGHTS / GIB, abs=1e-3)


def test_tensorrt_llm_takes_90_percent_of_free_memory_for_kv() -> None:
    est = estimate_memory(Workload(model=make_model(), engine="tensorrt-llm", context=4096), 1, make_gpu())
    act = (PER_TOKEN_PREFILL * 4096 + 4 * 32_000) / GIB
    fixed = WEIGHTS / GIB + act + C.INFERENCE_OVERHEAD_GIB
    assert est.breakdown["kv_cache"] == pytest.approx(0.9 * (80 - C.CUDA_CONTEXT_GIB - fixed), abs=1e-3)


def test_llama_cpp_reserves_one_micro_batch_of_512_tokens_with_all_its_logits() -> None:
    # Its compute buffer is the larger of one layer over 512 tokens (101,376 × 512 = 51,904,512 B) and the fp32
    # logits of all 512 (512 × 32,000 × 4 = 65,536,000 B): ggml reuses the layer's memory for the output.
    est = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=8192))
    assert PER_TOKEN_PREFILL * 512 < 512 * 32_000 * 4
    assert est.breakdown["activations"] == pytest.approx(512 * 32_000 * 4 / GIB, abs=1e-4)
    # Four parallel sequences share the 512-token micro-batch.
    four = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=2048, batch=4))
    assert four.breakdown["activations"] == est.breakdown["activations"]


def test_llama_cpp_without_flash_attention_holds_a_layers_fp32_kq_over_the_whole_cache() -> None:
    # 32 heads × 512 micro-batch tokens × 8,192 cells × 4 B = 536,870,912 B of KQ, on top of the layer's own
    # 101,376 B/token × 512 = 51,904,512 B; larger than the 65,536,000 B of logits. Four slots of 2,048 share the
    # same 8,192 cells, so the buffer is the same.
    kq = 32 * 512 * 8192 * 4
    est = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=8192, flash_attention=False))
    assert est.breakdown["activations"] == pytest.approx((PER_TOKEN_PREFILL * 512 + kq) / GIB, abs=1e-4)
    four = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=2048, batch=4,
                                    flash_attention=False))
    assert four.breakdown["activations"] == pytest.approx(est.breakdown["activations"], abs=1e-6)
    # At 512 cells the KQ is 33,554,432 B; with the layer's 51,904,512 B it still outweighs the logits.
    short = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=512, flash_attention=False))
    assert short.breakdown["activations"] == pytest.approx((PER_TOKEN_PREFILL * 512 + 32 * 512 * 512 * 4) / GIB,
                                                           abs=1e-4)
    # With flash attention the 65,536,000 B of logits are the buffer, as before.
    flash = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=8192))
    assert flash.breakdown["activations"] == pytest.approx(512 * 32_000 * 4 / GIB, abs=1e-4)


def test_vllm_limit_is_its_share_of_the_card() -> None:
    # 26 GiB of weights on an 80 GB card: fits vLLM's 71.5 GiB, and the check compares with that limit.
    check = check_fit(Workload(model=make_model(params_b=13.0), engine="vllm", context=4096), make_gpu(), 1, [])
    assert check.fits


QLORA = dict(task="qlora", precision="int4", quant="nf4", context=8192, batch=1, gradient_checkpointing=True)


def test_unsloth_offloads_the_checkpoints_and_chunks_the_loss() -> None:
    # PEFT: recompute checkpointing keeps 2 B × 4096 × 8192 × 32 layers = 2 GiB of layer inputs, plus the larger
    # of the fp32 logits (8 B × 32,000 × 8,192 = 1.95 GiB) and the layer being recomputed with its LoRA dropout
    # copies ((18·4096 + 6·11008 + 3·(6·4096 + 11008)) × 8192 = 1.88 GiB). Unsloth keeps no inputs on the card,
    # chunks the loss, and with lora_dropout = 0 its recomputed layer is (18·4096 + 6·11008) × 8192 = 1.07 GiB.
    peft = estimate_memory(Workload(model=make_model(), **QLORA))  # type: ignore[arg-type]
    unsloth = estimate_memory(Workload(model=make_model(), engine="unsloth", **QLORA))  # type: ignore[arg-type]
    inputs = 2 * 4096 * 8192 * 32
    logits = C.LOGITS_BYTES_PER_VOCAB_TRAIN_FP32_HEAD * 32_000 * 8192
    layer = (18 * 4096 + 6 * 11008) * 8192
    dropout = 3 * (6 * 4096 + 11008) * 8192
    assert peft.breakdown["activations"] == pytest.approx((inputs + max(logits, layer + dropout)) / GIB, abs=1e-3)
    assert unsloth.breakdown["activations"] == pytest.approx(layer / GIB, abs=1e-3)
    # Unsloth leaves embeddings and lm_head 16-bit: 2 B × 2 × 32,000 × 4096 = 0.49 GiB less than PEFT's fp32 copy;
    # and it loads NF4 with double quantisation whatever is asked, which packs the body tighter.
    body = 7e9 - 2 * 32_000 * 4096
    dq_saving = body * (WF.QUANT_BYTES_PER_PARAM["nf4"] - WF.QUANT_BYTES_PER_PARAM["nf4-dq"]) / GIB
    assert peft.breakdown["weights"] - unsloth.breakdown["weights"] == pytest.approx(
        2 * 2 * 32_000 * 4096 / GIB + dq_saving, abs=1e-3)
    assert unsloth.chosen["quant"] == "nf4-dq"
    assert "offloaded-checkpointing" in unsloth.notes and "chunked-loss" in unsloth.notes


def test_unsloth_before_april_2024_recomputed_like_peft() -> None:
    old = estimate_memory(Workload(model=make_model(), engine="unsloth", engine_version="2023.12",
                                   **QLORA))  # type: ignore[arg-type]
    # Same recompute checkpointing and loss as PEFT; its loader already used double quantisation (2023.11).
    peft = estimate_memory(Workload(model=make_model(), **{**QLORA, "quant": "nf4-dq"}))  # type: ignore[arg-type]
    assert old.per_gpu_gib == pytest.approx(peft.per_gpu_gib)


def test_unsloth_from_april_to_november_2024_returned_the_logits_and_accelerate_upcast_them() -> None:
    # 2024.4-2024.11.6: offloaded checkpoints, but the forward returns every position's 16-bit logits (2 B) and
    # accelerate's convert_outputs_to_fp32 adds a 4-byte copy: 6 B × 32,000 × 8,192 = 1.46 GiB, above the
    # recomputed layer (1.07 GiB), so it is the peak. From 2024.11.7 (Cut Cross Entropy) no logits at all.
    may = estimate_memory(Workload(model=make_model(), engine="unsloth", engine_version="2024.5",
                                   **QLORA))  # type: ignore[arg-type]
    now = estimate_memory(Workload(model=make_model(), engine="unsloth", **QLORA))  # type: ignore[arg-type]
    assert may.breakdown["activations"] == pytest.approx(6 * 32_000 * 8192 / GIB, abs=1e-3)
    assert now.breakdown["activations"] == pytest.approx((18 * 4096 + 6 * 11008) * 8192 / GIB, abs=1e-3)
    assert "offloaded-checkpointing" in may.notes and "chunked-loss" not in may.notes


def test_unsloth_and_llama_factory_turn_checkpointing_on_by_default() -> None:
    small = make_model(params_b=0.5)  # below the 1B size where the rules would choose it themselves
    for engine in ("unsloth", "llama-factory"):
        est = estimate_memory(Workload(model=small, engine=engine, task="lora", context=2048))  # type: ignore[arg-type]
        assert est.chosen["gradient_checkpointing"] is True
    assert estimate_memory(Workload(model=small, task="lora", context=2048)).chosen["gradient_checkpointing"] is False


def test_fsdp_shards_like_zero3() -> None:
    est = estimate_memory(Workload(model=make_model(), engine="fsdp", task="train", context=2048), 8, make_gpu())
    assert est.chosen["zero_stage"] == 3
    # 16-bit weights / 8 = 1.63 GiB per card
    assert est.breakdown["weights"] == pytest.approx(WEIGHTS / 8 / GIB, rel=0.02)


@pytest.mark.parametrize(("stage", "weights", "gradients", "optimizer"), [
    # DeepSpeed's own accounting (estimate_zero2/zero3_model_states_mem_needs), P = 7e9 over N = 8 cards:
    (1, 2.0, 2.0 + 4 / 8, 12 / 8),  # 16-bit params and grads whole, fp32 grad partition 4P/N, Adam 12P/N
    (2, 2.0, 2.0 + 4 / 8, 12 / 8),  # the estimator counts stage 2 like stage 1: 4·P + 16·P/N
    (3, 2 / 8, 4 / 8, 12 / 8),  # stage 3: 18·P/N in all
])
def test_deepspeed_zero_stages_shard_the_model_states(stage: int, weights: float, gradients: float,
                                                      optimizer: float) -> None:
    est = estimate_memory(Workload(model=make_model(), engine="deepspeed", task="train", zero_stage=stage,
                                   context=2048, gradient_checkpointing=True), 8, make_gpu())
    assert est.chosen["zero_stage"] == stage
    assert est.breakdown["weights"] == pytest.approx(weights * 7e9 / GIB, rel=1e-3)
    assert est.breakdown["gradients"] == pytest.approx(gradients * 7e9 / GIB, rel=1e-3)
    assert est.breakdown["optimizer"] == pytest.approx(optimizer * 7e9 / GIB, rel=1e-3)


def test_llama_cpp_caches_every_token_of_a_model_whose_every_layer_slides() -> None:
    # A Mistral-7B-v0.1-like decoder (every layer slides over 4,096 tokens) at 32,768 tokens: 32 layers × 8 KV
    # heads × 128 × 2 (K, V) × 2 B = 128 KiB a token. transformers-style engines keep the window (0.5 GiB);
    # llama.cpp runs it as the llama architecture with a full cache (4 GiB).
    model = make_model(num_kv_heads=8, attention="gqa", sliding_window=4096, max_context=32768)
    windowed = estimate_memory(Workload(model=model, context=32768), 1)
    full = estimate_memory(Workload(model=model, engine="llama.cpp", context=32768), 1)
    per_token = 32 * 8 * 128 * 2 * 2
    assert windowed.breakdown["kv_cache"] == pytest.approx(per_token * 4096 / GIB, rel=1e-3)
    assert full.breakdown["kv_cache"] == pytest.approx(per_token * 32768 / GIB, rel=1e-3)


def test_unsloth_sets_expandable_segments_so_training_keeps_no_fragmentation_reserve() -> None:
    # Overhead = 1 GiB + TRAIN_OVERHEAD_FRACTION × resident weights under PyTorch's default allocator; Unsloth
    # (since 2024.3) runs with expandable_segments: the fraction goes, the constant and the workspace stay.
    w = Workload(model=make_model(), engine="unsloth", **QLORA)  # type: ignore[arg-type]
    now = estimate_memory(w)
    assert profile_for(w).allocator.kind == "pytorch-expandable"
    assert profile_for(replace(w, engine_version="2024.2")).allocator.kind == "pytorch-caching"
    # Expandable segments reuse one region for every dequantised weight: the workspace is the widest matrix,
    # 4096 × 11008 × 2 B (Unsloth's fast_dequantize frees each weight after its matmul).
    workspace = 4096 * 11008 * 2 / GIB
    assert now.breakdown["overhead"] == pytest.approx(C.TRAIN_OVERHEAD_GIB + workspace, abs=1e-3)


# A TensorRT engine's runtime and decoder buffers, per request slot: 20 B per vocabulary entry (fp32 logits and
# the decoder's workspaces), 40 B per position of max_seq_len and 64 KiB (knowledge/data/engines.yaml).
PER_SLOT_4096 = 20 * 32_000 + 40 * 4096 + 65_536  # 869,376 B on the toy model at 4,096 tokens


def test_tensorrt_engine_buffers_for_every_built_slot_come_before_the_kv_pool() -> None:
    w = Workload(model=make_model(), engine="tensorrt-llm", engine_version="0.16", context=4096)
    est = estimate_memory(w, 1, make_gpu())
    buffers = 2048 * PER_SLOT_4096 / GIB  # trtllm-build's default max_batch_size: 1.658 GiB
    assert est.chosen["max_batch_size"] == 2048
    assert est.chosen["batch_buffers_gib"] == pytest.approx(buffers, abs=1e-3)
    assert "tensorrt-llm-batch-buffers" in est.notes
    # The engine's activation memory is set aside at build time for max_num_tokens (8,192), not the prompt.
    act = (PER_TOKEN_PREFILL * 8192 + 4 * 32_000) / GIB
    assert est.breakdown["activations"] == pytest.approx(act, abs=1e-3)
    fixed = WEIGHTS / GIB + act + C.INFERENCE_OVERHEAD_GIB + buffers
    assert est.breakdown["overhead"] == pytest.approx(C.INFERENCE_OVERHEAD_GIB + buffers, abs=1e-3)
    assert est.breakdown["kv_cache"] == pytest.approx(0.9 * (80 - C.CUDA_CONTEXT_GIB - fixed), abs=1e-3)
    # An engine built for the batch it serves keeps that memory for KV blocks.
    small = estimate_memory(replace(w, max_num_seqs=16), 1, make_gpu())
    assert small.chosen["batch_buffers_gib"] == pytest.approx(16 * PER_SLOT_4096 / GIB, abs=1e-4)
    assert small.breakdown["kv_cache"] > est.breakdown["kv_cache"] + 0.9 * 1.6


def test_tensorrt_engine_buffers_cover_the_length_it_was_built_for() -> None:
    # trtllm-build deduces --max_seq_len from the model's config: a default build's slots hold 40 B for each of
    # the window's positions whatever the prompts, and the context sized still sets the KV cache needed.
    w = Workload(model=make_model(), engine="tensorrt-llm", engine_version="0.16", context=4096)
    built = estimate_memory(replace(w, engine_max_seq_len=32_768), 1, make_gpu())
    per_slot = 20 * 32_000 + 40 * 32_768 + 65_536  # 2,016,256 B
    assert built.chosen["batch_buffers_gib"] == pytest.approx(2048 * per_slot / GIB, abs=1e-3)  # 3.846 GiB
    assert built.chosen["max_seq_len"] == 32_768
    assert "max_seq_len" not in estimate_memory(w, 1, make_gpu()).chosen  # built for the context: nothing to say
    assert built.required_per_gpu_gib is not None and built.required_per_gpu_gib == pytest.approx(
        estimate_memory(w, 1, make_gpu()).required_per_gpu_gib + 2048 * 40 * (32_768 - 4096) / GIB, abs=1e-3)


def test_a_tensorrt_engine_that_does_not_fit_is_offered_a_build_for_its_load() -> None:
    # 2048 default slots × 40 B × 131,072 positions = 10 GiB of buffers on top of 13 GiB of weights does not fit
    # a 24 GB card; rebuilt for the context served (and, if need be, fewer slots) it does.
    w = Workload(model=make_model(max_context=131_072), engine="tensorrt-llm", engine_version="0.16", context=4096,
                 engine_max_seq_len=131_072)
    card = make_gpu(memory_gb=24.0)
    report = check_fit(w, card, 1)
    assert not report.fits
    build = next(s for s in report.suggestions if s.kind == "engine-build")
    assert build.context == 4096 and build.max_num_seqs is not None and build.max_num_seqs <= 2048
    rebuilt = replace(w, engine_max_seq_len=None, max_num_seqs=build.max_num_seqs)
    assert check_fit(rebuilt, card, 1).fits


def test_tensorrt_engine_buffers_reproduce_a_logged_start_up() -> None:
    # TensorRT-LLM issue 1188: Qwen2.5-Coder-0.5B (vocabulary 151,936), default 2048 slots, max_seq_len 32,768
    # logged 2.66 GiB of runtime buffers and 5.76 GiB of decoder buffers.
    w = Workload(model=make_model(vocab_size=151_936), engine="tensorrt-llm", engine_version="0.14", context=32_768)
    est = estimate_memory(w, 1, make_gpu())
    assert est.chosen["batch_buffers_gib"] == pytest.approx(2.66 + 5.76, abs=0.01)


def test_tensorrt_llm_from_1_0_runs_the_pytorch_backend_without_engine_buffers() -> None:
    for version in ("1.0.0rc1", None):
        est = estimate_memory(Workload(model=make_model(), engine="tensorrt-llm", engine_version=version,
                                       context=4096), 1, make_gpu())
        assert "batch_buffers_gib" not in est.chosen
        assert "tensorrt-llm-batch-buffers-other-versions" in est.notes


def test_llama_cpp_quantises_its_kv_cache_only_with_flash_attention() -> None:
    # q8_0 is 34 B per 32 values (1.0625 B); with -fa off llama.cpp keeps (Ollama: ignores the type for) f16.
    on = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=4096, kv_cache="int8"))
    off = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=4096, kv_cache="int8",
                                   flash_attention=False))
    assert on.breakdown["kv_cache"] == pytest.approx(4096 * KV_PER_TOKEN_16 * 1.0625 / 2 / GIB, abs=1e-4)
    assert off.breakdown["kv_cache"] == pytest.approx(4096 * KV_PER_TOKEN_16 / GIB, abs=1e-4)
    assert "kv-cache-needs-flash-attention" in off.notes and "kv-cache-int8" in on.notes
    # vLLM's fp8 cache does not depend on the attention switch.
    vllm = estimate_memory(Workload(model=make_model(), engine="vllm", context=4096, kv_cache="fp8",
                                    flash_attention=False), 1, make_gpu())
    assert "kv-cache-needs-flash-attention" not in vllm.notes


def test_a_stated_micro_batch_replaces_the_engines_prefill_chunk() -> None:
    # llama.cpp -ub 2048: its compute buffer holds 2,048 tokens' fp32 logits (2048 × 32,000 × 4 B), four times
    # the default 512's; transformers prefills a whole prompt at once and has no chunk to change.
    est = estimate_memory(Workload(model=make_model(), engine="llama.cpp", context=8192, prefill_chunk=2048))
    assert est.breakdown["activations"] == pytest.approx(2048 * 32_000 * 4 / GIB, abs=1e-4)
    plain = Workload(model=make_model(), context=4096)
    assert (estimate_memory(replace(plain, prefill_chunk=512)).breakdown["activations"]
            == estimate_memory(plain).breakdown["activations"])


def test_vllms_max_num_batched_tokens_sizes_its_profiled_forward_pass() -> None:
    w = Workload(model=make_model(), engine="vllm", context=4096)
    base = estimate_memory(w, 1, make_gpu())
    big = estimate_memory(replace(w, prefill_chunk=32_768), 1, make_gpu())
    # The forward pass over 32,768 tokens outgrows the sampler warm-up it used to be under: per token, the
    # profile's bytes per intermediate and per hidden feature (11,008 and 4,096 on the toy model).
    run = profile_for(w).profile_run
    assert run is not None
    per_token = run.forward_bytes_per_intermediate * 11_008 + run.forward_bytes_per_hidden * 4096
    assert big.breakdown["activations"] == pytest.approx(32_768 * per_token / GIB, abs=0.01)
    assert big.breakdown["activations"] > base.breakdown["activations"]


def test_llama_cpps_tensor_split_assigns_layers_as_its_loader_does() -> None:
    from rules.layer_split import split_layer_counts

    # llama.cpp issue 11200: Qwen2.5-Coder-32B (64 layers) with -ts 10,6 logged 2788 MiB of its 4352 MiB KV cache
    # on CUDA0, 41 layers' worth (68 MiB each): block i goes to the first card whose cumulative share exceeds
    # i / 65, the output layer counting as block 64.
    assert split_layer_counts((10, 6), 64) == ([41, 23], 1)
    assert split_layer_counts((1, 1), 32) == ([17, 15], 1)
    # The toy model (32 layers) split 3:1 over two cards: card 0 takes 25 blocks (i / 33 < 0.75), the output
    # layer goes to card 1; the figures are card 0's.
    w = Workload(model=make_model(), engine="llama.cpp", context=4096, quant="gguf-q8_0", precision="int8")
    even = estimate_memory(w, 2)
    split = estimate_memory(replace(w, layer_split=(3.0, 1.0)), 2)
    kv_total = 4096 * KV_PER_TOKEN_16 / GIB
    assert split.breakdown["kv_cache"] == pytest.approx(kv_total * 25 / 32, abs=1e-3)
    assert even.breakdown["kv_cache"] == pytest.approx(kv_total / 2, abs=1e-3)
    assert "uneven-layer-split" in split.notes and split.per_gpu_gib > even.per_gpu_gib
    assert split.total_gib == pytest.approx(even.total_gib, abs=1e-3)  # the same job, shared differently


def test_a_kv_pool_short_of_the_sequences_asked_does_not_fit_though_the_card_holds_the_job() -> None:
    # 28 sequences of 4,096 tokens need 28 × 2 GiB of KV; with the 14.31 GiB of weights, activations and overhead
    # that is 70.31 GiB, inside the card's 79.5. LMDeploy's pool is 0.8 × (79.5 − 14.31) = 52.15 GiB: 26 of them.
    gpu = make_gpu()
    w = Workload(model=make_model(), engine="lmdeploy", context=4096, batch=28)
    check = check_fit(w, gpu, 1, candidates=[gpu])
    assert check.memory_per_gpu_gib == pytest.approx(70.31, abs=0.01) and check.limit_gib == pytest.approx(79.5)
    assert not check.fits
    assert check.kv_pool_gib == pytest.approx(52.15, abs=0.01) and check.sequences_held == 26
    held = check_fit(replace(w, batch=26), gpu, 1, candidates=[gpu])
    assert held.fits and held.sequences_held is None and held.kv_pool_gib is None
    # the smaller batch offered is the count the pool holds, not half the users (14)
    smaller = [s for s in check.suggestions if s.kind == "smaller-batch"]
    assert [s.batch for s in smaller] == [26]


def test_a_pool_short_verdict_is_only_for_a_job_the_card_holds() -> None:
    # 40 sequences need 94.3 GiB: over the card, an ordinary "does not fit", not a queue.
    gpu = make_gpu()
    check = check_fit(Workload(model=make_model(), engine="lmdeploy", context=4096, batch=40), gpu, 1,
                      candidates=[gpu])
    assert not check.fits and check.memory_per_gpu_gib > check.limit_gib and check.sequences_held is None
