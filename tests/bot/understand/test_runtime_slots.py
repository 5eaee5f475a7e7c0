"""Runtime slots: engine (English and Chinese), engine version, KV-cache precision, attention."""

from __future__ import annotations

import pytest

from bot.errors import BadRequestError
from bot.service import ask
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "engine"), [
    ("QLoRA Mistral-7B with unsloth", "unsloth"),
    ("用vLLM部署Qwen2.5-7B", "vllm"),
    ("serve Llama 3 8B with lmdeploy", "lmdeploy"),
    ("Qwen2.5-7B on ollama", "llama.cpp"),
    ("deploy Llama-3.1-70B with SGLang", "sglang"),
    ("Llama-3.1-8B on TensorRT-LLM", "tensorrt-llm"),
    ("LoRA Qwen2.5-7B with LLaMA-Factory", "llama-factory"),
    ("QLoRA Llama-3-8B with LLaMA-Factory --use_unsloth at 64k", "unsloth"),
    ("llamafactory + unsloth 微调 Qwen2.5-7B", "unsloth"),
])
def test_engine_names(text: str, engine: str) -> None:
    assert parse(text, KB).engine == engine


@pytest.mark.parametrize(("text", "version"), [
    ("Llama-2-13B with transformers 4.38", "4.38"),
    ("Qwen2.5-7B on vllm 0.6", "0.6"),
    ("vLLM v0.8.5, Llama 3 8B", "0.8.5"),
])
def test_engine_version_is_not_a_size_or_count(text: str, version: str) -> None:
    q = parse(text, KB)
    assert q.engine_version == version
    assert q.gpu_count is None and q.context is None and q.params_b is None


@pytest.mark.parametrize(("text", "kv", "precision"), [
    ("Qwen2.5-14B with vLLM, fp8 KV cache", "fp8", None),
    ("vllm kv_cache_dtype=fp8 for Llama 3 8B", "fp8", None),
    ("Llama 3 8B int4, KV int8, lmdeploy", "int8", "int4"),
    ("Qwen2.5-7B 用 ollama，KV cache量化", "kv-quantised", None),
    # llama.cpp's and Ollama's own switches; the weights' GGUF type is a separate slot.
    # A type right after the model's name, then a cache word: the cache's, not the weights' (a checkpoint name
    # such as "Qwen3-32B-FP8" keeps its own).
    ("SGLang Qwen3-32B fp8 kv cache, 64 concurrent", "fp8", None),
    ("Qwen3-32B-FP8 with fp8 kv cache", "fp8", "fp8"),
    ("llama.cpp Qwen2.5-32B Q4_K_M -fa -ctk q8_0 -ctv q8_0", "int8", "int4"),
    ("llama-server --cache-type-k q4_0 --cache-type-v q4_0 Llama 3 8B", "int4", None),
    ("ollama llama3.1 8b OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q4_0", "int4", None),
])
def test_kv_cache_precision_is_its_own_slot(text: str, kv: str, precision: str | None) -> None:
    q = parse(text, KB)
    assert q.kv_cache == kv
    assert q.precision == precision  # "fp8 KV cache" does not make the weights fp8


@pytest.mark.parametrize(("text", "engine", "backend"), [
    ("Triton TensorRT-LLM backend Llama-3-8B on an L4", "tensorrt-llm", "tensorrt"),
    ("trtllm-build Qwen2.5-7B --max_batch_size 64", "tensorrt-llm", "tensorrt"),
    ("Llama-3-8B on Triton, one L4", "tensorrt-llm", "tensorrt"),  # Triton alone: its TensorRT-LLM backend
    ("TensorRT-LLM 0.20 with the pytorch backend, Llama 3 8B", "tensorrt-llm", "pytorch"),
    ("Triton server with vllm, Llama 3 8B", "vllm", None),  # Triton's vLLM backend is vLLM
    ("TensorRT-LLM Llama 3 8B", "tensorrt-llm", None),
])
def test_tensorrt_llms_backend_is_read(text: str, engine: str, backend: str | None) -> None:
    q = parse(text, KB)
    assert q.engine == engine and q.engine_backend == backend


def test_a_named_tensorrt_engine_is_sized_with_its_buffers_on_any_release() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "Triton TensorRT-LLM backend Llama-3-8B on an L4"})
    assert answer.query.engine_backend == "tensorrt"
    assert answer.estimate is not None and answer.estimate.batch_buffers_gb is not None
    assert "TensorRT-LLM · TensorRT engine" in render_text(answer, kb=KB)
    flagged = ask({"text": "Llama 3 8B on an L4", "engine": "tensorrt-llm", "engine_backend": "tensorrt"})
    assert flagged.estimate is not None and flagged.estimate.batch_buffers_gb == answer.estimate.batch_buffers_gb
    with pytest.raises(BadRequestError, match="engine_backend must be one of v1, v0, pytorch, tensorrt"):
        ask({"text": "Llama 3 8B", "engine": "tensorrt-llm", "engine_backend": "onnx"})


@pytest.mark.parametrize(("text", "chunk"), [
    ("llama.cpp Qwen2.5-32B Q4_K_M -ub 2048 -b 2048 32k", 2048),
    ("llama-server --ubatch-size 1024 Llama 3 8B", 1024),
    ("vllm serve Llama-3.1-8B --max-num-batched-tokens 16384 on an L4", 16384),
    ("sglang --chunked-prefill-size 4096 Qwen2.5-7B", 4096),
])
def test_tokens_per_forward_pass_are_read_and_are_not_the_context(text: str, chunk: int) -> None:
    q = parse(text, KB)
    assert q.prefill_chunk == chunk
    assert q.context != chunk and q.batch is None


def test_the_read_back_names_a_forward_pass_only_where_it_changes_the_figures() -> None:
    from bot.reply.render import render_text

    assert "1,024 tokens per forward pass" in render_text(ask({"text": "llama.cpp -ub 1024 Qwen2.5-7B Q4_K_M"}), kb=KB)
    # SGLang's chunked prefill is not part of its sizing: reading it back would claim an effect.
    assert "per forward pass" not in render_text(ask({"text": "sglang --chunked-prefill-size 4096 Qwen2.5-7B"}),
                                                 kb=KB)


