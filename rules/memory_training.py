"""Training memory per card: model states split by ZeRO stage / FSDP, stored activations, the loss's logits.

* full training = weights + gradients + optimizer states split by ZeRO stage (DeepSpeed's own accounting;
  FSDP full-shard as ZeRO-3) + stored activations (Korthikanti; with checkpointing 2·s·b·h per layer plus the
  larger of one layer recomputed and the loss's logits, which backward frees before it recomputes a layer;
  Unsloth's offloaded checkpointing moves those layer inputs to host RAM) + the logits at the loss (fp32,
  whole sequence; none with a chunked loss such as Unsloth's, 16-bit chunks for torchtune's);
* LoRA = frozen base + adapter × 16 B + activations; QLoRA = quantised base + adapter + activations.

The engine profile (rules/engine_profile.py) says how the runtime checkpoints, computes the loss and shards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from knowledge.engine_facts import TrainingFact
from knowledge.schema import GPU, Model
from rules import constants as C
from rules.engine_profile import (
    caches_blocks_by_shape,
    loss_shift_copy_bytes,
    optimizer_for,
    profile_for,
    rope_table_bytes,
    runs_model_code,
    scores_materialised,
    training_fact,
)
from rules.hardware import machines, usable_gib
from rules.memory_adapters import adapter_activation_bytes_per_token, adapter_params, linear_shapes
from rules.memory_common import breakdown, gib, num_layers
from rules.precision import (
    ParamSplit,
    compute_dtype_bytes,
    normalise_quant,
    param_split,
    quant_workspace_bytes,
    weight_bytes,
)
from rules.types import MemoryEstimate, Workload


def lora_adapter_params(model: Model, rank: int) -> float:
    """LoRA parameters on every linear of every decoder layer: r · (d_in + d_out) per adapted matrix."""
    per_layer = sum((d_in + d_out) * copies for d_in, d_out, copies in linear_shapes(model).values())
    return float(rank * per_layer * num_layers(model))


def train_activation_bytes(model: Model, seq: int, batch: int, checkpointing: bool, flash: bool,
                           dtype_bytes: float = 2.0, lora: bool = False, fp32_head: bool = False,
                           offloaded_checkpoints: bool = False, chunked_loss: bool = False,
                           adapter_bytes_per_token: float | None = None,
                           chunked_loss_bytes_per_value: float = 0.0, shift_copy_bytes: float = 0.0,
                           own_loss_bytes_per_value: float | None = None) -> float:
    """Activations kept for backward on one card (micro-batch `batch`), plus the loss's logits (and the shifted
    copy of them an older loss makes, `shift_copy_bytes` per value).

    Offloaded checkpointing (Unsloth) keeps the layer inputs in host RAM: the card holds one layer being
    recomputed. A chunked loss holds one slice of logits at a time, sized by the engine from free memory:
    not counted here (a gap, not a guess) unless the engine states what every chunk keeps
    (`chunked_loss_bytes_per_value`: torchtune keeps each chunk's 16-bit logits for backward).

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
    if adapter_bytes_per_token is not None:
        per_token += adapter_bytes_per_token
    elif lora:
        per_token += C.LORA_ACT_BYTES_PER_INPUT * (6 * h + inter)
    layer = per_token * seq * batch * scale
    if not flash:
        layer += C.TRAIN_ACT_EAGER_SCORE_BYTES * (model.num_attention_heads or 1) * seq * seq * batch * scale
    inputs = 0.0 if offloaded_checkpoints else C.CHECKPOINT_BYTES_PER_HIDDEN * h * seq * batch * layers * scale
    logits = 0.0
    if model.vocab_size and not chunked_loss:
        per_vocab = C.LOGITS_BYTES_PER_VOCAB_TRAIN_FP32_HEAD if fp32_head else C.LOGITS_BYTES_PER_VOCAB_TRAIN
        if own_loss_bytes_per_value:
            per_vocab = own_loss_bytes_per_value  # the engine's own loss kernel (Unsloth 2024.4-2024.11)
        logits = (per_vocab + shift_copy_bytes) * model.vocab_size * seq * batch
    elif model.vocab_size:
        logits = chunked_loss_bytes_per_value * model.vocab_size * seq * batch
    if not checkpointing:
        return layer * layers + logits
    # The loss's logits are freed by its backward, before the last layer is recomputed: the two never coexist.
    return inputs + max(layer, logits)


def _model_states(p: float, n: int, stage: int, optimizer: str, precision: str, pure_16bit: bool,
                  offload: str, largest_layer: float) -> tuple[float, float, float, float]:
    """(weights, gradients, optimizer, gathered) bytes per card for `p` trainable parameters."""
    if precision == "fp32":
        wb, gb = 4.0, 4.0
        ob = {"adamw": 8.0, "adamw-8bit": 2.0, "sgd": 4.0, "adafactor": 0.0}[optimizer]
    else:
        wb, gb = 2.0, 2.0
        if not pure_16bit:
            ob = C.OPTIMIZER_BYTES_PER_PARAM[optimizer]  # the fp32 master and the optimizer's states
        else:
            # no master: AdamW's moments in the 16-bit dtype, the others' states as they keep them
            ob = C.PURE_16BIT_ADAM_BYTES if optimizer == "adamw" else C.ADAPTER_OPTIMIZER_BYTES[optimizer]
    if stage == 0:
        return wb * p, gb * p, ob * p, 0.0
    # DeepSpeed keeps an fp32 gradient partition (4·P/N) for the optimizer step, unless pure 16-bit.
    fp32_grad = (0.0 if pure_16bit else C.DEEPSPEED_FP32_GRAD_BYTES) * p / n
    gathered = C.ZERO3_LARGEST_LAYER_BYTES * largest_layer if stage == 3 else 0.0
    if offload == "all" and stage == 3:
        # offload_param: every state lives in CPU RAM; the card holds the layer being gathered.
        return 0.0, 0.0, 0.0, gathered
    if offload in ("optimizer", "all"):
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
    profile = profile_for(w)
    chosen: dict[str, object] = {"sequence_length": w.context, "micro_batch": w.batch, "engine_profile": profile.id}
    if model.is_moe:
        notes.append("moe-all-experts")
    checkpointing = w.gradient_checkpointing
    fact = training_fact(w, profile)
    auto_ckpt = checkpointing is None and not fact.checkpointing_default
    if checkpointing is None:
        # The engine's own default (Unsloth, LLaMA-Factory turn it on); otherwise, on a known card, off and
        # switched on only when the job needs it to fit (`first_fitting` tries the options without
        # recomputation first). With no card to fit, what a practitioner would do beyond 1B parameters.
        checkpointing = bool(fact.checkpointing_default) or (
            not card_known and model.params_b > C.GRADIENT_CHECKPOINTING_MIN_PARAMS_B)
    stages: list[int]
    if w.zero_stage is not None:
        stages = [w.zero_stage]
    elif offload_of(w, fact) == "all":
        # Parameters can be offloaded by ZeRO-3 (DeepSpeed config docs, offload_param) or FSDP FULL_SHARD
        # (CPUOffload(offload_params=True)) only, on one card as on many, a full fine-tune or an adapter run.
        stages = [3]
    elif n == 1 and w.offload == "optimizer" and w.task == "train":
        stages = [2]  # ZeRO-Offload is built on ZeRO-2 (DeepSpeed docs): one card offloads with stage 2
    elif n == 1 or profile.multi_gpu.mode == "data-parallel":
        # one card; or an engine that runs several only as DDP replicas (Unsloth), each holding the whole job
        stages = [0]
    elif fact.sharding == "fsdp" or not card_known:
        # FSDP FULL_SHARD shards parameters, gradients and optimizer states: ZeRO-3's accounting.
        stages = [3]
    else:
        stages = [1, 2, 3] if w.task == "train" else [2, 3]
    options = [(s, checkpointing) for s in stages]
    if auto_ckpt and not checkpointing:
        options += [(s, True) for s in stages]
    return [_training_once(w, n, stage, ckpt, split, list(notes), dict(chosen)) for stage, ckpt in options]


def offload_of(w: Workload, fact: TrainingFact) -> Literal["none", "optimizer", "all"]:
    """What the job keeps in host RAM. FSDP has one CPU offload, of the parameters with their gradients (the
    optimizer then steps on the CPU: torch.distributed.fsdp.CPUOffload, whose only switch is offload_params),
    so "CPU offload" on an FSDP engine is parameter offload, where DeepSpeed's ZeRO-Offload moves the
    optimizer states alone."""
    if w.offload == "optimizer" and fact.cpu_offload == "parameters":
        return "all"
    return w.offload


def first_fitting(options: list[MemoryEstimate], gpu: GPU | None,
                  need: Callable[[MemoryEstimate], float] | None = None) -> MemoryEstimate:
    """The first of `options` (least sharding, no recomputation first) that fits `gpu` leaving the
    recommended margin; else the first that fits at all; else the last (the most memory-frugal). So
    gradient checkpointing and deeper ZeRO stages are chosen only when the job needs them to fit. `need` is
    what an option must keep on the card (default: all of it; a paged optimizer's states can leave)."""
    if gpu is None:
        return options[0]
    usable = usable_gib(gpu)
    needs = [need(est) if need else est.per_gpu_gib for est in options]
    for est, n in zip(options, needs, strict=True):
        if n <= usable * (1 - C.HEADROOM_FRACTION):
            return est
    for est, n in zip(options, needs, strict=True):
        if n <= usable:
            return est
    return options[-1]


def _chunked_loss_bytes(w: Workload, fact: TrainingFact) -> float:
    if w.compiled and fact.chunked_loss_bytes_per_value_compiled is not None:
        return fact.chunked_loss_bytes_per_value_compiled
    return fact.chunked_loss_bytes_per_value


def _training_once(w: Workload, n: int, stage: int, ckpt: bool, split: ParamSplit, notes: list[str],
                   chosen: dict[str, object]) -> MemoryEstimate:
    model = w.model
    profile = profile_for(w)  # resolved once: the helpers below read it or its training fact
    fact = training_fact(w, profile)
    optimizer = optimizer_for(w, fact)
    if w.optimizer is None and fact.optimizer_default is not None:
        chosen["optimizer"] = optimizer  # the engine's documented set-up, stated in the reply
    offloaded = ckpt and (fact.checkpointing == "offload" or w.activation_offloading)
    offload = offload_of(w, fact)
    host: float | None = None
    chunked_loss = w.chunked_loss if w.chunked_loss is not None else fact.loss_logits_bytes_per_value == 0.0
    adapter_act = (adapter_activation_bytes_per_token(w, fact.adapter_input_bytes)
                   if w.task != "train" else None)
    dtype_bytes = compute_dtype_bytes(w.precision)
    kbit = w.task != "train" and (w.task == "qlora" or normalise_quant(w.quant, w.precision, "transformers")
                                  is not None)
    sequences = w.batch * (2 if w.preference_pairs else 1)  # DPO: chosen + rejected per sample
    # context parallelism: each card holds its slice of every sequence (its tokens' activations and logits)
    seq = -(-w.context // max(1, w.context_parallel))
    act = train_activation_bytes(model, seq, sequences, ckpt, not scores_materialised(w, profile),
                                 dtype_bytes, lora=w.task != "train",
                                 fp32_head=kbit and fact.kbit_upcasts_non_quantised,
                                 offloaded_checkpoints=offloaded, chunked_loss=chunked_loss,
                                 adapter_bytes_per_token=adapter_act,
                                 chunked_loss_bytes_per_value=_chunked_loss_bytes(w, fact),
                                 own_loss_bytes_per_value=fact.loss_logits_bytes_per_value,
                                 shift_copy_bytes=loss_shift_copy_bytes(w, fact))
    if not runs_model_code(w, fact):
        notes.append("engine-lacks-model-code")
    if offloaded:
        notes.append("offloaded-checkpointing")
    if chunked_loss:
        notes.append("chunked-loss")
    if w.task == "train":
        pure = w.pure_16bit or fact.optimizer_states == "param"
        weights, grads, opt, gathered = _model_states(split.total, n, stage, optimizer, w.precision,
                                                      pure, offload, split.largest_layer)
        if opt and w.precision != "fp32" and not pure:
            # The fp32 master in the optimizer's share is the model itself to a paged optimizer: only the
            # moments can leave the card.
            master = C.OPTIMIZER_BYTES_PER_PARAM[optimizer] - C.ADAPTER_OPTIMIZER_BYTES[optimizer]
            chosen["pageable_optimizer_gib"] = round(
                gib(opt * C.ADAPTER_OPTIMIZER_BYTES[optimizer] / (master + C.ADAPTER_OPTIMIZER_BYTES[optimizer])), 3)
        if w.optimizer_in_backward:
            # Each parameter is stepped as its gradient arrives: one layer's gradients exist at a time.
            grads = min(grads, 2.0 * split.largest_layer)
            notes.append("optimizer-in-backward")
        if w.preference_pairs:
            # The frozen reference policy, 16-bit, sharded like the parameters under ZeRO-3 / FSDP.
            weights += 2.0 * split.total / (n if stage == 3 else 1)
            notes.append("dpo-reference")
        resident = weights
    else:
        # Frozen base at its format + trainable adapter (and optional embeddings). A LoRA on a quantised
        # precision (int8/int4, or a named format) is a QLoRA-style run on that format.
        quant = normalise_quant(w.quant, w.precision, "transformers")
        if w.task == "qlora" and quant in (None, "int4", "int8"):
            # QLoRA means bitsandbytes: NF4 (QLoRA paper), or LLM.int8 for an 8-bit base.
            quant = "bnb-int8" if w.precision == "int8" else "nf4"
        if quant == "nf4" and fact.kbit_double_quant:
            quant = "nf4-dq"
        if quant is not None:
            base, qnotes = weight_bytes(model, w.precision, quant)
            notes += qnotes
            workspace = quant_workspace_bytes(model, quant, one_matrix=not caches_blocks_by_shape(w, profile))
            if workspace:
                notes.append("quant-workspace")
            # prepare_model_for_kbit_training (PEFT; Qwen's and TRL's scripts call it, LLaMA-Factory and
            # Unsloth do not: their profiles say so) casts the layers it did not quantise — embeddings,
            # lm_head, norms — to fp32: 2 more bytes per embedding parameter. It skips that cast for GPTQ models
            # (huggingface/peft src/peft/utils/other.py, `if not is_gptq_quantized`), so a GPTQ base keeps its
            # 16-bit embeddings. TRL's SFTTrainer casts embeddings and lm_head back to bf16 when training in
            # bf16 (peft_module_casting_to_bf16, huggingface/trl PR 1110): not modelled, the rules carry no
            # compute dtype for a k-bit base.
            if fact.kbit_upcasts_non_quantised and quant != "gptq":
                base += split.embedding * C.KBIT_TRAINING_EMBEDDING_EXTRA_BYTES
                notes[:] = [n for n in notes if n != "embeddings-16bit"]  # no longer 16-bit: fp32 replaces it
                notes.append("kbit-fp32-embeddings")
            chosen["quant"] = quant
        else:
            base = split.total * (4.0 if w.precision == "fp32" else 2.0)
            workspace = 0.0
        adapter = adapter_params(w)
        chosen["lora_rank"] = w.lora_rank
        chosen["lora_params_m"] = round(adapter / 1e6, 1)
        # Adapter in fp32: weight 4 + gradient 4 + the optimizer's moments (ADAPTER_OPTIMIZER_BYTES); trainable
        # embeddings: 16-bit copy 2 + gradient 2 + fp32 moments 8 (= TRAINABLE_EMBEDDING_BYTES).
        emb = split.embedding if w.train_embeddings else 0.0
        if emb:
            notes.append("trainable-embeddings")
        t_w = adapter * C.LORA_PARAM_BYTES / 4 + emb * 2.0
        t_g = adapter * C.LORA_PARAM_BYTES / 4 + emb * 2.0
        t_o = adapter * C.ADAPTER_OPTIMIZER_BYTES[optimizer] + emb * (C.TRAINABLE_EMBEDDING_BYTES - 4.0)
        shard_w = n if stage == 3 else 1
        shard_o = n if stage >= 1 else 1
        base_pg = base / shard_w
        weights, grads, opt = base_pg + t_w / shard_w, t_g / (n if stage >= 2 else 1), t_o / shard_o
        gathered = C.ZERO3_LARGEST_LAYER_BYTES * split.largest_layer / 2 if stage == 3 else 0.0
        if offload == "all" and stage == 3:
            # The frozen base and the adapters with their gradients and moments wait in host RAM; the card
            # holds the layer being gathered (FSDP's CPU offload, Answer.AI's fsdp_qlora; ZeRO-3 offload_param).
            host = base + t_w + t_g + t_o
            weights = grads = opt = base_pg = 0.0
        elif offload != "none" and stage >= 1:
            host = t_g + t_o  # ZeRO-Offload: the adapters' optimizer states and fp32 gradients
            grads = opt = 0.0
        resident = base_pg
        gathered += workspace / shard_w
    rope = rope_table_bytes(w, profile)
    if rope:
        # Buffers: every replica and every ZeRO-3 rank holds them whole.
        weights += rope
        resident += rope
        notes.append("rope-tables")
    # The fraction is the caching allocator's reserve over what is allocated: none when sizing allocated bytes,
    # nor under expandable segments (Unsloth sets them), which grow in place rather than caching every size.
    # Allocated bytes count tensors only: the constant is what reserved / nvidia-smi readings show beyond them.
    reserve = C.TRAIN_OVERHEAD_FRACTION * resident if caches_blocks_by_shape(w, profile) else 0.0
    constant = 0.0 if w.allocated_only else C.TRAIN_OVERHEAD_GIB * C.GIB
    overhead = constant + reserve + gathered
    if stage:
        notes.append(f"zero{stage}")
    params_offloaded = offload == "all" and stage == 3
    if offload != "none" and stage:
        notes.append("offload-params" if params_offloaded else "offload-optimizer")
        if w.task != "train":
            notes.append("offload-adapters")
    if ckpt:
        notes.append("gradient-checkpointing")
    chosen["zero_stage"] = stage
    chosen["gradient_checkpointing"] = ckpt
    per = dict(weights=weights, gradients=grads, optimizer=opt, activations=act, overhead=overhead)
    per_gpu = sum(per.values())
    if w.task == "train":
        host = _offload_host_bytes(split.total, n, stage, params_offloaded) if offload != "none" else None
    elif host:
        host /= max(1, machines(n))  # per node, as the full fine-tune's figure
    return MemoryEstimate(total_gib=round(gib(per_gpu * n), 3), per_gpu_gib=round(gib(per_gpu), 3),
                          gpu_count=n, breakdown=breakdown(**per), notes=notes, chosen=chosen,
                          host_ram_gib=round(gib(host), 1) if host else None, cuda_context_gib=C.CUDA_CONTEXT_GIB)


def _offload_host_bytes(params: float, n: int, stage: int, params_offloaded: bool = False) -> float | None:
    """Host RAM per node for offloaded optimizer states (and parameters), by DeepSpeed's estimators (constants)."""
    if stage == 0:
        return None
    nodes = max(1, machines(n))
    if params_offloaded:
        return params * C.OFFLOAD_HOST_BYTES_ZERO3_PARAMS / nodes * C.OFFLOAD_HOST_BUFFER
    per_param = (C.OFFLOAD_HOST_BYTES_ZERO3 / nodes if stage == 3
                 else max(C.OFFLOAD_HOST_BYTES_PER_GPU_ZERO2 * n, C.OFFLOAD_HOST_BYTES_ZERO3))
    return params * per_param * C.OFFLOAD_HOST_BUFFER
