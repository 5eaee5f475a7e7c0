"""Throughput: what a decode step, a prefill and a training step cost on given cards (constants: speed_constants).

* decode step = (weights read + KV read) / (η × bandwidth)  — per card for tensor-parallel engines, whole model
  for layer-split engines — + layers × per-layer overhead (the per-token floor) + tensor-parallel all-reduces
  (2 per layer: latency × (n−1) + bytes / link); at large batch the step is at least its compute,
  batch × 2·P_active / (cards × peak × DECODE_MFU). MoE reads the shared weights plus the experts the batch's
  tokens are routed to. A step across machines adds a fitted network cost per machine boundary.
* prefill = prompt × (2·P_active + attention) FLOPs / (cards × peak × PREFILL_MFU) + the per-layer overhead.
* training step (per card, one micro-batch) = k·P·tokens + attention FLOPs / (peak × TRAIN_MFU) + per-layer
  overhead (+ QLoRA dequantisation, + the data-parallel traffic when it outlasts the compute: ZeRO-3 gathers,
  gradient all-reduces, across machines at the InfiniBand port's rate); k = 6 full, 4 LoRA
  (frozen base: no weight-gradient GEMMs), +2 with recomputation. An MoE model trained with expert parallelism
  runs at EXPERT_PARALLEL_TRAIN_MFU of the peak in model FLOPs instead, where that is the faster.

A card that lists no throughput figure (one known only by its memory and bandwidth) gets no prefill, training or
batched-decode time: those are compute-bound. Its batch-1 decode is timed by its memory reads alone, which is what
bounds it (the compute of one token is a few percent of the step on any tensor-core card).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from knowledge.schema import GPU, Model, MoE
from rules import constants as C
from rules import speed_constants as S
from rules.engine_profile import kv_element_bytes, mla_head_sizes, profile_for
from rules.hardware import compute_known, dense_tflops, machines, nvlinked
from rules.layer_split import holds_on_host
from rules.memory import _prefill_tokens, is_transformer, kv_bytes_per_token, kv_cache_bytes, num_layers
from rules.memory_adapters import adapter_params
from rules.precision import normalise_quant, param_split, weight_bytes
from rules.types import Speed, Workload


class ComputeUnknown(ValueError):
    """A compute-bound time was asked of a card that lists no throughput figure (check `compute_known`)."""


HALF_ARITHMETIC_FORMATS = frozenset({"gptq", "awq", "gptq-int4", "awq-int4", "gptq-int8"})
"""Formats whose matmul kernels compute in half precision themselves (AutoGPTQ/exllama's CUDA kernels, AWQ's):
on a card whose fp16 runs at 1/64 of fp32 they run at that rate (turboderp/exllama issue 27 on the P40: "FP16
performance is 1/64 of its FP32 performance")."""


def engine_peak_tflops(w: Workload, gpu: GPU) -> float | None:
    """The peak the engine's matmuls run at: the card's for the compute dtype, except on a card whose fp16 is
    slower than its fp32 (the 1/64-rate fp16 of GP102/GP104: P40, GTX 1080 Ti). There llama.cpp computes in
    fp32 (ggml-cuda common.cuh `fast_fp16_available`: not on compute capability 6.1), and 16-bit matmuls
    through cuBLAS accumulate in fp32 (cublasGemmEx with CUBLAS_COMPUTE_32F, as PyTorch and TensorFlow call it:
    tensorflow issue 15585, "we use fp32 as a compute type"), which runs at the fp32 rate: llama.cpp PR 3816
    measured a P40's 7B prompt at 934 tok/s with COMPUTE_32F against 339 with COMPUTE_16F, and PR 3370 10.8
    tok/s for fp16 weights in COMPUTE_16F. Kernels doing their own half arithmetic keep the slow rate."""
    peak = dense_tflops(gpu, w.precision)
    if gpu.fp32_tflops and (peak or 0.0) < gpu.fp32_tflops and (
            w.engine == "llama.cpp" or (w.quant or "").lower() not in HALF_ARITHMETIC_FORMATS):
        return gpu.fp32_tflops
    return peak


def _peak_flops(w: Workload, gpu: GPU) -> float:
    peak = engine_peak_tflops(w, gpu)
    if peak is None:
        raise ComputeUnknown(f"{gpu.id} lists no throughput figure")
    return peak * 1e12


@dataclass(frozen=True)
class DecodeStep:
    """Seconds of one decode step by cause (for explanations and tests)."""

    memory_s: float
    """Weights + KV bytes over the achieved bandwidth."""
    overhead_s: float
    """Per-layer launch/dispatch floor."""
    communication_s: float
    """Tensor-parallel all-reduces."""
    compute_s: float
    """batch × 2·P_active at DECODE_MFU (the bound at large batch)."""

    @property
    def total_s(self) -> float:
        return max(self.memory_s, self.compute_s) + self.overhead_s + self.communication_s


def tensor_parallel(engine: str) -> bool:
    return engine in S.TENSOR_PARALLEL_ENGINES


def _one_embedding_params(model: Model) -> float:
    """Parameters of the input embedding when it is a separate matrix (untied): never read whole per token."""
    if model.tie_embeddings or not (model.vocab_size and model.hidden_size) or model.arch != "decoder":
        return 0.0
    return min(float(model.vocab_size * model.hidden_size), 0.25 * model.params_b * 1e9)


def routed_expert_params(model: Model) -> float:
    """Parameters of the routed experts (all of them), from the MoE shape; 0 for dense models."""
    moe = model.moe
    if moe is None or not model.hidden_size or not model.num_layers:
        return 0.0
    if moe.moe_intermediate_size:
        matrices = 3 if (model.mlp or "gated") == "gated" else 2
        per_expert = matrices * model.hidden_size * moe.moe_intermediate_size
        return float(per_expert * moe.num_experts * max(0, model.num_layers - moe.first_k_dense))
    # No expert width recorded: the routed share is what the active count leaves out, scaled to all experts.
    skipped = (model.params_b - model.active_params) * 1e9
    return skipped / max(1e-9, 1 - moe.experts_per_token / moe.num_experts)


def experts_touched_fraction(model: Model, batch: int) -> float:
    """Expected share of a layer's routed experts that `batch` tokens reach with uniform top-k routing:
    1 − (1 − k/E)^batch (k/E for one token, → 1 for large batches)."""
    moe = model.moe
    if moe is None:
        return 1.0
    return 1.0 - (1.0 - moe.experts_per_token / moe.num_experts) ** max(1, batch)


def weights_read_bytes(w: Workload, batch: int | None = None) -> float:
    """Weight bytes one decode step reads: everything but the input embedding table, and for MoE only the
    experts the batch is routed to."""
    model = w.model
    quant = normalise_quant(w.quant, w.precision, w.engine)
    total_bytes, _ = weight_bytes(model, w.precision, quant)
    params = model.params_b * 1e9
    per_param = total_bytes / params
    read = params - _one_embedding_params(model)
    if model.is_moe:
        routed = min(routed_expert_params(model), read)
        read -= routed * (1.0 - experts_touched_fraction(model, batch or w.batch))
    return read * per_param


def _link(gpu: GPU, count: int) -> tuple[float, float]:
    """(latency per all-reduce step, one-direction bytes/s) of the card-to-card link."""
    if count > 1 and nvlinked(gpu, count) and gpu.nvlink_gbps:
        return S.ALLREDUCE_LATENCY_S["nvlink"], gpu.nvlink_gbps / 2 * 1e9
    return S.ALLREDUCE_LATENCY_S["pcie"], S.PCIE_GBPS * 1e9


def spans_machines(count: int) -> bool:
    return count > C.GPUS_PER_NODE


def data_parallel_link(gpu: GPU, count: int, stated_gbps: float | None = None) -> float:
    """One-direction bytes/s a data-parallel collective runs at per card (its bus bandwidth): the card-to-card
    link within a machine; across machines at most the machine's InfiniBand ports together, since NCCL runs one
    ring (channel) per port, each carrying its share of the bytes across the machine boundary (one port per GPU:
    S.INTER_NODE_GBPS_PER_GPU × GPUS_PER_NODE, 400 GB/s on NDR, against 450 of H100 NVLink)."""
    _, link = _link(gpu, min(count, C.GPUS_PER_NODE))
    return min(link, inter_node_gbps(gpu, stated_gbps) * C.GPUS_PER_NODE * 1e9) if spans_machines(count) else link


def inter_node_gbps(gpu: GPU, stated_gbps: float | None = None) -> float:
    """GB/s one-direction from a card to the other machines: the network the question states (Workload.
    inter_node_gbps), else S.INTER_NODE_GBPS_PER_GPU by the card's generation."""
    if stated_gbps:
        return stated_gbps
    fabric = "ndr" if (gpu.launch_year or 0) >= S.COLLECTIVE_FABRIC_YEAR else "hdr"
    return S.INTER_NODE_GBPS_PER_GPU[fabric]


def pipeline_handoff_seconds(w: Workload, gpu: GPU, count: int, tokens: int) -> float:
    """Seconds the network takes to hand `tokens` tokens of each sequence's activations (hidden size, 16-bit)
    from one machine to the next, summed over the machine boundaries of a pipeline split across machines, at the
    machine's network bandwidth (`inter_node_gbps` × GPUS_PER_NODE: one NIC per machine unless said per card).
    Bandwidth time only, before the network's latency per hop; 0 within one machine."""
    if w.task != "inference" or not spans_machines(count) or not w.model.hidden_size:
        return 0.0
    boundaries = machines(count) - 1
    per_machine = inter_node_gbps(gpu, w.inter_node_gbps) * C.GPUS_PER_NODE * 1e9
    return boundaries * tokens * w.batch * w.model.hidden_size * 2.0 / per_machine


def trained_params(w: Workload) -> float:
    """The parameters a training step updates: the adapter's for LoRA/QLoRA, every weight otherwise."""
    return adapter_params(w) if w.task in ("lora", "qlora") else w.model.params_b * 1e9


def gradient_sync_seconds(w: Workload, gpu: GPU, count: int, checkpointing: bool) -> float:
    """The data-parallel traffic of one micro-step per card, through `data_parallel_link` at the bucketed
    collectives' efficiency. ZeRO-3 / FSDP gathers the 16-bit weights before each pass (forward, recomputation,
    backward) and reduce-scatters the 16-bit gradients; stages 0-2 all-reduce the gradients (2× their bytes in a
    ring), which plain DDP does once per optimizer step and DeepSpeed's stages 1-2 in every micro-step's
    backward. Each collective moves (n−1)/n of its bytes per card."""
    if count <= 1 or w.task == "inference" or not is_transformer(w.model):
        return 0.0  # an image model's training is not timed from its layers
    gradients = 2.0 * trained_params(w)
    if w.zero_stage == 3:
        # what is gathered is the 16-bit copy the step computes with, whatever format the base is stored in
        weights = weight_bytes(w.model, "bf16" if w.precision in ("int4", "int8", "mxfp4") else w.precision,
                               None)[0]
        volume = (3 if checkpointing else 2) * weights + gradients
    else:
        volume = 2.0 * gradients / (w.grad_accumulation if not w.zero_stage else 1)
    return volume * (count - 1) / count / (S.COLLECTIVE_EFFICIENCY * data_parallel_link(gpu, count,
                                                                                       w.inter_node_gbps))


def allreduce_seconds(w: Workload, gpu: GPU, count: int) -> float:
    """Tensor-parallel communication of one decode step: 2 all-reduces per layer of batch × hidden 16-bit
    activations, each latency × log2(n) + 2(n−1)/n × bytes / link bandwidth (a small all-reduce's steps grow with
    the depth of NCCL's tree or are one hop in the engines' one-shot kernels, not with a ring's n − 1)."""
    if count <= 1 or not tensor_parallel(w.engine) or not w.model.hidden_size:
        return 0.0
    latency, link = _link(gpu, count)
    payload = w.batch * w.model.hidden_size * 2.0 * 2 * (count - 1) / count
    per_allreduce = latency * math.log2(count) + payload / link
    return S.ALLREDUCES_PER_LAYER * num_layers(w.model) * per_allreduce


def _layer_overhead(w: Workload, tokens: int | None = None) -> float:
    """Per-pass time that does not depend on the bytes read, for a pass over `tokens` tokens (default: one
    decode step of the batch)."""
    per_layer = S.DECODE_LAYER_OVERHEAD_S.get(w.engine, S.DECODE_LAYER_OVERHEAD_S["transformers"])
    factor = 1.0
    quant = normalise_quant(w.quant, w.precision, w.engine)
    if not tensor_parallel(w.engine) and w.engine != "llama.cpp" and quant:
        factor = S.TRANSFORMERS_QUANT_LAYER_FACTOR.get(quant, 1.0)
    return (factor * (per_layer * max(1, num_layers(w.model)) + _expert_loop_seconds(w, tokens or max(1, w.batch)))
            + _per_expert_launch_seconds(w, quant))


def _per_expert_launch_seconds(w: Workload, quant: str | None) -> float:
    """An engine whose GPTQ MoE layers run the old Marlin MoE kernel pays one GEMM launch per expert and
    projection on every pass, whichever experts the tokens were routed to."""
    moe = w.model.moe
    if moe is None or not (quant or "").startswith("gptq") or (
            profile_for(w).runtime.quantised_moe_kernel != "per-expert"):
        return 0.0
    return _moe_layers(w, moe) * moe.num_experts * 2 * S.MARLIN_MOE_EXPERT_LAUNCH_S


def _moe_layers(w: Workload, moe: MoE) -> int:
    """Layers with routed experts: all but the model's leading dense ones."""
    return max(0, num_layers(w.model) - moe.first_k_dense)


def _expert_loop_seconds(w: Workload, tokens: int) -> float:
    """An engine that runs an MoE layer's experts one by one in Python (transformers) pays a fixed cost per
    expert it visits (its quantised linears' own launch cost included, as for the dense layers): every expert
    before it skipped the idle ones, else the experts the tokens were routed to (top-k per token, at most all
    of them)."""
    moe = w.model.moe
    if moe is None:
        return 0.0
    loop = profile_for(w).runtime.moe_expert_loop
    if loop == "fused":
        return 0.0
    visited = moe.num_experts if loop == "all" else min(moe.num_experts, moe.experts_per_token * tokens)
    return _moe_layers(w, moe) * visited * S.TRANSFORMERS_MOE_EXPERT_ITERATION_S


def average_cached_tokens(w: Workload) -> int:
    """Tokens in the cache on an average decode step: the prompt plus half the generated tokens (half the
    context when the split is unknown)."""
    if w.gen_tokens is not None:
        return max(1, w.context - w.gen_tokens // 2)
    return max(1, w.context // 2)


def decode_kv_bytes(w: Workload) -> float:
    """KV-cache bytes one decode step of `w.batch` sequences reads, at the average cached length."""
    profile = profile_for(w)
    kv, _ = kv_cache_bytes(w.model, average_cached_tokens(w), w.batch, kv_element_bytes(w, profile), tp=1,
                           mla_heads=mla_head_sizes(w, profile))
    return kv


def decode_step(w: Workload, gpu: GPU, count: int) -> DecodeStep:
    """One decode step of `w.batch` sequences on `count` cards of `gpu`."""
    tp = tensor_parallel(w.engine)
    shards = count if tp else 1
    eta = S.DECODE_BANDWIDTH_EFFICIENCY.get(w.engine, S.DECODE_BANDWIDTH_EFFICIENCY["transformers"])
    bandwidth = gpu.bandwidth_gbps * 1e9
    kv = decode_kv_bytes(w)
    kv_eta = eta if tp or w.engine == "llama.cpp" else S.TRANSFORMERS_KV_BANDWIDTH_EFFICIENCY
    memory = weights_read_bytes(w) / shards / (eta * bandwidth) + kv / shards / (kv_eta * bandwidth)
    peak = engine_peak_tflops(w, gpu)
    compute = w.batch * 2.0 * w.model.active_params * 1e9 / (shards * peak * 1e12 * S.DECODE_MFU) if peak else 0.0
    return DecodeStep(memory_s=memory, overhead_s=_layer_overhead(w) + S.DECODE_STEP_OVERHEAD_S.get(w.engine, 0.0),
                      communication_s=allreduce_seconds(w, gpu, count) + cross_machine_step_seconds(count),
                      compute_s=compute)


def cross_machine_step_seconds(count: int) -> float:
    """What a decode step pays for crossing machines (S.CROSS_MACHINE_DECODE_STEP_S per boundary): the reason a
    second machine of cards does not double a sequence's decode."""
    return (machines(count) - 1) * S.CROSS_MACHINE_DECODE_STEP_S


def decode_ceiling_tokens_per_s(w: Workload, gpu: GPU, count: int) -> float:
    """One sequence's decode if every byte a token reads came at the cards' full memory bandwidth: no engine
    reaches it, so a measured speed above it means a smaller file, batching or speculative decoding."""
    one = replace(w, batch=1)
    shards = count if tensor_parallel(w.engine) else 1
    return shards * gpu.bandwidth_gbps * 1e9 / (weights_read_bytes(one) + decode_kv_bytes(one))


def unified_memory_decode_tokens_per_s(w: Workload, bandwidth_gbps: float) -> float:
    """One sequence's decode on Apple silicon through llama.cpp's Metal back end: each token reads the weights
    and the cache at METAL_DECODE_BANDWIDTH_EFFICIENCY of the unified memory's bandwidth, plus
    METAL_DECODE_TOKEN_OVERHEAD_S (both fitted on llama.cpp's own Apple silicon table, speed_constants), plus
    METAL_MOE_EXPERT_VISIT_S for each routed expert an MoE token visits."""
    single = replace(w, batch=1)
    read = weights_read_bytes(single) + decode_kv_bytes(single)
    moe = w.model.moe
    experts = _moe_layers(w, moe) * moe.experts_per_token * S.METAL_MOE_EXPERT_VISIT_S if moe is not None else 0.0
    return 1.0 / (read / (S.METAL_DECODE_BANDWIDTH_EFFICIENCY * bandwidth_gbps * 1e9)
                  + S.METAL_DECODE_TOKEN_OVERHEAD_S + experts)


def flops_per_token(w: Workload, prompt: int) -> float:
    """Forward FLOPs per token at a `prompt`-token context: 2·P_active plus attention 4·L·n·h (scores and
    values over the n tokens before it)."""
    model = w.model
    attn = 0.0
    if is_transformer(model):
        assert model.hidden_size
        attn = 4.0 * num_layers(model) * prompt * model.hidden_size
    return 2.0 * (model.active_params * 1e9 - _encoder_lookup_params(model)) + attn


def _encoder_lookup_params(model: Model) -> float:
    """An encoder's token embedding table, a lookup with no matmul behind it (an embedding or reranking model
    pools or scores its last hidden state; no vocabulary projection): bge-m3's 250,002 × 1,024 XLM-R table is
    256M of its 568M parameters, and counting it timed it 1.6× slower than bge-large, the same 24-layer encoder
    (audit 23 M-20). A decoder's table is kept: its tied or separate lm_head is the matmul the 2·P rule counts."""
    if model.arch != "encoder" or not (model.vocab_size and model.hidden_size):
        return 0.0
    return min(float(model.vocab_size * model.hidden_size), 0.6 * model.params_b * 1e9)


def prefill_seconds(w: Workload, gpu: GPU, count: int, prompt: int) -> float:
    """Time to encode `prompt` tokens of each of `w.batch` sequences (causal: the average token attends to
    half the prompt)."""
    cards = count if tensor_parallel(w.engine) else 1
    peak = _peak_flops(w, gpu)
    flops = w.batch * prompt * flops_per_token(w, max(1, prompt // 2))
    return flops / (cards * peak * S.PREFILL_MFU) + _layer_overhead(w, w.batch * max(1, prompt))


def train_flops_factor(w: Workload, checkpointing: bool) -> float:
    base = S.TRAIN_FLOPS_PER_PARAM_TOKEN if w.task == "train" else S.LORA_FLOPS_PER_PARAM_TOKEN
    reference = S.REFERENCE_FLOPS_PER_PARAM_TOKEN if w.preference_pairs else 0.0
    return base + reference + (S.RECOMPUTE_EXTRA_FLOPS_PER_PARAM_TOKEN if checkpointing else 0.0)


def _checkpointing(w: Workload) -> bool:
    if w.gradient_checkpointing is not None:
        return w.gradient_checkpointing
    return w.model.params_b > C.GRADIENT_CHECKPOINTING_MIN_PARAMS_B


def train_step_seconds(w: Workload, gpu: GPU, count: int) -> float:
    """One micro-step (w.batch sequences of w.context tokens) on each of `count` data-parallel cards."""
    return _train_step(w, gpu, count)[0]


def train_step_parts(w: Workload, gpu: GPU, count: int) -> tuple[float, float]:
    """(the compute, the data-parallel traffic) of one micro-step, in seconds: the step takes the longer of the two
    (the collectives overlap the backward), so traffic longer than the compute is what a slow fabric costs."""
    _, compute, sync = _train_step(w, gpu, count)
    return compute, sync


def _train_step(w: Workload, gpu: GPU, count: int) -> tuple[float, float, float]:
    model = w.model
    ckpt = _checkpointing(w)
    tokens = w.batch * w.context
    body = model.active_params * 1e9 - _one_embedding_params(model)
    # Attention has no frozen weights: its backward always costs 2× its forward (3× with recomputation).
    attention = flops_per_token(w, max(1, w.context // 2)) - 2.0 * model.active_params * 1e9
    passes = (S.TRAIN_FLOPS_PER_PARAM_TOKEN + (S.RECOMPUTE_EXTRA_FLOPS_PER_PARAM_TOKEN if ckpt else 0.0)
              + (S.REFERENCE_FLOPS_PER_PARAM_TOKEN if w.preference_pairs else 0.0)) / 2
    flops = tokens * (train_flops_factor(w, ckpt) * body + passes * attention)
    engine = w.engine if w.engine in S.TRAIN_MFU else "transformers"
    compute = flops / (_peak_flops(w, gpu) * train_mfu(w))
    sync = gradient_sync_seconds(w, gpu, count, ckpt)
    dequant = S.QLORA_DEQUANT_S_PER_BPARAM * model.params_b if w.task == "qlora" else 0.0
    # The per-layer overhead was measured on PEFT (adapter hooks) and ZeRO-3 (partition hooks) runs only.
    hooked = w.task in ("lora", "qlora") or w.zero_stage == 3
    overhead = S.TRAIN_LAYER_OVERHEAD_S[engine] * max(1, num_layers(model)) if hooked else 0.0
    # transformers' Python loop over an MoE layer's experts runs in every forward pass (and again in the
    # recomputation); its backward launches the same small kernels without the host syncs: not counted
    experts = (2.0 if ckpt else 1.0) * _expert_loop_seconds(w, tokens)
    step = max(compute + dequant, sync) + overhead + experts + offloaded_step_seconds(w, count)
    return step, compute + dequant, sync


def train_mfu(w: Workload) -> float:
    """The share of the dense peak a training step's GEMMs are timed at, for the engine that runs it."""
    return S.TRAIN_MFU[w.engine if w.engine in S.TRAIN_MFU else "transformers"]


def offloaded_step_seconds(w: Workload, count: int) -> float:
    """The optimizer step a job that offloads it (DeepSpeed ZeRO-Offload, ZeRO-3 offload_param, FSDP CPU
    offload) runs on the CPU, once a step: ZeRO-Offload does not overlap it with the GPU's work (DeepSpeed's
    ZenFlow blog: on Llama-2-7B over 4 A100s "over 60% of each iteration is pure GPU wait time"). Every trained
    parameter is updated once, on the machine whose cards hold its shard, so the machines share the work. Each
    micro-step is an optimizer step unless the question gives gradient accumulation (the trainers' default is 1),
    which spreads it over its micro-steps."""
    if w.task == "inference" or w.offload == "none":
        return 0.0
    return trained_params(w) / machines(count) / S.CPU_ADAM_PARAMS_PER_S_PER_MACHINE / w.grad_accumulation


def estimate_speed(workload: Workload, gpu: GPU, count: int) -> Speed:
    """Decode (per sequence and aggregate) and prefill tokens/s for inference; tokens/s over all cards for
    training."""
    w = workload
    known = compute_known(gpu)
    if w.task != "inference":
        offloaded = offloaded_step_seconds(w, count)
        rate = train_tokens_per_s(w, gpu, count) if known else None
        sharded = sharded_train_tokens_per_s(w, gpu, count) if known else None
        return Speed(decode_tokens_per_s=None, prefill_tokens_per_s=None,
                     train_tokens_per_s=round(rate, 1) if rate is not None else None,
                     offload_step_s=round(offloaded, 2) if offloaded and known else None,
                     sharded_train_tokens_per_s=round(sharded, 1) if sharded is not None and rate is not None
                     and rate > sharded else None)
    if holds_on_host(w, profile_for(w)):
        # Layers or experts left in system RAM are read from it for every token, at the bandwidth of a machine
        # the question does not describe: no figure rather than the card's.
        return Speed(decode_tokens_per_s=None, prefill_tokens_per_s=None)
    prompt = _prefill_tokens(w)
    prefill = round(w.batch * prompt / prefill_seconds(w, gpu, count, prompt), 1) if known else None
    generative = w.model.arch == "decoder" and is_transformer(w.model)
    if not generative or not (known or w.batch <= S.UNLISTED_COMPUTE_DECODE_BATCH):
        return Speed(decode_tokens_per_s=None, prefill_tokens_per_s=prefill)
    per_seq = 1.0 / decode_step(w, gpu, count).total_s
    return Speed(decode_tokens_per_s=round(per_seq, 1), prefill_tokens_per_s=prefill,
                 aggregate_tokens_per_s=round(per_seq * w.batch, 1))


def sharded_train_tokens_per_s(w: Workload, gpu: GPU, count: int) -> float:
    """Training tokens per second over all `count` cards, data parallel with the states sharded as the
    workload says (ZeRO / FSDP), every card computing its own micro-batch with every weight."""
    return count * w.batch * w.context / train_step_seconds(w, gpu, count)


def expert_parallel_tokens_per_s(w: Workload, gpu: GPU, count: int) -> float | None:
    """Training tokens per second over `count` cards with expert parallelism, or None where the measured set-up
    does not apply: a dense model, LoRA, one card, an offloaded optimizer, or cards without NVLink between them
    (the all-to-all of the measured rows ran over NVLink and InfiniBand, not PCIe)."""
    if not (w.expert_parallel and w.task == "train" and isinstance(w.model.moe, MoE) and count > 1
            and w.offload == "none" and not w.preference_pairs and compute_known(gpu)
            and nvlinked(gpu, min(count, C.GPUS_PER_NODE))):
        return None
    model_flops = S.TRAIN_FLOPS_PER_PARAM_TOKEN / 2 * flops_per_token(w, max(1, w.context // 2))
    return count * _peak_flops(w, gpu) * S.EXPERT_PARALLEL_TRAIN_MFU / model_flops


def train_tokens_per_s(w: Workload, gpu: GPU, count: int) -> float:
    """Training tokens per second over all `count` cards: the sharded data-parallel rate, or the expert-parallel
    one when the workload trains an MoE model that way and it is the faster."""
    sharded = sharded_train_tokens_per_s(w, gpu, count)
    return max(sharded, expert_parallel_tokens_per_s(w, gpu, count) or 0.0)


def training_hours(workload: Workload, gpu: GPU, count: int, tokens: float) -> float | None:
    """Hours to train on `tokens` tokens at `train_tokens_per_s` (k·P·D / (N · peak · MFU) plus attention and
    the per-step overheads); inference workloads count 2·P·D. None on a card that lists no throughput figure."""
    w = workload
    if not compute_known(gpu):
        return None
    if w.task == "inference":
        peak = _peak_flops(w, gpu)
        return 2.0 * w.model.active_params * 1e9 * tokens / (count * peak * S.PREFILL_MFU) / 3600.0
    return tokens / train_tokens_per_s(w, gpu, count) / 3600.0


def ideal_training_hours(workload: Workload, gpu: GPU, count: int, tokens: float, mfu: float) -> float:
    """The textbook k·P·D / (N · peak · MFU) in hours (no attention, no overheads): the figure papers quote."""
    factor = train_flops_factor(workload, _checkpointing(workload))
    peak = _peak_flops(workload, gpu)
    return factor * workload.model.active_params * 1e9 * tokens / (count * peak * mfu) / 3600.0


def kv_read_bytes_per_token(workload: Workload, tp: int = 1) -> float:
    """KV bytes one decode step reads per cached token (for explanations); with `tp`, on each of that many
    tensor-parallel cards, where KV heads fewer than the cards, and an MLA latent, are held whole on each."""
    profile = profile_for(workload)
    return kv_bytes_per_token(workload.model, kv_element_bytes(workload, profile), tp=tp,
                              mla_heads=mla_head_sizes(workload, profile))


__all__ = ["ComputeUnknown", "DecodeStep", "decode_step", "estimate_speed", "flops_per_token", "ideal_training_hours",
           "param_split", "prefill_seconds", "train_step_seconds", "train_tokens_per_s", "training_hours"]