def test_llama_cpps_tensor_split_is_read_with_its_card_count() -> None:
    q = parse("llama.cpp Qwen2.5-Coder-32B Q8_0 32k on RTX 3090s -ts 10,6", KB)
    assert q.layer_split == [10.0, 6.0] and q.gpu_count == 2
    assert parse("llama-server --tensor-split 3,1,1 Llama 3 70B Q4_K_M", KB).gpu_count == 3
    answer = ask({"text": "Llama 3.1 70B Q4_K_M llama.cpp 8k", "gpu": "rtx-3090", "gpus": 2, "layer_split": "3,1"})
    assert answer.query.layer_split == [3.0, 1.0]
    assert answer.estimate is not None and "uneven-layer-split" in answer.estimate.notes
    with pytest.raises(BadRequestError, match="layer_split must give 2 to 8 positive shares"):
        ask({"text": "Llama 3.1 70B", "layer_split": "5"})


def test_a_quantised_k_alone_keeps_the_cache_at_the_16_bit_v() -> None:
    # llama.cpp types K and V separately; an unstated one stays f16, which sets the cache's size.
    assert parse("llama.cpp Llama 3 8B -ctk q8_0", KB).kv_cache is None
    assert parse("llama.cpp Llama 3 8B -ctk q4_0 -ctv q8_0", KB).kv_cache == "int8"


def test_attention_implementation() -> None:
    assert parse("Llama-2-13B with transformers, no flash attention", KB).flash_attention is False
    assert parse("Llama-2-13B, attn_implementation=eager", KB).flash_attention is False
    assert parse("Llama-2-13B with flash-attn 2", KB).flash_attention is True
    # llama.cpp / Ollama spell it as a switch: "--flash-attn off" must not read as flash attention on.
    assert parse("Llama-3.1-8B Q4_K_M on llama.cpp -fa off, 32k", KB).flash_attention is False
    assert parse("llama.cpp --flash-attn off Llama-3.1-8B Q4_K_M", KB).flash_attention is False
    assert parse("ollama llama3.1 8b, flash attention disabled", KB).flash_attention is False
    assert parse("Qwen2.5-7B 用 llama.cpp，关闭flash attention", KB).flash_attention is False
    assert parse("Llama-3.1-8B Q4_K_M llama.cpp --flash-attn on", KB).flash_attention is True
    assert parse("Llama-3.1-8B Q4_K_M llama.cpp -fa on", KB).flash_attention is True
    assert parse("llama-server -fa -m Llama-3.1-8B-Q4_K_M.gguf", KB).flash_attention is True
    assert parse("ollama llama3.1 8b OLLAMA_FLASH_ATTENTION=1", KB).flash_attention is True
    assert parse("ollama llama3.1 8b OLLAMA_FLASH_ATTENTION=false", KB).flash_attention is False


def test_flags_and_json_keys() -> None:
    answer = ask({"text": "Llama 3.1 8B inference", "engine": "vllm", "kv_cache": "fp8", "engine_version": "0.6.3"})
    assert answer.query.kv_cache == "fp8" and answer.query.engine_version == "0.6.3"
    assert ask({"text": "Llama 3.1 8B", "engine": "ollama"}).query.engine == "llama.cpp"
    with pytest.raises(BadRequestError, match="fp16, bf16, fp8, int8, int4"):
        ask({"text": "Llama 3.1 8B", "kv_cache": "fp6"})
    with pytest.raises(BadRequestError, match="version number"):
        ask({"text": "Llama 3.1 8B", "engine_version": "latest"})


def test_fp8_kv_halves_the_vllm_kv_need() -> None:
    # Qwen2.5-14B: 48 layers × 8 KV heads × 128 × 2 (K, V) = 98,304 values a token; 64 × 4,096 tokens.
    base = ask({"text": "serve Qwen2.5-14B with vLLM, 64 users at 4k"}).estimate
    fp8 = ask({"text": "serve Qwen2.5-14B with vLLM, fp8 KV cache, 64 users at 4k"}).estimate
    assert base is not None and fp8 is not None
    kv16 = 98_304 * 2 * 64 * 4096 / 2**30  # over all the cards: tensor parallelism divides the KV heads
    assert base.breakdown.kv_cache * base.gpu_count == pytest.approx(kv16, rel=0.02)
    assert fp8.breakdown.kv_cache * fp8.gpu_count == pytest.approx(kv16 / 2, rel=0.02)


def test_an_engine_without_that_kv_type_says_which_it_has() -> None:
    answer = ask({"text": "Qwen2.5-7B with transformers, fp8 kv cache"})
    assert answer.error == "kv-cache-unsupported" and answer.understood["accepted"] == ["bf16", "fp16"]


def test_unsloth_reaches_long_contexts_on_24gb() -> None:
    answer = ask({"text": "QLoRA Mistral-7B with Unsloth at 32k context on a 24GB card"})
    assert answer.query.engine == "unsloth" and answer.check is not None and answer.check.fits


@pytest.mark.parametrize(("text", "expected"), [
    ("torchtune full fine-tune Llama-3.2-3B with activation offloading", {"activation_offloading"}),
    ("full FT Llama 3 8B, offload activations to CPU", {"activation_offloading"}),
    ("torchtune Llama-3.1-8B full, optimizer_in_bwd, 1 card", {"optimizer_in_backward"}),
    ("fuse the optimizer step into backward for Qwen2.5-7B", {"optimizer_in_backward"}),
    ("LoRA Llama 3.1 8B with chunked cross entropy and torch.compile", {"chunked_loss", "compiled"}),
    ("torchtune LoRA Qwen2.5-7B, compile: true, CEWithChunkedOutputLoss", {"chunked_loss", "compiled"}),
    ("用torchtune全量微调Llama-3.2-3B，激活卸载，分块交叉熵", {"activation_offloading", "chunked_loss"}),
])
def test_training_techniques_are_read(text: str, expected: set[str]) -> None:
    q = parse(text, KB)
    techniques = ("activation_offloading", "optimizer_in_backward", "chunked_loss", "compiled")
    assert {t for t in techniques if getattr(q, t)} == expected


