"""GPU memory of a workload: weights + KV cache + activations + gradients + optimizer + overhead, per card.

Formulas (constants and their sources in `rules/constants.py`):

* weights = body parameters × bytes of the format + embeddings/lm_head at 16 bit when the format keeps
  them;
* KV cache = 2 × layers × KV heads × head dim × tokens × batch × bytes (MLA: layers × (kv_lora_rank +
  qk_rope_head_dim) × tokens × batch × bytes; sliding-window layers hold at most `sliding_window` tokens;
  with tensor parallelism each card holds max(1, KV heads / tp) heads);
* inference activations = the prefill transient of one layer (a·intermediate + b·hidden bytes per prompt
  token) + last-position logits; vLLM instead reserves 90% of the card and fills it with KV blocks;
* training = model states split by ZeRO stage (DeepSpeed's own accounting) + stored activations
  (Korthikanti; with checkpointing 2·s·b·h per layer + one layer recomputed) + fp32 logits; LoRA = frozen
  base + adapter × 16 B + activations; QLoRA = quantised base + adapter + activations.
"""

from __future__ import annotations

import math
from dataclasses import replace

from knowledge.schema import GPU, Model
from rules import constants as C
from rules.hardware import usable_gib, visible_gib
from rules.precision import (
    compute_dtype_bytes,
    normalise_quant,
    param_split,
    quant_workspace_bytes,
    weight_bytes,
)
from rules.types import MemoryEstimate, Workload

COMPONENTS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "overhead")
TRANSFORMER_ARCHS = frozenset({"decoder", "encoder", "encoder-decoder"})


def _gib(x: float) -> float:
    return x / C.GIB


def _breakdown(**parts: float) -> dict[str, float]:
    return {k: round(_gib(parts.get(k, 0.0)), 4) for k in COMPONENTS}


def num_layers(model: Model) -> int:
    """All transformer layers (encoder + decoder for encoder-decoder models, from `details`)."""
    if model.num_layers:
        return model.num_layers
    enc = int(model.details.get("encoder_layers", 0) or 0)
    dec = int(model.details.get("decoder_layers", 0) or 0)
    return enc + dec


def kv_layers(model: Model) -> int:
    """Layers that keep a KV cache: every decoder layer (none for encoders)."""
    if model.arch == "encoder":
        return 0
    if model.arch == "encoder-decoder":
        return int(model.details.get("decoder_layers", 0) or 0)
    return num_layers(model)


def is_transformer(model: Model) -> bool:
    return (model.arch in TRANSFORMER_ARCHS and num_layers(model) > 0 and model.hidden_size is not None
            and model.num_attention_heads is not None)


def head_dim(model: Model) -> int:
    if model.head_dim:
        return model.head_dim
    assert model.hidden_size and model.num_attention_heads
    return model.hidden_size // model.num_attention_heads


def kv_heads_per_gpu(model: Model, tp: int) -> float:
    """KV heads one card holds under tensor parallelism: max(1, kv_heads / tp) (vLLM replicates a KV head
    when tp exceeds the KV-head count)."""
    kv = model.num_kv_heads or model.num_attention_heads or 1
    return max(1.0, kv / tp)


def kv_bytes_per_token(model: Model, kv_elem_bytes: float, tp: int = 1) -> float:
    """KV-cache bytes per token per card, all layers (sliding windows not applied here)."""
    layers = kv_layers(model) if is_transformer(model) else 0
    if layers == 0:
        return 0.0
    if model.attention == "mla" and model.mla is not None:
        # The latent (kv_lora_rank) and the decoupled RoPE key are cached once per layer, not per head, and
        # every tensor-parallel rank keeps the whole latent (vLLM MLA backend).
        return layers * (model.mla.kv_lora_rank + model.mla.qk_rope_head_dim) * kv_elem_bytes
    # Encoder-decoder: each decoder layer caches self-attention K/V of the target and cross-attention K/V of
    # the source; both count per token of `context` here.
    return 2.0 * layers * kv_heads_per_gpu(model, tp) * head_dim(model) * kv_elem_bytes


