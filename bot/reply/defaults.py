"""The defaults a question leaves to the advisor, each stated back as an assumption: the model, the card
pool, precision, context, batch and engine.

`workload_for` makes the choices in order; the model sized (bot.reply.asked_model), a training job's defaults
(bot.reply.training_defaults), the tests that move a job onto a serving engine (bot.reply.engine_defaults) and the
assumptions the reading noted (bot.reply.assumed_notes) live beside it and are importable from here as before.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.reply.asked_model import resolve_model
from bot.reply.assumed_notes import (
    OFFLOAD_CHOSEN_NOTE,
    OFFLOAD_OLLAMA_NOTE,
    RENTED_VARIANT_NOTE,
    gpu_assumptions,
    noted_assumptions,
)
from bot.reply.engine_defaults import (
    LONG_PROMPT_SERVING_TOKENS,
    SERVING_ENGINE_MIN_PARAMS_B,
    lora_serving_assumptions,
    spills_on_desktop,
)
from bot.reply.image_service import image_service
from bot.reply.mixed_load import shared_cache
from bot.reply.model import Assumption
from bot.reply.ollama_defaults import OLLAMA_FLASH_ATTENTION_FAMILIES, ollama_context
from bot.reply.overrides import QUANT_PRECISION
from bot.reply.precision_defaults import (
    FALLBACK_PRECISION_NO_BF16,
    bf16_capable,
    kv_cache_for,
    native_precision,
)
from bot.reply.request_images import request_images
from bot.reply.serving import at_full_load, sets_serving_target
from bot.reply.training_defaults import (
    QLORA_QUANT,
    SHORT_SAMPLE_STEP_TOKENS,
    TRAINER_MICRO_BATCH,
    context_parallel_of,
    engine_fine_tune_method,
    samples_as_tokens,
)
from bot.understand.intent import SERVICE_NOTE
from bot.understand.question import MAX_BATCH, TRAINING_SWITCHES, Question
from bot.understand.slots.audio import CTRANSLATE2_NOTE
from bot.understand.slots.context import PROMPT_CONTEXT_NOTE
from bot.understand.slots.engine import OLLAMA_NOTE
from bot.understand.slots.runtime import TENSOR_PARALLEL_NOTE
from knowledge.engines import load_engine_profiles
from knowledge.schema import GPU, Model
from rules import constants as C
from rules import weight_formats as WF
from rules.engine_profile import training_fact
from rules.hardware import FLASH_ATTENTION_2_MIN_CC, compute_capability, runs_precision
from rules.memory_inference import default_build_length
from rules.memory_training import offload_of
from rules.speculative import EAGLE_HEAD_ID, eagle_head
from rules.speed_media import diffusion_steps
from rules.types import Precision, Workload

DEFAULT_CONTEXT = 4096
"""Tokens per sequence when the question gives none: a typical chat turn with history, not the model's
full advertised window (assuming the full window is a common calculator mistake: design.md)."""
DEFAULT_BATCH = 1
DEFAULT_PRECISION: Precision = "bf16"
TOKEN_ARCHS = ("decoder", "encoder", "encoder-decoder")
"""Architectures whose memory depends on a context length in tokens (not images)."""
MAX_INFERENCE_GPUS = 64
"""Tensor parallelism inside a node of 8, whole nodes beyond (pipeline parallel); never above 8 nodes."""
LONG_CONTEXT_TOKENS = 16384
"""From here on the KV cache, not the weights, is what decides the card: the reply explains it."""


def workload_for(question: Question, model: Model, gpu: GPU | None,
                 vram_gib: float | None = None) -> tuple[Workload, list[Assumption]]:
    assumptions: list[Assumption] = []
    task = question.task
    if task is None:
        task = "inference"
        assumptions.append(Assumption(field="task", value=task))
    method = engine_fine_tune_method(question)
    if method is not None:
        task = method
        assumptions.append(Assumption(field="task", value=task, reason="engine-default"))
    # A Mac serves a chat model through llama.cpp (Ollama, LM Studio): Metal back end, GGUF files. vLLM, SGLang and
    # TensorRT-LLM need CUDA, and GPTQ/AWQ kernels do not run on it.
    mac_engine = (question.unified_memory and question.engine is None and task == "inference"
                  and model.arch == "decoder")
    desktop_slow = not mac_engine and spills_on_desktop(question, model, gpu, task)
    mac_engine = mac_engine or desktop_slow
    precision = question.precision
    if precision is None and question.quant:
        implied = QUANT_PRECISION.get(question.quant)
        precision = implied if implied in ("int4", "int8") else None  # type: ignore[assignment]
    if precision is None:
        if task == "qlora":
            precision = "int4"
            assumptions.append(Assumption(field="precision", value="nf4-dq", reason="qlora-base"))
        elif (task == "inference" and (question.engine == "llama.cpp" or mac_engine) and model.arch == "decoder"
              and model.native_precision == "mxfp4"):
            # gpt-oss's GGUF keeps the experts in their released MXFP4 (ggml-org's files, Ollama's gpt-oss tags):
            # K-quants do not apply to them
            precision = "mxfp4"
            assumptions.append(Assumption(field="precision", value="mxfp4", reason="gguf-native-mxfp4"))
        elif task == "inference" and (question.engine == "llama.cpp" or mac_engine) and model.arch == "decoder":
            # llama.cpp and Ollama run GGUF files, and the one people pull is 4-bit (rules.constants.DEFAULT_GGUF).
            precision = "int4"
            assumptions.append(Assumption(field="precision", value=WF.DEFAULT_GGUF, reason="gguf-default"))
        elif task in ("train", "lora") and model.arch == "encoder" and model.native_precision == "fp32":
            # embedding and reranker fine-tunes run in mixed precision: FlagEmbedding's finetune examples pass
            # --fp16 (FlagOpen/FlagEmbedding examples/finetune), as sentence-transformers' trainers do with fp16=True
            # (audit 31 M-95: an fp32 fine-tune of bge-m3, 4× slower on an A10)
            precision = "fp16"
            assumptions.append(Assumption(field="precision", value=precision, reason="encoder-train-fp16"))
        elif task == "inference" and model.arch == "encoder" and model.native_precision == "fp32":
            # embedding and reranking models ship fp32 weights but are served in half precision on a GPU
            # (FlagEmbedding's README: BGEM3FlagModel(..., use_fp16=True); Text Embeddings Inference's default)
            precision = "fp16"
            assumptions.append(Assumption(field="precision", value=precision, reason="encoder-fp16"))
        elif task == "inference" and model.modality == "audio" and model.native_precision == "fp32":
            # Whisper large-v2 ships fp32 weights; openai-whisper decodes in fp16 on a GPU (transcribe's fp16=True)
            # and faster-whisper's README runs it with compute_type="float16"
            precision = "fp16"
            assumptions.append(Assumption(field="precision", value=precision, reason="speech-fp16"))
        else:
            precision, reason = native_precision(model, gpu)
            assumptions.append(Assumption(field="precision", value=precision, reason=reason))
    if task == "train" and precision in ("int4", "int8"):
        # Quantised weights cannot be trained directly (LoRA on a k-bit base can: that stays as asked).
        precision = DEFAULT_PRECISION if bf16_capable(gpu) else FALLBACK_PRECISION_NO_BF16
        assumptions.append(Assumption(field="precision", value=precision, reason="train-needs-16bit"))
    elif task in ("train", "lora") and precision == "fp8" and "precision" not in question.stated:
        # An FP8 release (DeepSeek-V3, Qwen3-*-FP8) is loaded by transformers' FineGrainedFP8HfQuantizer, whose
        # is_trainable is False (quantizer_finegrained_fp8.py): a fine-tune loads it dequantised to bf16
        precision = DEFAULT_PRECISION if bf16_capable(gpu) else FALLBACK_PRECISION_NO_BF16
        assumptions[:] = [a for a in assumptions if a.field != "precision"]
        assumptions.append(Assumption(field="precision", value=precision, reason="fp8-dequantised"))
    elif task in ("train", "lora") and precision == "mxfp4":
        # MXFP4's kernels are inference kernels: training loads the checkpoint dequantised to bf16 (OpenAI's
        # cookbook "Fine-tuning with gpt-oss and Hugging Face Transformers": Mxfp4Config(dequantize=True))
        precision = DEFAULT_PRECISION if bf16_capable(gpu) else FALLBACK_PRECISION_NO_BF16
        assumptions[:] = [a for a in assumptions if a.field != "precision"]
        assumptions.append(Assumption(field="precision", value=precision, reason="mxfp4-dequantised"))
    if (precision == "int4" and question.quant is None and task == "inference" and model.native_precision == "mxfp4"
            and question.engine != "llama.cpp" and not mac_engine):
        # "int4" of gpt-oss is its release: MXFP4 is already 4-bit, and no GPTQ or AWQ of it is published
        # (audit 28 HIGH 45: a GPTQ figure 12% below the release turned a 'No' on 2 L40S into 'tight')
        precision = "mxfp4"
        assumptions[:] = [a for a in assumptions if a.field != "precision"]
        assumptions.append(Assumption(field="precision", value="mxfp4", reason="int4-is-the-release"))
    quant = question.quant if (task in ("inference", "qlora") or precision in ("int4", "int8")) else None
    if quant is None and precision == "int4" and task != "qlora":
        if model.arch == "diffusion":
            quant = "nf4"  # diffusers quantises a pipeline with bitsandbytes on load (its quantization docs): no GPTQ
        else:
            runner = question.engine or ("llama.cpp" if mac_engine else "transformers")
            # LMDeploy's 4-bit weights (W4A16) are its own AWQ (`lmdeploy lite auto_awq`), what TurboMind loads
            quant = WF.DEFAULT_GGUF if runner == "llama.cpp" else "awq" if runner == "lmdeploy" else "gptq"
            if model.native_quant and model.native_precision == "int4" and runner != "llama.cpp":
                quant = model.native_quant  # the release's own format (Kimi K2 Thinking's INT4 experts)
        if model.native_quant is not None and quant == model.native_quant:
            assumptions.append(Assumption(field="quant", value=quant, reason="native-format"))
        elif not any(a.reason == "gguf-default" for a in assumptions):
            assumptions.append(Assumption(field="quant", value=quant))
    if task == "qlora":
        # The QLoRA recipe (Dettmers et al. 2023; PEFT/TRL examples): NF4 with double quantisation of the scales.
        quant = QLORA_QUANT if quant in (None, "nf4") and "quant" not in question.stated else (quant or QLORA_QUANT)
    engine = question.engine
    batch_stated = question.batch
    if mac_engine:
        engine = "llama.cpp"
        assumptions.append(Assumption(field="engine", value=engine,
                                      reason="why-slow-desktop" if desktop_slow else "apple-silicon"))
    elif engine is None:
        # Several concurrent users, or a speed / load target, means a serving engine; one prompt at a time is
        # what a notebook does.
        concurrent = (batch_stated or 1) > 1
        targeted = sets_serving_target(question)
        # A KV cache stored in fewer bits than the model's is a serving engine's feature (transformers has none)
        small_cache = question.kv_cache is not None and question.kv_cache not in ("fp16", "bf16")
        tensor_parallel = TENSOR_PARALLEL_NOTE in question.notes  # transformers splits layers, not tensors
        large = model.params_b >= SERVING_ENGINE_MIN_PARAMS_B
        adapters = bool(question.lora_adapters or question.max_loras)  # multi-LoRA serving: an engine's feature
        # a draft model is asked about for a serving engine's speed (vLLM, SGLang); transformers' assisted
        # generation pays its launch overhead on every draft step, which hides the gain people ask about
        drafted = question.draft_model is not None
        # "how many concurrent users fit / which holds more" is a serving engine's question, at its paged cache
        concurrency = question.asks_concurrency
        product = question.user_base is not None  # "10k DAU": a product's users, served by a serving engine
        service = SERVICE_NOTE in question.notes  # "自建推论服务", "an inference service": requests, not a notebook
        # a prompt past 128k tokens is prefilled in chunks by a serving engine: transformers prefills it whole
        # (GLM-4-9B-Chat-1M at 1M tokens: 104 GiB of activations, audit 32 M-103)
        long_prompt = (question.context or 0) > LONG_PROMPT_SERVING_TOKENS
        serving = task == "inference" and model.arch == "decoder" and (
            concurrent or targeted or small_cache or tensor_parallel or large or adapters or drafted or concurrency
            or product or service or long_prompt)
        # FP8 weights on a card without FP8 arithmetic (an A100): transformers refuses them, vLLM runs them
        # weight-only (FP8 Marlin, W8A16), which is how they are run there
        weight_only_fp8 = (task == "inference" and precision == "fp8" and gpu is not None
                           and not runs_precision(gpu, "fp8", "transformers") and runs_precision(gpu, "fp8", "vllm"))
        serving = serving or weight_only_fp8
        engine = "vllm" if serving else "transformers"
        if model.arch == "decoder":
            # The profile the figures come from is always stated (training: HF Trainer / PEFT / TRL).
            reason = ("no-profile" if question.unmodelled_engine else "default" if not serving
                      else "concurrent-serving" if concurrent else "batch-job" if question.batch_job
                      else "serving-target" if targeted else "quantised-kv-cache" if small_cache
                      else "tensor-parallel-named" if tensor_parallel else "multi-lora-serving" if adapters
                      else "speculative-serving" if drafted else "fp8-weight-only" if weight_only_fp8
                      else "concurrency-asked" if concurrency else "user-base-serving" if product
                      else "service-named" if service else "long-prompt-serving" if long_prompt
                      else "large-model-serving")
            assumptions.append(Assumption(field="engine", value=engine, reason=reason))
    context = question.context
    length_unstated = False
    if (context is not None and "context" not in question.stated and model.image_tokens is not None
            and not question.batch_job):  # a job over images says its instruction with the images a request
        # the parser gave an image request a short text (bot.understand.documents.IMAGE_JOB_TEXT_TOKENS) beside
        # its image and reply: an assumption to say, as the image's positions are
        assumptions.append(Assumption(field="context", value=context, reason="image-request-text"))
    ollama = engine == "llama.cpp" and OLLAMA_NOTE in question.notes and model.arch == "decoder"
    if context is None and ollama and vram_gib is not None:
        context = ollama_context(model, vram_gib)
        assumptions.append(Assumption(field="context", value=context, reason="ollama-vram-default"))
    elif context is None and question.sample_tokens and (task != "inference" or question.encodes_documents):
        # "10k samples of 512 tokens": a training step (or an encoder's pass) holds one such sample per sequence.
        context = question.sample_tokens
        assumptions.append(Assumption(field="context", value=context, reason="sample-length"))
    elif (context is None and task == "inference" and model.arch == "decoder" and question.gen_tokens
          and question.gen_tokens > DEFAULT_CONTEXT // 2):
        # "reasoning outputs of 16k tokens": every sequence reaches its output plus a prompt, the half of the
        # default window a prompt is given; a 4,096 window would cut each answer short (audit 24 HIGH 20)
        context = question.gen_tokens + DEFAULT_CONTEXT // 2
        assumptions.append(Assumption(field="context", value=context, reason="output-plus-prompt"))
    elif context is None:
        length_unstated = True
        # Whisper's decoder holds at most `max_target_positions` (448) tokens, whatever the audio's length.
        native = model.max_context or int(model.details.get("max_target_positions") or 0) or DEFAULT_CONTEXT
        # an embedding request is a retrieval chunk, not a chat: BERT-class length even on an 8k-window bge-m3
        # and an embedder's training pair is a query and a passage of retrieval length too (FlagEmbedding's
        # finetune examples cap passages at 256–512 tokens), not a chat model's 4k sample (audit 31 M-95)
        usual = C.ENCODER_DEFAULT_CONTEXT if model.arch == "encoder" else DEFAULT_CONTEXT
        context = min(usual, native)
        if model.modality == "audio" and model.arch == "encoder-decoder" and task == "inference":
            # a window's transcript, not the decoder's ceiling: 50 live streams on a 4090 were sized with every
            # beam at 448 tokens, 2.3× faster-whisper's measured growth, and got a wrong "No" (audit 26 HIGH 33)
            context = min(context, C.SPEECH_TOKENS_PER_WINDOW)
            assumptions.append(Assumption(field="context", value=context, reason="speech-window-tokens"))
        elif model.arch in TOKEN_ARCHS:
            at_rate = bool(question.qps) and task == "inference" and model.arch == "decoder"
            assumptions.append(
                Assumption(field="context", value=context,
                           reason="encoder-request-length" if model.arch == "encoder" and task == "inference"
                           else "encoder-sample-length" if model.arch == "encoder"
                           else "prompt-at-rate" if at_rate  # the prompt sets a rate's card count (audit 29 M-66)
                           else "default" if context == DEFAULT_CONTEXT else "model-max-context")
            )
    elif model.max_context and context > model.max_context:
        assumptions.append(Assumption(field="context", value=context, reason="beyond-native-context"))
    if (question.qps or question.ttft_s) and question.gen_tokens is None and task == "inference" \
            and model.arch == "decoder":
        # a request rate is timed with each request writing half the context (bot.reply.serving.request_seconds):
        # said, as the output length sets how many cards the rate takes
        generated = max(1, context // 2)
        prompt_only = PROMPT_CONTEXT_NOTE in question.notes  # "输入 2k": the output comes on top of the prompt
        assumptions.append(Assumption(field="gen_tokens", value=generated,
                                      reason="half-the-prompt" if prompt_only else "half-the-context"))
        if prompt_only:
            context += generated
        question = question.model_copy(update={"gen_tokens": generated})
    image_positions = request_images(question, model, task, assumptions)
    context += image_positions
    batch = question.batch
    if (batch is None and task != "inference" and model.arch in TOKEN_ARCHS and (question.tokens or
            question.training_samples) and 0 < context <= SHORT_SAMPLE_STEP_TOKENS // 2):
        # short samples are trained several to a micro-step, as trainers batch them: one 256-token sample a step
        # on 8 sharded cards is all weight gathering and no compute (audit 25 HIGH 25: 8 A10s slower than 1 A100)
        batch = min(TRAINER_MICRO_BATCH, max(1, SHORT_SAMPLE_STEP_TOKENS // context))
        assumptions.append(Assumption(field="batch", value=batch, reason="short-samples"))
    if batch is None:
        batch = DEFAULT_BATCH
        if model.arch in TOKEN_ARCHS and not (task == "inference" and (
                at_full_load(question) or question.qps or question.tokens_per_s_per_user or question.ttft_s)):
            # (at full load, or at a request rate or speed to meet, the serving plan says the load it sized, not
            # one sequence: "batch 1 (not stated)" beside a plan at 311 concurrent read as a contradiction)
            assumptions.append(Assumption(field="batch", value=batch))
    if (shared := shared_cache(question, context, batch)) is not None and shared.batch != batch:
        # "8 analysts at 128k plus about 40 short chats": the chats' tokens, as sequences at the long context
        batch, context = shared.batch, shared.long_context
        assumptions.append(Assumption(field="batch", value=batch, reason="shared-cache"))
    if image_service(question, model, task):
        # "SDXL for 200 users": each card makes one image at a time and the users share the cards (the speed
        # figures count them), not one batch of 200 in one card's memory
        batch = 1
        assumptions.append(Assumption(field="batch", value=batch, reason="image-users"))
    if question.prior_preservation and model.arch == "diffusion" and task != "inference":
        # DreamBooth's prior preservation trains a class image beside each instance image: twice the images
        batch = min(2 * batch, MAX_BATCH)
    extra: dict[str, Any] = {}
    for key in ("gen_tokens", "zero_stage", "gradient_checkpointing", "optimizer", "flash_attention", "dp_attention",
                "offload",
                "pure_16bit", "train_embeddings", *TRAINING_SWITCHES):
        value = getattr(question, key)
        if value is not None:
            extra[key] = value
    if question.lora_rank is not None:
        extra["lora_rank"] = question.lora_rank
    if task == "inference" and question.draft_model:
        from knowledge.loader import default_knowledge  # the parser read the id from the same base

        extra["draft_model"] = (eagle_head(model) if question.draft_model == EAGLE_HEAD_ID
                                else default_knowledge().models.get(question.draft_model))
    if task == "inference" and (question.lora_adapters or question.max_loras):
        extra.update(lora_adapters=question.lora_adapters, max_loras=question.max_loras)
        assumptions += lora_serving_assumptions(question, engine)
    if task == "train" and model.moe is not None and question.zero_stage is None and question.engine is None:
        # the runtime left open: an MoE model is trained the way its makers' frameworks do it at scale, with
        # expert parallelism (the rules apply it where it is faster and the cards are NVLinked)
        extra["expert_parallel"] = True
    if question.grad_accumulation is not None and task != "inference":
        extra["grad_accumulation"] = question.grad_accumulation
    profile = load_engine_profiles().get(engine or "")
    fact = profile.training if profile is not None and task != "inference" else None
    if fact is not None and question.offload is None and fact.offload_default not in (None, "none"):
        extra["offload"] = fact.offload_default  # fsdp_qlora offloads the parameters unless told not to
        assumptions.append(Assumption(field="offload", value=fact.offload_default, reason="engine-default"))
    if fact is not None and question.lora_rank is None and fact.lora_rank_default and task in ("lora", "qlora"):
        extra["lora_rank"] = fact.lora_rank_default
        assumptions.append(Assumption(field="lora_rank", value=fact.lora_rank_default, reason="engine-default"))
    if (engine == "torchtune" and task == "train" and (question.gpu_count or 1) == 1 and question.optimizer is None
            and not question.optimizer_in_backward and (question.grad_accumulation or 1) == 1):
        # torchtune's single-device full fine-tune configs (recipes/configs/llama3_2/3B_full_single_device.yaml
        # and siblings): bitsandbytes PagedAdamW8bit with optimizer_in_bwd: True (each gradient applied and freed)
        extra.update(optimizer="adamw-8bit", optimizer_in_backward=True)  # paged: resident unless the card runs out
        assumptions.append(Assumption(field="optimizer", value="adamw-8bit", reason="torchtune-single-device"))
    if model.arch == "diffusion":
        # the image's pixels and steps size a diffusion job; on any other model they are not read
        if question.image_resolution is not None:
            extra["image_resolution"] = question.image_resolution
        if question.image_steps is not None:
            extra["image_steps"] = question.image_steps
        elif task == "inference" and (steps := diffusion_steps(model)):
            # the steps set the time of every image: said, as FluxPipeline's own default (28) differs from the
            # model card's example the figures use (50), audit 33 M-114
            assumptions.append(Assumption(field="image_steps", value=steps, reason="model-card-steps"))
        if question.text_encoders is not None and task != "inference":
            extra["text_encoders"] = question.text_encoders
    if (engine == "llama.cpp" and OLLAMA_NOTE in question.notes and question.flash_attention is None
            and model.family not in OLLAMA_FLASH_ATTENTION_FAMILIES and model.arch == "decoder"):
        extra["flash_attention"] = False
        assumptions.append(Assumption(field="flash_attention", value=False, reason="ollama-default"))
    if question.flash_attention and gpu is not None and (compute_capability(gpu) or 8.0) < FLASH_ATTENTION_2_MIN_CC:
        # FlashAttention-2 builds for Ampere and newer only: on a V100 or T4 `flash_attn: fa2` fails and the job runs
        # SDPA's kernels, whose attention memory is what is sized (audit 24 LOW-40)
        extra["flash_attention"] = False
        assumptions.append(Assumption(field="flash_attention", value=False, reason="fa2-needs-ampere"))
    if length_unstated and (built := default_build_length(engine, model, context)) is not None:
        # a default trtllm-build's per-slot buffers cover the whole window (said under Assumed where the version
        # builds such an engine)
        extra["engine_max_seq_len"] = built
    kv_cache = kv_cache_for(question.kv_cache, engine, assumptions)
    workload = Workload(model=model, task=task, precision=precision, quant=quant, engine=engine,
                        context=context, min_context=image_positions, batch=batch,
                        engine_version=question.engine_version,
                        engine_backend=question.engine_backend, kv_cache=kv_cache,
                        inter_node_gbps=question.inter_node_gbps,
                        context_parallel=context_parallel_of(question, task, gpu, assumptions),
                        memory_fraction=question.memory_fraction, max_num_seqs=question.max_num_seqs,
                        prefill_chunk=question.prefill_chunk,
                        layer_split=tuple(question.layer_split) if question.layer_split else None,
                        gpu_layers=question.gpu_layers, cpu_moe_layers=question.cpu_moe_layers,
                        beam_size=question.beam_size or 1,
                        source_per_beam=CTRANSLATE2_NOTE not in question.notes, **extra)
    if task != "inference" and workload.offload == "optimizer":
        # "CPU offload" on FSDP is its parameter offload: the query reports what the engine does
        workload = replace(workload, offload=offload_of(workload, training_fact(workload)))
    return workload, assumptions


__all__ = ["DEFAULT_BATCH", "DEFAULT_CONTEXT", "DEFAULT_PRECISION", "LONG_CONTEXT_TOKENS", "MAX_INFERENCE_GPUS",
           "OFFLOAD_CHOSEN_NOTE", "OFFLOAD_OLLAMA_NOTE", "RENTED_VARIANT_NOTE", "TOKEN_ARCHS",
           "engine_fine_tune_method", "gpu_assumptions", "noted_assumptions", "resolve_model", "samples_as_tokens",
           "workload_for"]