@pytest.mark.parametrize("text", [
    "compile a list of GPUs for Llama 3 8B inference",
    "full fine-tune Qwen2.5-7B with ZeRO-3 and optimizer offload",
    "LoRA Llama 3 8B with gradient checkpointing",
])
def test_other_words_are_not_training_techniques(text: str) -> None:
    q = parse(text, KB)
    assert not (q.activation_offloading or q.optimizer_in_backward or q.chunked_loss or q.compiled)


def test_training_techniques_reach_the_sizing_and_the_read_back() -> None:
    # torchtune 3B full fine-tune at 4,096 tokens: the optimizer step in backward keeps one tensor's gradients
    # (the 128,256 × 3,072 embedding, 0.73 GiB) instead of all 6.0 GiB; activation offloading drops the layer inputs.
    # (an optimizer named: torchtune's single-device configs otherwise step in backward by default)
    plain = ask({"text": "torchtune full fine-tune Llama-3.2-3B on an A100 40GB with AdamW"})
    tuned = ask({"text": "torchtune full fine-tune Llama-3.2-3B on an A100 40GB with activation offloading, "
                         "optimizer in backward and torch.compile"})
    assert plain.estimate is not None and tuned.estimate is not None
    assert plain.estimate.breakdown.gradients == pytest.approx(5.98, abs=0.02)
    assert tuned.estimate.breakdown.gradients == pytest.approx(128_256 * 3072 * 2 / 2**30, abs=0.02)
    assert tuned.estimate.breakdown.activations < plain.estimate.breakdown.activations
    assert {"activation_offloading", "optimizer_in_backward", "compiled"} <= set(tuned.understood)
    json_keys = ask({"text": "torchtune full fine-tune Llama-3.2-3B on an A100 40GB", "optimizer_in_backward": True})
    assert json_keys.estimate is not None and json_keys.estimate.breakdown.gradients < 1.0


@pytest.mark.parametrize(("text", "engine", "stage"), [
    ("FSDP QLoRA Llama-3-70B on 2x 3090", "fsdp", None),
    ("full fine-tune Qwen2.5-7B with fully sharded data parallel on 4 A100", "fsdp", None),
    ("DeepSpeed ZeRO-3 full fine-tune Qwen2.5-14B on 8 A100 40GB", "deepspeed", 3),
    ("zero2 LoRA Llama 3 8B on 2 4090", None, 2),
    ("fsdp_qlora Llama-2-70B on 2x 3090", "fsdp-qlora", None),
    ("Answer.AI's FSDP+QLoRA script, llama 3 70b, two 4090s", "fsdp-qlora", None),
])
def test_fsdp_is_an_engine_and_zero_a_stage(text: str, engine: str | None, stage: int | None) -> None:
    q = parse(text, KB)
    assert (q.engine, q.zero_stage) == (engine, stage)


@pytest.mark.parametrize(("text", "offload", "activations"), [
    ("8张A800全参微调Qwen2.5-72B，deepspeed zero3 offload", "optimizer", None),
    ("full fine-tune Llama 3 8B with ZeRO-2 offload_optimizer on 2 4090", "optimizer", None),
    ("full fine-tune Qwen2.5-7B with CPU offload on one A100", "optimizer", None),
    ("ZeRO-3 offload_param full fine-tune Llama-3-70B on 8x A100 80GB", "all", None),
    ("full fine-tune Llama-3-70B with ZeRO-Infinity on 8 H100", "all", None),
    ("8张3090用deepspeed zero3参数卸载全参微调Llama-3-8B", "all", None),
    ("torchtune full fine-tune Llama-3.2-3B with activation offloading", None, True),
    ("llama.cpp DeepSeek-R1 Q2_K on 4x 4090 with CPU offload", None, None),  # inference: layers, not an optimizer
])
def test_optimizer_offload_is_read_for_training_apart_from_activation_offloading(
        text: str, offload: str | None, activations: bool | None) -> None:
    q = parse(text, KB)
    assert (q.offload, q.activation_offloading) == (offload, activations)


def test_optimizer_offload_moves_the_states_off_the_cards() -> None:
    kept = ask({"text": "8张A800全参微调Qwen2.5-72B，deepspeed zero3"})
    offloaded = ask({"text": "8张A800全参微调Qwen2.5-72B，deepspeed zero3 offload"})
    assert kept.check is not None and offloaded.check is not None
    assert not kept.check.fits and offloaded.check.fits
    assert offloaded.estimate is not None and offloaded.estimate.breakdown.optimizer == 0.0


def test_offload_says_how_much_host_ram_it_needs() -> None:
    from bot.reply.render import render_text

    said = ask({"text": "full fine-tune Qwen2.5-7B with CPU offload on one A100 80GB"})
    assert said.estimate is not None and said.estimate.host_ram_gb is not None
    assert said.estimate.host_ram_gb == pytest.approx(7.62e9 * 24 / 2**30, rel=0.02)
    assert "Host RAM for the offloaded state" in render_text(said, kb=KB)


def test_a_long_context_that_does_not_fit_is_told_the_engines_kv_cache_flag() -> None:
    from bot.reply.render import render_text

    said = ask({"text": "Llama-3.1-8B Q4_K_M on ollama with 32k context on an 8GB card"})
    assert said.check is not None and not said.check.fits
    assert any(s.kind == "kv-cache" and s.kv_cache == "int8" for s in said.check.suggestions)
    text = render_text(said, kb=KB)
    assert ("KV cache in INT8 (-fa on -ctk q8_0 -ctv q8_0; "
            "Ollama: OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0)") in text


