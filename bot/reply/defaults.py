"""The defaults a question leaves to the advisor, each stated back as an assumption: the model, the card
pool, precision, context, batch and engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import rules
from bot.reply.image_service import image_service
from bot.reply.mixed_load import shared_cache
from bot.reply.model import (
    Assumption,
)
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
from bot.understand.documents import BATCH_JOB_OUTPUT_NOTE, SAME_LENGTH_OUTPUT_NOTE
from bot.understand.intent import SERVICE_NOTE, WHY_SLOW_NOTE
from bot.understand.notebooks import NOTEBOOK_NOTES
from bot.understand.question import MAX_BATCH, TRAINING_SWITCHES, Question
from bot.understand.slots.audio import CTRANSLATE2_NOTE, FASTER_WHISPER_BEAM_NOTE
from bot.understand.slots.context import BATCH_AS_USERS_NOTE, PEOPLE_AT_ONCE_NOTE, PROMPT_CONTEXT_NOTE
from bot.understand.slots.engine import OLLAMA_NOTE
from bot.understand.slots.runtime import TENSOR_PARALLEL_NOTE
from bot.understand.slots.samples import SAMPLE_LENGTH_STATED_NOTE
from bot.understand.slots.service_rate import LATENCY_AS_TTFT_NOTE, LATENCY_OUTPUT_NOTE
from bot.understand.slots.task import COMPUTE_OPTIMAL_NOTE
from bot.understand.slots.workload_size import DAILY_AVERAGE_NOTE
from knowledge.base import KnowledgeBase
from knowledge.engines import load_engine_profiles
from knowledge.schema import GPU, Model, MoE
from rules import constants as C
from rules import memory_lora_serving as LS
from rules import weight_formats as WF
from rules.engine_profile import training_fact
from rules.hardware import FLASH_ATTENTION_2_MIN_CC, compute_capability, runs_precision
from rules.memory_inference import default_build_length
from rules.memory_training import offload_of
from rules.speculative import EAGLE_HEAD_ID, eagle_head
from rules.speed_media import diffusion_steps
from rules.types import Precision, Task, Workload

DEFAULT_CONTEXT = 4096
"""Tokens per sequence when the question gives none: a typical chat turn with history, not the model's
full advertised window (assuming the full window is a common calculator mistake: design.md)."""
DEFAULT_BATCH = 1
SHORT_SAMPLE_STEP_TOKENS = 2048
"""A training job whose samples are shorter than this gets a micro-batch of samples up to this many tokens a step
(TRAINER_MICRO_BATCH at most) when none is stated: a 2,048-token step is the sequence most recipes train at."""
TRAINER_MICRO_BATCH = 8
"""The most samples a micro-step is given by default: Hugging Face TrainingArguments' own per_device_train_batch_size
default (8)."""
COMPUTE_OPTIMAL_TOKENS_PER_PARAM = 20.0
"""Training tokens a parameter for a compute-optimal model: Hoffmann et al. 2022 ("Training Compute-Optimal Large
Language Models", Chinchilla), whose fits give about 20 (Chinchilla itself: 70B parameters on 1.4T tokens)."""
DEFAULT_PRECISION: Precision = "bf16"
QLORA_QUANT = "nf4-dq"
"""QLoRA's base: NF4 with double-quantised scales (4.127 bits a weight) unless the question names the format."""
TOKEN_ARCHS = ("decoder", "encoder", "encoder-decoder")
"""Architectures whose memory depends on a context length in tokens (not images)."""
MAX_INFERENCE_GPUS = 64
"""Tensor parallelism inside a node of 8, whole nodes beyond (pipeline parallel); never above 8 nodes."""
LONG_CONTEXT_TOKENS = 16384
"""From here on the KV cache, not the weights, is what decides the card: the reply explains it."""


SERVING_ENGINE_MIN_PARAMS_B = 100.0
"""From this size a model is run on a serving engine even for one prompt: its makers point to vLLM, SGLang,
LMDeploy or TensorRT-LLM for it (DeepSeek-V3's README "How to Run Locally" lists those and no transformers
path; Llama 3.1 405B FP8 ships for vLLM), and transformers' generate over a layer split of many cards
decodes a few tokens a second."""


OFFLOAD_CHOSEN_NOTE = "offload-chosen"
"""On a question whose layer split the reply chose (bot.reply.offload): the reply says so under Assumed."""


OFFLOAD_OLLAMA_NOTE = "offload-ollama"
"""On a question named with Ollama whose model does not fit the card whole: the split Ollama makes by itself."""

LONG_PROMPT_SERVING_TOKENS = 131_072
"""Past this many tokens a prompt is run on a serving engine that prefills it in chunks (vLLM): transformers
prefills a prompt whole, one layer's MLP for every token at once, which is tens of GiB at a million tokens, and
the makers of the 1M-token models show them on vLLM."""


def noted_assumptions(question: Question, workload: Workload) -> list[Assumption]:
    """What the reading chose on the asker's behalf and noted (bot.understand): each said under Assumed."""
    out = []
    for note in (OFFLOAD_CHOSEN_NOTE, OFFLOAD_OLLAMA_NOTE):
        if note in question.notes:
            field = "cpu_moe_layers" if question.cpu_moe_layers is not None else "gpu_layers"
            out.append(Assumption(field=field, value=getattr(question, field), reason=note))
    if (PEOPLE_AT_ONCE_NOTE in question.notes and workload.task == "inference" and workload.model.arch == "decoder"
            and (question.users or question.batch)):
        out.append(Assumption(field="batch", value=question.users or question.batch, reason=PEOPLE_AT_ONCE_NOTE))
    if (workload.model.details.get("reranker") and workload.task == "inference" and question.qps
            and not question.texts_per_request):
        # a reranker scores each query's candidates: its cards grow with them, which the question did not say
        out.append(Assumption(field="texts_per_request", value=1, reason="reranker-candidates"))
    if BATCH_AS_USERS_NOTE in question.notes and question.users is not None:
        out.append(Assumption(field="users", value=question.users, reason=BATCH_AS_USERS_NOTE))
    for note in (BATCH_JOB_OUTPUT_NOTE, SAME_LENGTH_OUTPUT_NOTE, LATENCY_OUTPUT_NOTE):
        if note in question.notes and workload.task == "inference" and question.gen_tokens:
            out.append(Assumption(field="gen_tokens", value=question.gen_tokens, reason=note))
    if DAILY_AVERAGE_NOTE in question.notes and question.qps:
        out.append(Assumption(field="qps", value=round(question.qps, 2), reason=DAILY_AVERAGE_NOTE))
    if LATENCY_AS_TTFT_NOTE in question.notes and question.ttft_s:
        out.append(Assumption(field="ttft_s", value=question.ttft_s, reason=LATENCY_AS_TTFT_NOTE))
    if FASTER_WHISPER_BEAM_NOTE in question.notes and question.beam_size:
        out.append(Assumption(field="beam_size", value=question.beam_size, reason=FASTER_WHISPER_BEAM_NOTE))
    if "preference-as-sft" in question.notes and workload.task != "inference":
        out.append(Assumption(field="task", value=workload.task, reason="preference-as-sft"))
    return out


RENTED_VARIANT_NOTE = "gpu-rented-variant"
"""The card was chosen among the variants of a bare name by its price on the cloud named (bot.reply.variant)."""


def gpu_assumptions(question: Question) -> list[Assumption]:
    """The card read from words that do not name it: a bare "H100" (its 80 GB variant), a free notebook."""
    out: list[Assumption] = []
    if question.gpu_defaulted and question.gpu:
        rented = RENTED_VARIANT_NOTE in question.notes
        out.append(Assumption(field="gpu", value=question.gpu,
                              reason="gpu-rented-variant" if rented else "gpu-default-variant"))
    for note in NOTEBOOK_NOTES:
        if note in question.notes and question.gpu:
            out.append(Assumption(field="gpu", value=question.gpu, reason=note))
    return out


def resolve_model(question: Question, kb: KnowledgeBase) -> Model | None:
    if question.model is not None:
        return kb.models.get(question.model)
    if question.params_b is not None:
        generic = rules.generic_model(question.params_b)
        active = question.active_params_b
        if active is not None and active < question.params_b:
            # "a 314B MoE with 86B active": every expert in memory, the active ones a token computes and reads
            # (rules.speed.routed_expert_params takes the routed share from the counts when no width is known)
            generic = generic.model_copy(update={
                "moe": MoE(num_experts=GENERIC_EXPERTS, experts_per_token=GENERIC_EXPERTS_PER_TOKEN),
                "active_params_b": active, "name": f"{generic.name.removesuffix(' decoder')} MoE decoder "
                                                  f"({active:g}B active)"})
        return generic
    return None


GENERIC_EXPERTS = 8
GENERIC_EXPERTS_PER_TOKEN = 2
"""A mixture of experts known only by its sizes is taken to route 2 of 8 experts (Mixtral 8x7B and 8x22B, Grok-1):
only which share of the experts a batch reaches depends on it; the active count stated sets each token's work."""


def samples_as_tokens(question: Question, workload: Workload) -> tuple[Question, Assumption | None]:
    """A training job counted in samples with no length ("on 10k samples"): its tokens at the job's context per
    sample, stated as an assumption — an upper bound (short samples padded to the longest in their batch come
    close to it; packed ones fill it exactly)."""
    if question.tokens or workload.task == "inference" or workload.model.arch == "diffusion":
        return question, None
    if COMPUTE_OPTIMAL_NOTE in question.notes and workload.task == "train":
        # "how many tokens should a 1B model be trained on (Chinchilla)": Hoffmann et al. 2022's ≈ 20 a parameter
        tokens = COMPUTE_OPTIMAL_TOKENS_PER_PARAM * workload.model.params_b * 1e9
        return (question.model_copy(update={"tokens": tokens}),
                Assumption(field="tokens", value=tokens, reason="compute-optimal"))
    if not question.training_samples and question.training_steps:
        # An optimizer step (HF Trainer's max_steps) is the micro batch sized × its gradient accumulation × the
        # data-parallel cards, each sequence at the context (audit 31 HIGH 80: steps × micro batch alone, 4–16×
        # short); a global batch stated was turned into that accumulation when read
        cards = question.gpu_count or 1
        tokens = (float(question.training_steps) * workload.batch * (question.grad_accumulation or 1) * cards
                  * workload.context)
        return (question.model_copy(update={"tokens": tokens}),
                Assumption(field="tokens", value=tokens, reason="steps-at-batch"))
    if not question.training_samples:
        return question, None
    tokens = float(question.training_samples) * (question.training_epochs or 1.0) * workload.context
    stated = SAMPLE_LENGTH_STATED_NOTE in question.notes and "context" in question.stated
    return (question.model_copy(update={"tokens": tokens}),
            Assumption(field="tokens", value=tokens, reason="samples-at-length" if stated else "samples-at-context"))


def lora_serving_assumptions(question: Question, engine: str) -> list[Assumption]:
    """Served LoRA adapters: the GPU slots and their rank when the text leaves them to the engine
    (rules.memory_lora_serving: vLLM --max-loras 1 at --max-lora-rank 16, SGLang --max-loras-per-batch 8, every
    adapter on the card elsewhere), said under Assumed since they, not the adapter count, size the memory."""
    out = []
    if question.max_loras is None:
        slots = LS.gpu_slots(engine, question.lora_adapters, None)
        reason = f"{engine}-lora-slots" if engine in LS.SLOT_RULES else "lora-adapters-on-card"
        out.append(Assumption(field="max_loras", value=slots, reason=reason))
    if question.lora_rank is None:
        rank = LS.VLLM_DEFAULT_MAX_LORA_RANK if engine == "vllm" else Workload.lora_rank  # both 16
        reason = "vllm-max-lora-rank" if engine == "vllm" else "default"
        out.append(Assumption(field="lora_rank", value=rank, reason=reason))
    return out


def engine_fine_tune_method(question: Question) -> Task | None:
    """The method a plain "fine-tune" gets on the engine the question names, when that engine's own default is
    LoRA or QLoRA (TrainingFact.fine_tune_method); None when the text said all parameters, named a method, or
    the engine trains every parameter by default."""
    if question.task != "train" or not question.generic_fine_tune or question.engine is None:
        return None
    profile = load_engine_profiles().get(question.engine)
    if profile is None or profile.training is None:
        return None
    return profile.training.fine_tune_method


def spills_on_desktop(question: Question, model: Model, gpu: GPU | None, task: str) -> bool:
    """A model asked to be slow on a desktop card whose memory cannot hold its released weights: the asker runs
    it already, and what runs a model past a GeForce card's memory is llama.cpp or Ollama with a GGUF and layers in
    system RAM, the reason it is slow (audit 30 HIGH 64: sized in bf16 on transformers, an answer to a job nobody
    runs). Stated engines and precisions stay as asked."""
    if (WHY_SLOW_NOTE not in question.notes or question.engine is not None or "precision" in question.stated
            or question.quant is not None or task != "inference" or model.arch != "decoder" or gpu is None
            or gpu.form != "consumer"):
        return False
    native_bytes = WF.BYTES_PER_PARAM_PLAIN.get(model.native_precision, 2.0)
    return model.params_b * 1e9 * native_bytes > gpu.memory_gb * 1e9 * (question.gpu_count or 1)


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


def context_parallel_of(question: Question, task: str, gpu: GPU | None, assumptions: list[Assumption]) -> int:
    """The cards a training sequence is split over: as stated; named with no degree ("FSDP + context parallel"),
    the cards of one machine the question has (at most GPUS_PER_NODE, the NVLink domain ring attention and
    Ulysses run in), said under Assumed; 1 otherwise."""
    if question.context_parallel is None or task == "inference":
        return 1
    if question.context_parallel:
        return question.context_parallel
    degree = max(1, min(C.GPUS_PER_NODE, question.gpu_count or C.GPUS_PER_NODE))
    assumptions.append(Assumption(field="context_parallel", value=degree, reason="context-parallel-node"))
    return degree