def kv_cache_bytes(model: Model, tokens: int, batch: int, kv_elem_bytes: float, tp: int = 1,
                   block: int = 1) -> tuple[float, list[str]]:
    """KV cache of `batch` sequences of `tokens` tokens on one card, with sliding windows applied."""
    notes: list[str] = []
    per_token = kv_bytes_per_token(model, kv_elem_bytes, tp)
    if per_token == 0.0:
        return 0.0, notes
    tokens_all = math.ceil(tokens / block) * block
    if model.sliding_window and tokens > model.sliding_window:
        layers = kv_layers(model)
        local_layers = int(model.details.get("sliding_window_layers", layers))
        local_fraction = min(1.0, local_layers / layers)
        window = math.ceil(model.sliding_window / block) * block
        eff = local_fraction * min(tokens_all, window) + (1 - local_fraction) * tokens_all
        notes.append("sliding-window")
        return per_token * eff * batch, notes
    return per_token * tokens_all * batch, notes


def _prefill_tokens(w: Workload) -> int:
    if w.gen_tokens is not None:
        return max(1, w.context - w.gen_tokens)
    return w.context


def prefill_activation_bytes(model: Model, prompt: int, batch: int, flash: bool) -> float:
    """Peak transient of one forward layer at prefill plus the last-position logits."""
    assert model.hidden_size
    inter = model.intermediate_size or 4 * model.hidden_size
    if model.moe and model.moe.moe_intermediate_size:
        inter = max(model.moe.moe_intermediate_size * model.moe.experts_per_token, inter // 4)
    per_token = C.PREFILL_BYTES_PER_INTERMEDIATE * inter + C.PREFILL_BYTES_PER_HIDDEN * model.hidden_size
    act = per_token * prompt * batch
    if not flash:
        act += C.EAGER_ATTENTION_BYTES_PER_SCORE * (model.num_attention_heads or 1) * prompt * prompt * batch
    if model.vocab_size and model.arch in ("decoder", "encoder-decoder"):
        act += C.LOGITS_BYTES_PER_VOCAB_INFERENCE * model.vocab_size * batch
    return act


def vllm_activation_bytes(model: Model) -> float:
    """vLLM's profiled activation + CUDA-graph peak (llm-d planner), scaled by hidden size when small."""
    base = C.VLLM_ACTIVATION_GIB_MOE if model.is_moe else C.VLLM_ACTIVATION_GIB_DENSE
    ref = C.VLLM_ACTIVATION_REFERENCE_HIDDEN
    scale = min(1.0, (model.hidden_size or ref) / ref)
    return max(C.VLLM_ACTIVATION_MIN_GIB, base * scale) * C.GIB


# --------------------------------------------------------------------------------------------------------
# Inference
# --------------------------------------------------------------------------------------------------------


def _inference(w: Workload, n: int, gpu: GPU | None) -> MemoryEstimate:
    model = w.model
    quant = normalise_quant(w.quant, w.precision, w.engine)
    weights, notes = weight_bytes(model, w.precision, quant)
    workspace = quant_workspace_bytes(model, quant)
    if model.is_moe:
        notes.append("moe-all-experts")
    kv_elem = C.KV_BYTES.get(w.precision, 2.0)
    if w.engine == "vllm":
        return _vllm(w, n, gpu, weights, workspace, kv_elem, notes)
    # transformers (accelerate device_map) and llama.cpp split the layers across cards: weights and KV divide,
    # every card sees its own activation transient and overhead.
    kv, kv_notes = kv_cache_bytes(model, w.context, w.batch, kv_elem, tp=1)
    notes += kv_notes
    prompt = _prefill_tokens(w)
    if w.engine == "llama.cpp":
        prompt = min(prompt, C.LLAMA_CPP_UBATCH_TOKENS)
    act = prefill_activation_bytes(model, prompt, w.batch, w.flash_attention)
    overhead = C.INFERENCE_OVERHEAD_GIB * C.GIB + C.INFERENCE_OVERHEAD_FRACTION * weights / n + workspace / n
    if workspace:
        notes.append("quant-workspace")
    if n > 1:
        notes.append("layer-split")
    per = dict(weights=weights / n, kv_cache=kv / n, activations=act, overhead=overhead)
    per_gpu = sum(per.values())
    total = weights + kv + n * (act + overhead)
    return MemoryEstimate(total_gib=round(_gib(total), 3), per_gpu_gib=round(_gib(per_gpu), 3), gpu_count=n,
                          breakdown=_breakdown(**per), notes=notes, chosen={"context": w.context},
                          cuda_context_gib=C.CUDA_CONTEXT_GIB)


def _vllm(w: Workload, tp: int, gpu: GPU | None, weights: float, workspace: float, kv_elem: float,
          notes: list[str]) -> MemoryEstimate:
    model = w.model
    kv_needed, kv_notes = kv_cache_bytes(model, w.context, w.batch, kv_elem, tp=tp, block=C.VLLM_BLOCK_TOKENS)
    notes += kv_notes
    act = vllm_activation_bytes(model)
    overhead = C.INFERENCE_OVERHEAD_GIB * C.GIB + workspace / tp
    weights_pg = weights / tp
    required = weights_pg + act + overhead + kv_needed
    chosen: dict[str, object] = {"context": w.context,
                                 "gpu_memory_utilization": C.VLLM_GPU_MEMORY_UTILIZATION}
    if tp > 1:
        notes.append(f"tp{tp}")
    if gpu is None:
        per = dict(weights=weights_pg, kv_cache=kv_needed, activations=act, overhead=overhead)
        return MemoryEstimate(total_gib=round(_gib(required * tp), 3), per_gpu_gib=round(_gib(required), 3),
                              gpu_count=tp, breakdown=_breakdown(**per), notes=[*notes, "vllm-no-gpu"],
                              chosen=chosen, required_per_gpu_gib=round(_gib(required), 3),
                              cuda_context_gib=C.CUDA_CONTEXT_GIB)
    # vLLM takes gpu_memory_utilization of the whole card (the CUDA context counts against it) and gives what
    # weights, activations and overhead leave to KV blocks.
    reserved = C.VLLM_GPU_MEMORY_UTILIZATION * visible_gib(gpu) * C.GIB
    pool = max(0.0, reserved - C.CUDA_CONTEXT_GIB * C.GIB - weights_pg - act - overhead)
    per_seq, _ = kv_cache_bytes(model, w.context, 1, kv_elem, tp=tp, block=C.VLLM_BLOCK_TOKENS)
    chosen["kv_pool_gib"] = round(_gib(pool), 3)
    chosen["max_concurrent_sequences"] = int(pool // per_seq) if per_seq > 0 else None
    per = dict(weights=weights_pg, kv_cache=pool, activations=act, overhead=overhead)
    # What the card will show: the reservation — or, when the job needs more than that, what it needs
    # (the engine would refuse to start; reporting the reservation would understate the problem).
    per_gpu = max(reserved - C.CUDA_CONTEXT_GIB * C.GIB, required)
    if required > reserved - C.CUDA_CONTEXT_GIB * C.GIB:
        per["kv_cache"] = kv_needed
        notes.append("vllm-does-not-fit")
    return MemoryEstimate(total_gib=round(_gib(per_gpu * tp), 3), per_gpu_gib=round(_gib(per_gpu), 3),
                          gpu_count=tp, breakdown=_breakdown(**per), notes=[*notes, "vllm-reserve"],
                          chosen=chosen,
                          required_per_gpu_gib=round(_gib(required), 3), cuda_context_gib=C.CUDA_CONTEXT_GIB)


# --------------------------------------------------------------------------------------------------------
# Training (full, LoRA, QLoRA)
# --------------------------------------------------------------------------------------------------------


def lora_adapter_params(model: Model, rank: int) -> float:
    """LoRA parameters on every linear of every decoder layer: r · (d_in + d_out) per adapted matrix."""
    assert model.hidden_size
    h = model.hidden_size
    d = head_dim(model)
    heads = model.num_attention_heads or h // d
    kv = model.num_kv_heads or heads
    per_layer = (h + heads * d) * 2 + (h + kv * d) * 2  # q, o, k, v
    inter = model.intermediate_size or 4 * h
    mlp_mats = 3 if model.mlp != "plain" else 2
    if model.moe is not None:
        expert_inter = model.moe.moe_intermediate_size or inter
        mlp = mlp_mats * (h + expert_inter) * (model.moe.num_experts + model.moe.num_shared_experts)
    else:
        mlp = mlp_mats * (h + inter)
    return float(rank * (per_layer + mlp) * num_layers(model))


def train_activation_bytes(model: Model, seq: int, batch: int, checkpointing: bool, flash: bool,
                           dtype_bytes: float = 2.0, lora: bool = False, fp32_head: bool = False) -> float:
    """Activations kept for backward on one card (micro-batch `batch`), plus the loss's logits.

    LoRA also keeps, per adapted linear, the dropout output and mask of its input (PEFT `lora_dropout`),
    LORA_ACT_BYTES_PER_INPUT × d_in per token: all-linear adapters see inputs of 6·h + intermediate.
    """
    assert model.hidden_size
    layers = num_layers(model)
    h = model.hidden_size
    inter = model.intermediate_size or 4 * h
    if model.moe is not None and model.moe.moe_intermediate_size:
        inter = model.moe.moe_intermediate_size * model.moe.experts_per_token
    per_i = (C.TRAIN_ACT_BYTES_PER_INTERMEDIATE_PLAIN if model.mlp == "plain"
             else C.TRAIN_ACT_BYTES_PER_INTERMEDIATE_GATED)
    scale = dtype_bytes / 2.0
    per_token = C.TRAIN_ACT_BYTES_PER_HIDDEN * h + per_i * inter
    if lora:
        per_token += C.LORA_ACT_BYTES_PER_INPUT * (6 * h + inter)
    layer = per_token * seq * batch * scale
    if not flash:
        layer += C.TRAIN_ACT_EAGER_SCORE_BYTES * (model.num_attention_heads or 1) * seq * seq * batch * scale
    kept = C.CHECKPOINT_BYTES_PER_HIDDEN * h * seq * batch * layers * scale + layer  # inputs + 1 layer
    act = kept if checkpointing else layer * layers
    if model.vocab_size:
        per_vocab = C.LOGITS_BYTES_PER_VOCAB_TRAIN_FP32_HEAD if fp32_head else C.LOGITS_BYTES_PER_VOCAB_TRAIN
        act += per_vocab * model.vocab_size * seq * batch
    return act


def _model_states(p: float, n: int, stage: int, optimizer: str, precision: str, pure_16bit: bool,
                  offload: str, largest_layer: float) -> tuple[float, float, float, float]:
    """(weights, gradients, optimizer, gathered) bytes per card for `p` trainable parameters."""
    if precision == "fp32":
        wb, gb = 4.0, 4.0
        ob = {"adamw": 8.0, "adamw-8bit": 2.0, "sgd": 4.0}[optimizer]
    else:
        wb, gb = 2.0, 2.0
        pure = pure_16bit and optimizer == "adamw"
        ob = C.PURE_16BIT_ADAM_BYTES if pure else C.OPTIMIZER_BYTES_PER_PARAM[optimizer]
    if stage == 0:
        return wb * p, gb * p, ob * p, 0.0
    # DeepSpeed keeps an fp32 gradient partition (4·P/N) for the optimizer step, unless pure 16-bit.
    fp32_grad = (0.0 if pure_16bit else C.DEEPSPEED_FP32_GRAD_BYTES) * p / n
    gathered = C.ZERO3_LARGEST_LAYER_BYTES * largest_layer if stage == 3 else 0.0
    if offload == "optimizer":
        # Optimizer states and the fp32 gradient partition live in CPU RAM; the GPU keeps the 16-bit params.
        return (wb * p if stage < 3 else wb * p / n), 0.0, 0.0, gathered
    if stage in (1, 2):
        # DeepSpeed's estimator counts the 16-bit gradients whole for stages 1 and 2 (4·P + 16·P/N).
        return wb * p, gb * p + fp32_grad, ob * p / n, 0.0
    # Stage 3: 16-bit parameters sharded; 16-bit gradients reduce-scattered as produced (18·P/N in all).
    return wb * p / n, (fp32_grad if not pure_16bit else gb * p / n), ob * p / n, gathered


def training_options(w: Workload, n: int, *, card_known: bool = True) -> list[MemoryEstimate]:
    """The training set-ups a practitioner would try on `n` cards, in order (ZeRO stage, then gradient
    checkpointing), each estimated. They do not depend on the card, so a ranking over many cards can
    compute them once per count; `_training` takes the first that fits a given card."""
    model = w.model
    split = param_split(model)
    notes: list[str] = []
    chosen: dict[str, object] = {"sequence_length": w.context, "micro_batch": w.batch}
    if model.is_moe:
        notes.append("moe-all-experts")
    checkpointing = w.gradient_checkpointing
    auto_ckpt = checkpointing is None
    if checkpointing is None:
        checkpointing = model.params_b > C.GRADIENT_CHECKPOINTING_MIN_PARAMS_B
    stages: list[int]
    if w.zero_stage is not None:
        stages = [w.zero_stage]
    elif n == 1:
        stages = [0]
    elif not card_known:
        stages = [3]
    else:
        stages = [1, 2, 3] if w.task == "train" else [2, 3]
    options = [(s, checkpointing) for s in stages]
    if auto_ckpt and not checkpointing:
        options += [(s, True) for s in stages]
    return [_training_once(w, n, stage, ckpt, split, list(notes), dict(chosen)) for stage, ckpt in options]


def first_fitting(options: list[MemoryEstimate], gpu: GPU | None) -> MemoryEstimate:
    """The first of `options` that fits `gpu` with headroom, else the last (the most memory-frugal)."""
    for est in options:
        if gpu is None or est.per_gpu_gib * (1 + C.HEADROOM_FRACTION) <= usable_gib(gpu):
            return est
    return options[-1]


def _training(w: Workload, n: int, gpu: GPU | None) -> MemoryEstimate:
    if not is_transformer(w.model):
        return _simple(w, n)
    return first_fitting(training_options(w, n, card_known=gpu is not None), gpu)


def _training_once(w: Workload, n: int, stage: int, ckpt: bool, split: object, notes: list[str],
                   chosen: dict[str, object]) -> MemoryEstimate:
    from rules.precision import ParamSplit

    assert isinstance(split, ParamSplit)
    model = w.model
    dtype_bytes = compute_dtype_bytes(w.precision)
    kbit = w.task != "train" and (w.task == "qlora" or normalise_quant(w.quant, w.precision, "transformers")
                                  is not None)
    act = train_activation_bytes(model, w.context, w.batch, ckpt, w.flash_attention, dtype_bytes,
                                 lora=w.task != "train", fp32_head=kbit)
    if w.task == "train":
        weights, grads, opt, gathered = _model_states(split.total, n, stage, w.optimizer, w.precision,
                                                      w.pure_16bit, w.offload, split.largest_layer)
        resident = weights
    else:
        # Frozen base at its format + trainable adapter (and optional embeddings). A LoRA on a quantised
        # precision (int8/int4, or a named format) is a QLoRA-style run on that format.
        quant = normalise_quant(w.quant, w.precision, "transformers")
        if w.task == "qlora" and quant in (None, "int4", "int8"):
            # QLoRA means bitsandbytes: NF4 (QLoRA paper), or LLM.int8 for an 8-bit base.
            quant = "bnb-int8" if w.precision == "int8" else "nf4"
        if quant is not None:
            base, qnotes = weight_bytes(model, w.precision, quant)
            notes += qnotes
            workspace = quant_workspace_bytes(model, quant)
            if workspace:
                notes.append("quant-workspace")
            # prepare_model_for_kbit_training (PEFT; Qwen, TRL and LLaMA-Factory call it) casts the layers it
            # did not quantise — embeddings, lm_head, norms — to fp32: 2 more bytes per embedding parameter.
            base += split.embedding * C.KBIT_TRAINING_EMBEDDING_EXTRA_BYTES
            chosen["quant"] = quant
            notes.append("kbit-fp32-embeddings")
        else:
            base = split.total * (4.0 if w.precision == "fp32" else 2.0)
            workspace = 0.0
        adapter = lora_adapter_params(model, w.lora_rank)
        chosen["lora_rank"] = w.lora_rank
        chosen["lora_params_m"] = round(adapter / 1e6, 1)
        # Adapter in fp32: weight 4 + gradient 4 + Adam moments 8 (= LORA_PARAM_BYTES); trainable embeddings:
        # 16-bit copy 2 + gradient 2 + fp32 moments 8 (= TRAINABLE_EMBEDDING_BYTES).
        emb = split.embedding if w.train_embeddings else 0.0
        if emb:
            notes.append("trainable-embeddings")
        t_w = adapter * C.LORA_PARAM_BYTES / 4 + emb * 2.0
        t_g = adapter * C.LORA_PARAM_BYTES / 4 + emb * 2.0
        t_o = adapter * C.LORA_PARAM_BYTES / 2 + emb * (C.TRAINABLE_EMBEDDING_BYTES - 4.0)
        shard_w = n if stage == 3 else 1
        shard_o = n if stage >= 1 else 1
        base_pg = base / shard_w
        weights, grads, opt = base_pg + t_w / shard_w, t_g / (n if stage >= 2 else 1), t_o / shard_o
        gathered = C.ZERO3_LARGEST_LAYER_BYTES * split.largest_layer / 2 if stage == 3 else 0.0
        resident = base_pg
        gathered += workspace / shard_w
    overhead = C.TRAIN_OVERHEAD_GIB * C.GIB + C.TRAIN_OVERHEAD_FRACTION * resident + gathered
    if stage:
        notes.append(f"zero{stage}")
    if w.offload == "optimizer":
        notes.append("offload-optimizer")
    if ckpt:
        notes.append("gradient-checkpointing")
    chosen["zero_stage"] = stage
    chosen["gradient_checkpointing"] = ckpt
    per = dict(weights=weights, gradients=grads, optimizer=opt, activations=act, overhead=overhead)
    per_gpu = sum(per.values())
    return MemoryEstimate(total_gib=round(_gib(per_gpu * n), 3), per_gpu_gib=round(_gib(per_gpu), 3),
                          gpu_count=n, breakdown=_breakdown(**per), notes=notes, chosen=chosen,
                          cuda_context_gib=C.CUDA_CONTEXT_GIB)


# --------------------------------------------------------------------------------------------------------
# Models without a transformer config: CNNs, diffusion, ViT/CLIP, Whisper
# --------------------------------------------------------------------------------------------------------


def _simple(w: Workload, n: int) -> MemoryEstimate:
    """Sized from params_b and `details` (see constants: DIFFUSION_/CNN_ coefficients)."""
    model = w.model
    p = model.params_b * 1e9
    quant = normalise_quant(w.quant, w.precision, "transformers")
    weights, notes = (weight_bytes(model, w.precision, quant) if quant else
                      (p * C.BYTES_PER_PARAM_PLAIN[w.precision], []))
    details = model.details
    batch = w.batch
    dtype_scale = compute_dtype_bytes(w.precision) / 2.0
    if model.arch == "diffusion":
        res = w.image_resolution or int(details.get("native_resolution", 512))
        act = C.DIFFUSION_ACTIVATION_GIB_PER_MPIXEL * (res * res / 1e6) * batch * dtype_scale * C.GIB
        notes.append("diffusion")
        chosen: dict[str, object] = {"resolution": res, "batch": batch}
    elif "gflops_per_image" in details:
        gflops = float(details["gflops_per_image"])
        act = C.CNN_ACTIVATION_MIB_PER_GFLOP * gflops * batch * dtype_scale * 2**20
        chosen = {"batch": batch}
    else:
        # Encoder-decoder/dual encoders without a full config: the weights dominate; 10% for activations.
        act = 0.1 * weights * batch
        chosen = {"batch": batch}
    grads = opt = 0.0
    if w.task in ("train", "lora", "qlora"):
        act *= C.TRAIN_CNN_ACT_MULTIPLIER if model.arch != "diffusion" else 4.0
        components = details.get("components")
        unet = components.get("unet_params_b") if isinstance(components, dict) else None
        full = float(unet) * 1e9 if unet else p  # diffusion fine-tuning trains the UNet only
        trainable = full if w.task == "train" else 0.02 * full
        grads = 2.0 * trainable
        opt = C.OPTIMIZER_BYTES_PER_PARAM[w.optimizer] * trainable
    overhead = C.INFERENCE_OVERHEAD_GIB * C.GIB + C.INFERENCE_OVERHEAD_FRACTION * weights
    per = dict(weights=weights, activations=act, gradients=grads, optimizer=opt, overhead=overhead)
    per_gpu = sum(per.values())
    if n > 1:
        notes.append("data-parallel")
    return MemoryEstimate(total_gib=round(_gib(per_gpu * n), 3), per_gpu_gib=round(_gib(per_gpu), 3),
                          gpu_count=n, breakdown=_breakdown(**per), notes=notes, chosen=chosen,
                          cuda_context_gib=C.CUDA_CONTEXT_GIB)


def estimate_memory(workload: Workload, gpu_count: int = 1, gpu: GPU | None = None) -> MemoryEstimate:
    """Memory of `workload` spread over `gpu_count` cards (see the module docstring for the formulas)."""
    if gpu_count < 1:
        raise ValueError("gpu_count must be at least 1")
    model = workload.model
    if model.arch == "encoder" and workload.context > (model.max_context or C.ENCODER_DEFAULT_CONTEXT):
        workload = replace(workload, context=model.max_context or C.ENCODER_DEFAULT_CONTEXT)
    if workload.task == "inference":
        if not is_transformer(model):
            return _simple(workload, gpu_count)
        return _inference(workload, gpu_count, gpu)
    return _training(workload, gpu_count, gpu)