def test_ollama_runs_flash_attention_only_for_the_models_it_enables_it_for() -> None:
    from bot.reply.render import render_text

    # Llama 3.1 8B at 32k under Ollama: flash attention stays off, so each layer's fp32 KQ over the cache,
    # 32 heads × 512 × 32,768 × 4 B = 2 GiB, is the compute buffer; llama.cpp itself (auto) and Qwen3 under
    # Ollama (enabled for that architecture) do not hold it.
    ollama = ask({"text": "Llama-3.1-8B on ollama with 32k context"})
    llama_cpp = ask({"text": "Llama-3.1-8B on llama.cpp with 32k context"})
    assert ollama.estimate is not None and llama_cpp.estimate is not None
    kq = 32 * 512 * 32768 * 4 / 2**30
    logits = 512 * 128256 * 4 / 2**30  # llama.cpp's buffer with flash attention: one micro-batch's logits
    assert llama_cpp.estimate.breakdown.activations == pytest.approx(logits, abs=0.01)
    assert kq < ollama.estimate.breakdown.activations < kq + 0.1  # the KQ plus one layer's own tensors
    assert any(a.field == "flash_attention" and a.reason == "ollama-default" for a in ollama.assumptions)
    assert "flash attention off (Ollama's default for this model; OLLAMA_FLASH_ATTENTION=1 turns it on)" in (
        render_text(ollama, kb=KB))
    qwen3 = ask({"text": "Qwen3-8B on ollama with 32k context"})
    assert not any(a.field == "flash_attention" for a in qwen3.assumptions)
    stated = ask({"text": "Llama-3.1-8B on ollama with flash attention, 32k context"})
    assert not any(a.field == "flash_attention" for a in stated.assumptions)
    assert stated.estimate is not None
    assert stated.estimate.breakdown.activations == llama_cpp.estimate.breakdown.activations
    flag = ask({"text": "Llama-3.1-8B with 32k context", "engine": "ollama"})
    assert any(a.reason == "ollama-default" for a in flag.assumptions)
    assert not any(a.reason == "ollama-default"
                   for a in ask({"text": "Llama-3.1-8B on ollama, 32k", "engine": "vllm"}).assumptions)


def test_eager_attention_and_an_old_release_are_told_the_switch_that_would_fit() -> None:
    from bot.reply.render import render_text

    eager = ask({"text": "Qwen2-7B inference with transformers, no flash attention, 16k prompt on an A100 40GB"})
    assert eager.check is not None and not eager.check.fits
    assert eager.check.suggestions[0].kind == "flash-attention"
    assert 'turn on flash attention (attn_implementation="sdpa" or "flash_attention_2")' in render_text(eager, kb=KB)
    old = ask({"text": "Qwen2-7B inference with transformers 4.38, 30k prompt on an A100 40GB"})
    assert old.check is not None and not old.check.fits
    assert "a current transformers release instead of 4.38" in render_text(old, kb=KB)
    zh = ask({"text": "Qwen2-7B 用 transformers 4.38 推理，30k 上下文，一张 A100 40GB"})
    assert "改用当前版本的 transformers（而非 4.38）" in render_text(zh, kb=KB)
    both = ask({"text": "Qwen-7B with transformers 4.38, no flash attention, 8k context on a 4090"})
    assert both.check is not None and not both.check.fits
    text = render_text(both, kb=KB)
    assert ("a current transformers release instead of 4.38, with flash attention on "
            '(attn_implementation="sdpa" or "flash_attention_2")') in text
    assert "16×" not in text and "8× GeForce" not in text  # more cards do not divide eager attention's scores


def test_a_full_fine_tune_that_does_not_fit_is_told_what_offloading_would_need() -> None:
    from bot.reply.render import render_text

    said = ask({"text": "full fine-tune Llama-3-8B on one RTX 4090"})
    text = render_text(said, kb=KB)
    assert said.check is not None and not said.check.fits
    [offload] = [s for s in said.check.suggestions if s.kind == "offload-optimizer"]
    assert offload.host_ram_gb is not None and f"≈ {offload.host_ram_gb:,.0f} GiB host RAM" in text
    assert "offload the optimizer states to CPU (ZeRO-Offload" in text


@pytest.mark.parametrize(("text", "per_user"), [
    ("cheapest way to serve Llama 3 70B at 100 tokens/s", 100.0),
    ("Llama 3 70B 速度达到 30 tokens/s", 30.0),
    ("serve Llama 3 70B at 2000 tokens/s in total", None),
    ("Llama 3 8B decode 50 tok/s on 4090", None),
])
def test_a_bare_speed_target_is_read_as_per_user(text: str, per_user: float | None) -> None:
    assert parse(text, KB).tokens_per_s_per_user == per_user


def test_serving_targets_are_read_back() -> None:
    from bot.reply.render import render_text

    said = ask({"text": "serve Llama 3 70B at 30 tok/s per user, 10 qps, first token under 500 ms"})
    read_as = next(line for line in render_text(said, kb=KB).splitlines() if line.startswith("I read this as"))
    assert "10 requests/s" in read_as and "30 tok/s per user" in read_as and "first token within 0.5 s" in read_as
    training = ask({"text": "train Llama 3 8B at 5000 tokens/s for 1B tokens"})
    assert "tokens_per_s_per_user" not in training.understood


@pytest.mark.parametrize(("text", "count", "context"), [
    ("vllm Qwen2.5-72B tp=4 on A100 80GB", 4, None),
    ("vllm serve Qwen2.5-72B --tensor-parallel-size 4 on H100", 4, None),
    ("sglang --tp 8 DeepSeek-V3 H200", 8, None),
    ("张量并行 4 部署 Qwen2.5-72B", 4, None),
    ("Qwen2.5-Coder-32B vllm tp=2 on 2 4090 max-model-len 16384", 2, 16384),
    ("vllm serve Qwen2.5-7B --max-model-len=32768", None, 32768),
    ("Llama 3 8B on 4 A100 with tp 2", 4, None),  # an explicit count wins over the TP degree
])
def test_parallel_degree_and_engine_flags(text: str, count: int | None, context: int | None) -> None:
    q = parse(text, KB)
    assert (q.gpu_count, q.context) == (count, context)


@pytest.mark.parametrize(("text", "task"), [
    ("GRPO Qwen2.5-7B on 8 H100", "train"),
    ("PPO Llama 3 8B LoRA on 1 A100", "lora"),
    ("用强化学习训练 Qwen2.5-7B 需要几张卡", "train"),
])
def test_preference_and_rl_training_is_training_and_says_what_it_leaves_out(text: str, task: str) -> None:
    said = ask({"text": text})
    assert said.query.task == task
    assert any(a.reason == "preference-as-sft" for a in said.assumptions)
    plain = ask({"text": "LoRA Llama 3 8B on 1 A100"})
    assert not any(a.reason == "preference-as-sft" for a in plain.assumptions)


def test_dpo_is_read_and_sized_with_its_pairs_and_reference() -> None:
    lora = ask({"text": "DPO Llama 3 8B LoRA on 1 A100"})
    assert lora.understood.get("preference_pairs") is True and lora.query.task == "lora"
    assert not any(a.reason == "preference-as-sft" for a in lora.assumptions)
    full = ask({"text": "full DPO Qwen2.5-7B on 8 A100 80GB with zero3"})
    sft = ask({"text": "full fine-tune Qwen2.5-7B on 8 A100 80GB with zero3"})
    assert full.estimate is not None and sft.estimate is not None
    assert "dpo-reference" in full.estimate.notes
    # The reference copy: 2 B × 7.62e9 parameters sharded over 8 cards (ZeRO-3) = 1.77 GiB more weights per card.
    assert full.estimate.breakdown.weights - sft.estimate.breakdown.weights == pytest.approx(
        2 * 7.62e9 / 8 / 2**30, abs=0.05)


@pytest.mark.parametrize(("text", "share"), [
    ("serve Qwen2.5-7B with vLLM gpu_memory_utilization 0.8 on an L4", 0.8),
    ("vllm serve Llama 3 8B --gpu-memory-utilization=0.95 on 2 A10s", 0.95),
    ("Qwen2.5-7B 用SGLang部署 mem_fraction_static=0.7", 0.7),
    ("Llama 3 8B on vLLM, gpu memory utilization 85%", 0.85),
])
def test_the_engine_memory_share_is_its_own_slot(text: str, share: float) -> None:
    q = parse(text, KB)
    assert q.memory_fraction == pytest.approx(share)
    assert "memory_fraction" in q.stated
    assert q.batch is None and q.context is None  # the number is not read as anything else


def test_the_memory_share_leaves_the_card_count_alone() -> None:
    assert parse("vllm serve Llama 3 8B --gpu-memory-utilization=0.95 on 2 A10s", KB).gpu_count == 2
    assert parse("vLLM gpu_memory_utilization 1.5, Llama 3 8B", KB).memory_fraction is None  # no such share


def test_max_num_seqs_is_not_a_batch() -> None:
    q = parse("Llama-3.1-8B vllm --max-num-seqs 64 on an H100", KB)
    assert q.max_num_seqs == 64 and q.batch is None
    assert parse("vllm max_num_seqs=999999 Llama 3 8B", KB).max_num_seqs == 65_536


def test_a_tensorrt_engines_max_batch_size_is_its_request_cap() -> None:
    q = parse("Qwen2.5-32B TensorRT-LLM 0.16 --max_batch_size 16 on an A100 80GB", KB)
    assert q.max_num_seqs == 16 and q.batch is None and q.engine_version == "0.16"
    assert parse("trtllm-build max-batch-size=64 Llama 3 8B", KB).max_num_seqs == 64
    assert parse("max batch size 8, Llama 3 8B", KB).max_num_seqs is None  # prose, not the build flag


def test_memory_share_and_request_cap_flags() -> None:
    answer = ask({"text": "Llama 3.1 8B on an L4", "engine": "vllm", "memory_fraction": "85%", "max_num_seqs": 32})
    assert answer.query.memory_fraction == pytest.approx(0.85) and answer.query.max_num_seqs == 32
    assert answer.check is not None and answer.check.reserve_fraction == pytest.approx(0.85)
    with pytest.raises(BadRequestError, match="between 0 and 1"):
        ask({"text": "Llama 3.1 8B", "engine": "vllm", "memory_fraction": 1.5})
    with pytest.raises(BadRequestError, match="max_num_seqs"):
        ask({"text": "Llama 3.1 8B", "engine": "vllm", "max_num_seqs": 0})


@pytest.mark.parametrize(("text", "context"), [
    ("vllm serve Qwen3-32B --max-model-len 32768 on one H100", 32768),
    ("vllm serve Qwen3-32B max_model_len=16384 on one H100", 16384),
    ("sglang --context-length 8192 Qwen2.5-7B", 8192),
])
def test_the_engines_length_flag_is_the_context(text: str, context: int) -> None:
    q = parse(text, KB)
    assert q.context == context and "max-model-len-stated" in q.notes
    assert q.batch is None


@pytest.mark.parametrize(("text", "context", "batch"), [
    ("LLaMA-Factory LoRA Qwen2.5-14B cutoff_len 8192 on a 4090", 8192, None),
    ("TRL SFT Llama-3-8B LoRA max_length=2048 per_device_train_batch_size 4", 2048, 4),
    ("unsloth Llama-3.1-8B max_seq_length = 16384", 16384, None),
    ("axolotl sequence_len: 4096 micro_batch_size: 2 Mistral-7B LoRA", 4096, 2),
    ("Qwen2.5-7B full fine-tune model_max_length 32768", 32768, None),
])
def test_a_trainers_length_setting_is_the_context(text: str, context: int, batch: int | None) -> None:
    q = parse(text, KB)
    assert q.context == context and q.batch == batch


def test_a_quantised_cache_without_flash_attention_stays_16_bit_in_llama_cpp() -> None:
    from bot.reply.render import render_text

    # Llama-3.1-8B at 32k: 32 layers × 8 KV heads × 128 × 2 (K, V) × 32,768 tokens = 2 Gi elements: 4 GiB at f16,
    # 2.125 GiB at q8_0 (34 B per 32). Ollama keeps flash attention off for Llama, so its q8_0 setting is inert.
    inert = ask({"text": "ollama llama3.1 8b 32k OLLAMA_KV_CACHE_TYPE=q8_0"})
    applied = ask({"text": "ollama llama3.1 8b 32k OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0"})
    assert inert.estimate is not None and applied.estimate is not None
    assert inert.estimate.breakdown.kv_cache == pytest.approx(4.0, abs=0.01)
    assert applied.estimate.breakdown.kv_cache == pytest.approx(2.125, abs=0.01)
    assert "kv-cache-needs-flash-attention" in inert.estimate.notes
    assert "Ollama ignores OLLAMA_KV_CACHE_TYPE without OLLAMA_FLASH_ATTENTION=1" in render_text(inert, kb=KB)
    assert "kv-cache-needs-flash-attention" not in applied.estimate.notes


def test_training_switches_are_read_as_written_and_said_back() -> None:
    from bot.reply.render import render_text

    for text in ("Mistral-7B LoRA int8 sequence_len 4096 gradient_checkpointing: false on an A100 80GB",
                 "torchtune llama 3.1 8b lora enable_activation_checkpointing: False",
                 "unsloth llama 3.1 8b qlora use_gradient_checkpointing = False"):
        assert parse(text, KB).gradient_checkpointing is False, text
    assert parse("llama 3 8b lora with gradient checkpointing on a 4090", KB).gradient_checkpointing is True
    said = render_text(ask({"text": "Qwen2.5-7B LoRA rank 64 gradient_checkpointing false, 2k, on a 4090"}), kb=KB)
    assert "gradient checkpointing off" in said and "LoRA rank 64" in said


@pytest.mark.parametrize(("text", "layers"), [
    ("llama.cpp -ngl 40 Llama-3-70B Q4_K_M on a 4090", 40),
    ("llama-server --n-gpu-layers=35 -m llama-3-70b.Q4_K_M.gguf", 35),
    ("ollama llama3:70b num_gpu 30 on a 3090", 30),
    ("Llama(model_path=..., n_gpu_layers: 20) Llama 3 8B", 20),
    ("llama.cpp -ngl 0 Llama 3 8B", 0),
    ("llama.cpp -ngl 9999 Llama 3 8B", 999),
])
def test_layers_on_the_gpu_are_read_and_are_no_count_or_size(text: str, layers: int) -> None:
    q = parse(text, KB)
    assert q.gpu_layers == layers
    assert q.gpu_count in (None, 1) and q.context != layers


def test_layers_on_the_gpu_size_the_card_and_say_what_stays_in_ram() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "llama.cpp -ngl 40 Llama-3-70B Q4_K_M on a 4090"})
    assert answer.query.gpu_layers == 40 and answer.check is not None and answer.check.fits
    assert answer.estimate is not None and answer.estimate.gpu_layers == 40 and answer.estimate.layer_slots == 81
    assert answer.estimate.host_ram_gb and answer.estimate.host_ram_gb > 15
    text = render_text(answer, kb=KB)
    assert "-ngl 40 (layers on the GPU)" in text and "41 of 81 layers left on the CPU" in text
    assert answer.estimate.ram_bound_tokens_per_s and answer.estimate.ram_bound_tokens_per_s < 5
    assert "decoding tops out near" in text
    assert not answer.speed.get("decode_tokens_per_s")  # no speed for layers read from system RAM
    # the cards recommended beside it hold every layer
    assert all(p.memory_per_gpu_gb > 35 for p in answer.picks if p.gpu != "rtx-4090")
    flagged = ask({"text": "Llama-3-70B Q4_K_M llama.cpp on a 4090", "gpu_layers": 40})
    assert flagged.estimate is not None and flagged.estimate.per_gpu_gb == answer.estimate.per_gpu_gb
    with pytest.raises(BadRequestError, match="gpu_layers must be between 0 and 999"):
        ask({"text": "Llama 3 8B", "gpu_layers": 5000})


def test_a_model_too_big_for_the_card_is_offered_layers_in_system_ram() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "ollama run llama3:70b on a 4090"})
    assert answer.check is not None and not answer.check.fits
    offload = next(s for s in answer.check.suggestions if s.kind == "cpu-layers")
    assert offload.gpu_layers and 30 < offload.gpu_layers < 81 and offload.host_ram_gb
    assert f"-ngl {offload.gpu_layers}; Ollama does this by itself" in render_text(answer, kb=KB)


@pytest.mark.parametrize(("text", "layers"), [
    ("llama.cpp Qwen3-30B-A3B Q4_K_M --n-cpu-moe 20 on a 3060", 20),
    ("llama-server -m qwen3-235b.gguf -ncmoe 60 -ngl 99", 60),
    ("llama-server gpt-oss-120b --cpu-moe on a 3090", 999),
    ("llama.cpp gpt-oss-120b -cmoe", 999),
    ('llama-server -m gpt-oss-120b.gguf -ot ".ffn_.*_exps.=CPU" on a 4090', 999),
])
def test_experts_in_system_ram_are_read(text: str, layers: int) -> None:
    q = parse(text, KB)
    assert q.cpu_moe_layers == layers and q.engine == "llama.cpp"


def test_experts_in_system_ram_size_the_card_and_say_what_stays_in_ram() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "llama-server gpt-oss-120b --cpu-moe on a 3090"})
    assert answer.check is not None and answer.check.fits
    assert answer.estimate is not None and answer.estimate.cpu_moe_layers == 36 and answer.estimate.host_ram_gb
    assert answer.estimate.per_gpu_gb < 5 < answer.estimate.host_ram_gb
    text = render_text(answer, kb=KB)
    assert "--cpu-moe (every layer's experts in system RAM)" in text and "every layer's routed experts" in text
    assert not answer.speed.get("decode_tokens_per_s")
    flagged = ask({"text": "gpt-oss-120b llama.cpp on a 3090", "cpu_moe_layers": 999})
    assert flagged.estimate is not None and flagged.estimate.per_gpu_gb == answer.estimate.per_gpu_gb


def test_an_moe_too_big_for_the_card_is_offered_its_experts_in_system_ram() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "ollama qwen3:30b on a 3060 12GB"})
    assert answer.check is not None and not answer.check.fits
    kinds = [s.kind for s in answer.check.suggestions]
    assert kinds.index("cpu-experts") < kinds.index("cpu-layers")
    experts = answer.check.suggestions[kinds.index("cpu-experts")]
    assert f"(--n-cpu-moe {experts.cpu_moe_layers})" in render_text(answer, kb=KB)


@pytest.mark.parametrize(("text", "backend"), [
    ("Llama 3.1 8B on vLLM with VLLM_USE_V1=0 on an L4", "v0"),
    ("Llama 3.1 8B on the vLLM V0 engine", "v0"),
    ("Llama 3.1 8B, vllm v1 engine, H100", "v1"),
    ("vLLM v0.8.5, Llama 3 8B", None),  # a version, not the V0 engine
    ("vllm v0.11.0 serving Qwen2.5-7B", None),
])
def test_vllm_engines_are_backends(text: str, backend: str | None) -> None:
    assert parse(text, KB).engine_backend == backend


def test_a_cross_attention_vision_model_is_sized_with_its_dummy_images_and_a_lower_cap_offered() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "Llama 3.2 11B Vision on vLLM, one A100 80GB"})
    # 256 images × 0.307 GiB (tests/rules/test_vision_encoder.py) = 78.6 GiB: no fit on the 72 GiB vLLM takes; the
    # cap halved to 128 (39.3 GiB of images) fits, and covers the one sequence asked: that is the answer, said
    assert answer.estimate is not None and answer.estimate.profiled_images == 128
    assert answer.estimate.image_encoder_gb == pytest.approx(78.61 / 2, abs=0.01)
    assert answer.check is not None and answer.check.fits
    assert any(a.field == "max_num_seqs" and a.value == 128 and a.reason == "request-cap-lowered"
               for a in answer.assumptions)
    text = render_text(answer, kb=KB)
    assert "encodes 128 dummy images" in text and "--max-num-seqs 128" in text and "V0 engine" in text


def test_the_other_engine_line_says_how_much_is_the_image_profile() -> None:
    from bot.reply.render import render_text

    answer = ask({"text": "Llama 3.2 11B Vision inference on one A100 80GB"})  # transformers: no engine named
    assert answer.other_engine is not None and answer.other_engine["engine"] == "vllm"
    assert answer.other_engine["profiled_images"] == 256
    text = render_text(answer, kb=KB)
    assert "Of that, 78.6 GiB is its start-up profile encoding 256 dummy images" in text
    zh = render_text(ask({"text": "Llama 3.2 11B Vision 推理 一张A100 80GB"}), kb=KB)
    assert "估算。其中 78.6 GiB" in zh


@pytest.mark.parametrize(("text", "task"), [
    ("unsloth llama 3 8b on a 4090", "qlora"),  # Unsloth loads in 4-bit and adds LoRA unless told otherwise
    ("torchtune llama 3 8b on a 4090", "train"),
    ("fsdp_qlora llama 2 70b on 2x 3090", "qlora"),
    ("vllm llama 3 8b on a 4090", "inference"),
])
def test_a_fine_tuning_framework_named_alone_means_its_own_kind_of_fine_tune(text: str, task: str) -> None:
    assert parse(text, KB).task == task


def test_a_length_before_sequence_is_the_context_not_a_sample_count() -> None:
    question = parse("Full fine-tune of Qwen2.5-3B with AdamW bf16 mixed precision, 2k sequence, batch 8: which GPU?",
                     KB)
    assert question.context == 2048 and question.batch == 8
    assert question.training_samples is None
    assert parse("fine-tune Llama-3.1-8B on 20k sequences of 2k tokens", KB).tokens == 20_000 * 2048


@pytest.mark.parametrize(("text", "gpu", "count"), [
    ("QLoRA 微调 Qwen2.5-72B，4090 24G 两张够吗？", "rtx-4090", 2),  # audit 15 B-M4: the size between card and count
    ("A100 40G 两张 跑 Qwen2.5-32B", "a100-40gb", 2),
    ("Qwen2.5-32B on 4090 24GB", "rtx-4090", None),
])
def test_a_count_after_the_card_and_its_memory_is_read(text: str, gpu: str, count: int | None) -> None:
    question = parse(text, KB)
    assert question.gpu == gpu and question.gpu_count == count


def test_the_8gb_rtx_3060_is_its_own_card() -> None:
    # audit 15 B-H1: it was read as the 12 GB card, and "Yes" where 8 GB does not hold the model
    assert parse("Can I run Gemma 3 12B at Q4_K_M with Ollama on an RTX 3060 8GB?", KB).gpu == "rtx-3060-8gb"
    assert parse("qwen2.5 7b on a 3060", KB).gpu == "rtx-3060-12gb"
    assert KB.gpus["rtx-3060-8gb"].bandwidth_gbps < KB.gpus["rtx-3060-12gb"].bandwidth_gbps


def test_how_many_nk_sequences_asks_the_count_at_that_context() -> None:
    # audit 16 C-H1: "32k sequences" was 32,000 training samples and the context defaulted to 4,096
    question = parse("With an FP8 KV cache, how many concurrent 32k sequences does Llama 3.1 70B FP8 fit on 4x H100"
                     " in vLLM?", KB)
    assert question.context == 32768 and question.training_samples is None and question.asks_concurrency


def test_a_card_with_its_memory_after_with_is_that_variant() -> None:
    # audit 16 C-H6: "GeForce RTX 3060 with 8 GB" was the 12 GB card
    assert parse("Gemma 3 12B Q4_K_M in Ollama on a GeForce RTX 3060 with 8 GB: does it fit?", KB).gpu == "rtx-3060-8gb"
    assert parse("Llama 3 70B on an A100 with 40GB", KB).gpu == "a100-40gb"


def test_some_experts_offloaded_leaves_the_count_to_the_reply() -> None:
    # audit 16 C-M6: "offload some experts" was --cpu-moe, every layer's experts in RAM
    some = parse("Qwen3-30B-A3B at Q4_K_M with llama.cpp on an RTX 4070 12GB if I offload some experts to the CPU?", KB)
    assert some.cpu_moe_layers is None and some.offload_to_ram
    every = parse("Qwen3-30B-A3B Q4_K_M with the experts on CPU on a 4070", KB)
    assert every.cpu_moe_layers == 999


def test_a_compute_optimal_budget_is_a_pretraining_job() -> None:
    # audit 16 C-H3: "how many tokens should a 1B model be trained on (Chinchilla)" was 1B inference
    question = parse("How many tokens should a 1B model be trained on (Chinchilla) and what would that cost on Lambda"
                     " H100s?", KB)
    assert question.task == "train" and "tokens-compute-optimal" in question.notes
    assert parse("Llama 3 was trained on 15T tokens, can I run the 8B on a 4090?", KB).task != "train"


def test_a_misspelt_super_is_still_the_super_card() -> None:
    # audit 16 C-M8: "4070 ti supr" was the 12 GB 4070 Ti, not the 16 GB Ti SUPER
    assert parse("mistral nemo fp16 on my rtx 4070 ti supr?", KB).gpu == "rtx-4070-ti-super"
    assert parse("I had supper then ran llama 3 8b on a 4090", KB).gpu == "rtx-4090"


def test_a_rate_counted_with_bi_in_traditional_chinese_is_read() -> None:
    # audit 17 HIGH 4: "每秒處理 1000 筆查詢" lost the rate, so no card count
    assert parse("bge-m3 每秒處理 1000 筆查詢需要幾張 L4？", KB).qps == 1000


def test_a_card_that_has_its_memory_is_that_variant() -> None:
    # audit 17 HIGH 5: "an RTX 3060 that has 8 GB of VRAM" was the 12 GB card
    question = parse("Can I run Llama 3.1 8B Q8 with Ollama on an RTX 3060 that has 8 GB of VRAM?", KB)
    assert question.gpu == "rtx-3060-8gb"


@pytest.mark.parametrize(("text", "qps", "texts"), [
    # audit 17 HIGH 1: a reranker's passages per query were a document count, so 50 queries/s was 50 pairs/s
    ("bge-reranker-v2-m3 at 50 queries/s, each reranking 100 passages of 256 tokens: how many L40S?", 50, 100),
    ("bge-reranker-v2-m3 每秒 100 次查询，每次重排 50 个文档，需要几张 T4？", 100, 50),
    ("bge-reranker-v2-m3 scoring 5,000 query-passage pairs per second, 256 tokens each: how many L40S?", 5000, None),
])
def test_a_rerankers_pairs_a_second_are_read_however_written(text: str, qps: float, texts: int | None) -> None:
    question = parse(text, KB)
    assert question.qps == qps and question.texts_per_request == texts
    assert question.training_samples is None


def test_a_pasted_llama_cpp_context_flag_is_the_context() -> None:
    # audit 17 M-2: "-c 32768" in a pasted llama-server line was dropped for the 4,096 default
    question = parse("llama-server -m Qwen3-235B-A22B-Q3_K_M.gguf -c 32768 -ngl 99 --n-cpu-moe 60 on a 5090", KB)
    assert question.context == 32768 and question.cpu_moe_layers == 60
    assert parse("llama.cpp --ctx-size 8192 qwen2.5 7b q4_k_m on a 3060", KB).context == 8192


def test_how_many_users_asked_in_traditional_chinese_asks_the_concurrency() -> None:
    # audit 17 M-1: "可以服務幾個使用者" got no count
    assert parse("Llama 3.3 70B 開 128k 上下文，用 4 張 H100 可以服務幾個使用者？", KB).asks_concurrency


def test_chinas_own_accelerators_are_named_back_as_unknown() -> None:
    # audit 17 M-7: "摩尔线程 MTT S4000 48G" was sized silently as a 48 GB CUDA card
    question = parse("摩尔线程 MTT S4000 48G 能跑 Qwen2.5-32B 吗？", KB)
    assert question.unknown_gpu_text == "摩尔线程 MTT S4000" and question.memory_gb == 48
    assert parse("华为昇腾910B 跑 DeepSeek-V3 要几张", KB).gpu == "ascend-910b"  # the one the knowledge base has


@pytest.mark.parametrize(("text", "engine"), [
    # audit 23 HIGH 3: the engine ruled out was the one sized, and the verdict flipped (Unsloth's 10.8 GiB a card
    # against LLaMA-Factory's 26.4 on 4× 4090)
    ("We looked at Unsloth but it does not do multi-GPU, so LLaMA-Factory + DeepSpeed ZeRO-3 it is. LoRA on "
     "Qwen2.5-14B, cutoff_len 8192, on 4x RTX 4090: does it fit?", "llama-factory"),
    ("serve Qwen2.5-7B with vLLM instead of SGLang on an L4", "vllm"),
    ("用 SGLang 而不是 vLLM 部署 Qwen2.5-7B，一张 L4", "sglang"),
    ("不用 vLLM，用 lmdeploy 部署 Qwen2.5-7B，一张 A10", "lmdeploy"),
    ("considered TensorRT-LLM but went with vLLM: Llama 3.1 8B on an H100", "vllm"),
    # an engine in trouble is still the engine in use
    ("we run vLLM but it does not fit: Llama 3.1 70B on 2x A100 80GB", "vllm"),
    ("tried vLLM and it OOMs with Qwen2.5-32B on a 4090", "vllm"),
    ("LLaMA-Factory with use_unsloth: true, QLoRA Llama 3 8B on a 3090", "unsloth"),
])
def test_the_engine_settled_on_not_the_one_put_aside(text: str, engine: str) -> None:
    assert parse(text, KB).engine == engine
