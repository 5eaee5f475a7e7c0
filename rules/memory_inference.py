"""Inference memory per card, as the engine profile says the runtime holds it.

* weights = body parameters × bytes of the format (+ 16-bit embeddings/lm_head where the format keeps them);
* KV cache = the shared formula (rules/memory_common.py) at the element size of the workload's `kv_cache`
  (the engine profile says which types it accepts and their bytes, block scales included);
* activations = the prefill transient of one layer (a·intermediate + b·hidden bytes per prompt token, the
  prompt cut to the engine's prefill chunk) + eager attention's heads × s² scores when the engine or the
  workload materialises them + the logits the engine keeps (the last position, or every prompt position
  in fp32 for transformers before 4.45);
* engines that reserve memory up front: vLLM/SGLang take a fraction of the card and fill it with KV blocks;
  lmdeploy (TurboMind) and TensorRT-LLM give a fraction of what is free after weights to the KV pool, and a
  TensorRT engine's runtime first takes buffers for every request slot it was built for;
* layer-split engines (rules/layer_split.py): each card holds its slice of the blocks, one the output layer;
  llama.cpp's -ngl leaves the first layers, their KV cache and the token embeddings in system RAM.
"""

from __future__ import annotations

from dataclasses import replace

from knowledge.engine_facts import ProfileRunFact
from knowledge.engines import EngineProfile, version_tuple
from knowledge.schema import GPU, Model
from rules import constants as C
from rules.engine_profile import (
    caches_blocks_by_shape,
    kv_element_bytes,
    kv_quantisation_inert,
    mla_head_sizes,
    prefill_logits_bytes,
    profile_for,
    profile_run_size,
    reservation_fraction,
    reserved_share_gib,
    rope_table_bytes,
    runs_on_encoder_decoder_backend,
    scores_materialised,
)
from rules.hardware import compute_capability, visible_gib
from rules.layer_split import (
    CardLayers,
    card_layers,
    experts_on_host,
    holds_on_host,
    host_embedding_bytes,
    host_read_bytes,
    layer_split_weights,
    offloaded_slots,
    stated_split,
)
from rules.memory_common import attention_params, breakdown, gib, kv_cache_bytes, prefill_tokens
from rules.memory_draft import draft_bytes
from rules.memory_lora_serving import lora_slot_bytes
from rules.precision import expert_padding_bytes, normalise_quant, quant_workspace_bytes, weight_bytes
from rules.types import MemoryEstimate, Workload
from rules.vision_encoder import image_encoder_bytes, profiled_images

FP4_TENSOR_CORE_CAPABILITY = 10.0
"""Blackwell (compute capability 10.0 and 12.0) is the first with FP4 tensor cores; below it vLLM runs NVFP4
checkpoints weight-only through its FP4 Marlin kernel (modelopt.py ModelOptNvFp4Config: capability 80 and up)."""


def prefill_intermediate(model: Model) -> int:
    """MLP features a prefilled token holds in one layer: the dense intermediate size, or for an MoE layer its
    routed experts' (at least a quarter of the dense figure)."""
    assert model.hidden_size
    inter = model.intermediate_size or 4 * model.hidden_size
    if model.moe and model.moe.moe_intermediate_size:
        inter = max(model.moe.moe_intermediate_size * model.moe.experts_per_token, inter // 4)
    return inter


def prefill_activation_bytes(model: Model, prompt: int, batch: int, flash: bool,
                             logits_bytes: float | None = None) -> float:
    """Peak transient of one forward layer at prefill plus the logits held (default: the last position's)."""
    assert model.hidden_size
    per_token = (C.PREFILL_BYTES_PER_INTERMEDIATE * prefill_intermediate(model)
                 + C.PREFILL_BYTES_PER_HIDDEN * model.hidden_size)
    act = per_token * prompt * batch
    if not flash:
        act += C.EAGER_ATTENTION_BYTES_PER_SCORE * (model.num_attention_heads or 1) * prompt * prompt * batch
    if model.vocab_size and model.arch in ("decoder", "encoder-decoder"):
        act += (logits_bytes if logits_bytes is not None
                else C.LOGITS_BYTES_PER_VOCAB_INFERENCE * model.vocab_size * batch)
    return act


def vllm_activation_bytes(model: Model) -> float:
    """vLLM's profiled activation + CUDA-graph peak (llm-d planner), scaled by hidden size when small."""
    base = C.VLLM_ACTIVATION_GIB_MOE if model.is_moe else C.VLLM_ACTIVATION_GIB_DENSE
    ref = C.VLLM_ACTIVATION_REFERENCE_HIDDEN
    scale = min(1.0, (model.hidden_size or ref) / ref)
    return max(C.VLLM_ACTIVATION_MIN_GIB, base * scale) * C.GIB


def profile_run_activation_bytes(w: Workload, profile: EngineProfile, gpu: GPU | None) -> float:
    """What vLLM sets aside for activations after its start-up profiling run: the larger of the forward pass
    over its default token budget and the sampler warm-up over its default request count (whole-vocabulary
    fp32 work per request, VLLM_SAMPLER_BYTES_PER_VOCAB) with the pass's hidden states still held. Each
    tensor-parallel rank samples the whole vocabulary, so the figure is per card."""
    fact = profile.profile_run
    assert fact is not None
    model = w.model
    sequences, tokens = _profiled(w, fact, gpu)
    assert model.hidden_size
    forward = tokens * (fact.forward_bytes_per_intermediate * prefill_intermediate(model)
                        + fact.forward_bytes_per_hidden * model.hidden_size)
    per_vocab = C.VLLM_SAMPLER_BYTES_PER_VOCAB if fact.sampler_bytes_per_vocab is None else fact.sampler_bytes_per_vocab
    sampler = sequences * (model.vocab_size or 0) * per_vocab + tokens * model.hidden_size * 2.0
    return max(forward, sampler, image_encoder_bytes(model, sequences, tokens))


def _profiled(w: Workload, fact: ProfileRunFact, gpu: GPU | None) -> tuple[int, int]:
    """(requests, tokens) of the engine's start-up profile for this workload on `gpu`."""
    return profile_run_size(fact, gpu, w.context, w.max_num_seqs, w.prefill_chunk,
                            multimodal=w.model.modality == "multimodal")


def activation_peak(w: Workload, gpu: GPU) -> float:
    """The engine's activation peak on `gpu` (bytes): what a reserving engine's margin may scale with."""
    return _activation(w, profile_for(w), gpu)


def activations_outside_share(w: Workload, gpu: GPU) -> float:
    """Bytes a reserving engine keeps outside its share of the card: SGLang's activations and CUDA graphs
    live beside `mem_fraction_static` (which holds weights and the KV pool); 0 for engines whose share holds
    everything."""
    profile = profile_for(w)
    if w.task != "inference" or profile.reservation.covers != "weights_and_kv":
        return 0.0
    return _activation(w, profile, gpu)


def _activation(w: Workload, profile: EngineProfile, gpu: GPU | None = None) -> float:
    """The engine's activation peak: a chunked prefill sized by its chunk, else the whole prompt; vLLM sizes
    its own from its profiling run; other engines with CUDA graphs and no stated chunk (SGLang) take vLLM's
    planner figure."""
    model = w.model
    if profile.profile_run is not None and profile.reservation.kind != "none":
        return profile_run_activation_bytes(w, profile, gpu)
    # A stated chunk replaces the engine's own; engines that prefill a whole prompt at once have none to change.
    chunk = profile.runtime.prefill_chunk_tokens and (w.prefill_chunk or profile.runtime.prefill_chunk_tokens)
    if profile.reservation.kind != "none" and profile.runtime.cuda_graphs and chunk is None:
        return vllm_activation_bytes(model)
    prompt = prefill_tokens(w)
    batch = w.batch
    if profile.reservation.kind != "none" and profile.batch_buffers is not None and chunk:
        # A built TensorRT engine sets its activation memory aside for max_num_tokens at build time, whatever
        # the prompts later are (TensorRT-LLM reference/memory.md, "Activation size").
        prompt, batch = chunk, 1
    elif profile.reservation.kind != "none":
        # Serving engines prefill the requests' prompts in chunks of `chunk` tokens in all.
        prompt, batch = min(prompt * batch, chunk or prompt * batch), 1
    elif chunk:
        # A micro-batch holds `chunk` tokens in all, whichever sequences they come from (llama.cpp n_ubatch).
        prompt, batch = min(prompt * batch, chunk), 1
    logits = prefill_logits_bytes(profile.logits, model.vocab_size or 0, prompt, batch)
    flash = not scores_materialised(w, profile)
    if profile.allocator.kind == "ggml-buffers":
        # ggml's graph allocator reuses a finished layer's tensors: its compute buffer is the larger of the two.
        # Without flash attention a layer's fp32 KQ covers the whole cache (n_ctx cells shared by the slots).
        layer = prefill_activation_bytes(model, prompt, batch, True, 0.0)
        if not flash:
            layer += C.GGML_KQ_BYTES_PER_SCORE * (model.num_attention_heads or 1) * prompt * batch * w.context * w.batch
        return max(layer, logits)
    return prefill_activation_bytes(model, prompt, batch, flash, logits)


def default_build_length(engine: str, model: Model, context: int) -> int | None:
    """A TensorRT engine's --max_seq_len when the question gives no length: trtllm-build deduces it from the model's
    config ("If unspecified, the value is deduced from the model config"), the window, when that is longer than the
    context sized; None for other engines (the bot's defaults and the accuracy bench both size it so)."""
    window = model.max_context or 0
    return window if engine == "tensorrt-llm" and window > context else None


def batch_buffer_bytes(w: Workload, profile: EngineProfile) -> tuple[float, int]:
    """(bytes, slots) of the runtime's per-slot buffers (a TensorRT engine's runtime and decoder): the slots
    are the request cap the question states, else the build's default; the length is the context sized, as
    the engine would be built for it, or the build length the workload names (trtllm-build's default
    --max_seq_len is the model's window). (0, 0) for runtimes without them."""
    fact = profile.batch_buffers
    if fact is None or w.task != "inference":
        return 0.0, 0
    slots = w.max_num_seqs or fact.default_slots
    per_slot = (fact.bytes_per_slot_vocab * (w.model.vocab_size or 0)
                + fact.bytes_per_slot_position * (w.engine_max_seq_len or w.context) + fact.bytes_per_slot)
    return slots * per_slot, slots


def parallel_layout(count: int) -> tuple[int, int]:
    """(tensor-parallel degree, pipeline stages): tensor parallel inside a node of GPUS_PER_NODE, nodes by
    pipeline parallelism (vLLM/SGLang/TensorRT-LLM multi-node serving)."""
    tp = min(count, C.GPUS_PER_NODE)
    return tp, max(1, count // tp)


def layout_notes(n: int, tensor_parallel: bool) -> list[str]:
    if n <= 1:
        return []
    if not tensor_parallel:
        return ["layer-split"]
    tp, pp = parallel_layout(n)
    return [f"tp{tp}"] + ([f"nodes{pp}"] if pp > 1 else [])


def inference_estimate(w: Workload, n: int, gpu: GPU | None) -> MemoryEstimate:
    model = w.model
    profile = profile_for(w)
    quant = normalise_quant(w.quant, w.precision, w.engine)
    weights, notes = weight_bytes(model, w.precision, quant)
    tp = parallel_layout(n)[0] if profile.multi_gpu.mode == "tensor-parallel" else 1
    padding, why = expert_padding_bytes(model, profile.expert_padding, quant, gpu, tp,
                                        version_tuple(w.engine_version) if w.engine_version else None)
    if padding:
        weights += padding
        notes.append(f"{profile.id}-{quant}-{why}")
    rope = rope_table_bytes(w, profile)
    if rope:
        weights += rope  # buffers that load with the layers and split with them
        notes.append("rope-tables")
    workspace = quant_workspace_bytes(model, quant, one_matrix=not caches_blocks_by_shape(w, profile))
    if model.is_moe:
        if not w.cpu_moe_layers:  # with --cpu-moe the RAM line says where the experts are
            notes.append("moe-all-experts")
        if profile.runtime.moe_expert_loop != "fused":
            # The speed model charges each expert the engine visits one by one (rules/speed.py): say why.
            notes.append(f"moe-expert-loop-{profile.runtime.moe_expert_loop}")
    kv_elem = kv_element_bytes(w, profile)
    mla_heads = mla_head_sizes(w, profile)
    if mla_heads is not None:
        notes.append("mla-cache-per-head")
    if kv_quantisation_inert(w, profile):
        notes.append("kv-cache-needs-flash-attention")
    elif w.kv_cache is not None:
        notes.append(f"kv-cache-{w.kv_cache}")
    if profile.logits.positions == "all":
        notes.append("logits-all-positions")
    if scores_materialised(w, profile):
        notes.append("eager-attention")
    if w.precision == "fp8" and gpu is not None and gpu.architecture and not gpu.fp8_tflops:
        notes.append("fp8-weight-only")  # vLLM on Ampere: FP8 storage, 16-bit compute (rules.hardware)
    if (w.quant == "nvfp4" and gpu is not None and (cc := compute_capability(gpu)) is not None
            and cc < FP4_TENSOR_CORE_CAPABILITY):
        notes.append("fp4-weight-only")  # NVFP4 on Hopper/Ada/Ampere: FP4 storage, 16-bit compute (audit 29 LOW-114)
    chosen: dict[str, object] = {"context": w.context, "engine_profile": profile.id}
    if w.engine_version:
        chosen["engine_version"] = w.engine_version
    if w.engine_backend:
        chosen["engine_backend"] = w.engine_backend
    # Served LoRA adapters: the engine's GPU slots for them sit beside the weights (rules.memory_lora_serving).
    weights += lora_slot_bytes(w, n, profile.multi_gpu.mode == "tensor-parallel", profile, notes, chosen)
    weights += draft_bytes(w, notes, chosen)  # speculative decoding's draft model beside the target
    if profile.reservation.kind != "none":
        return _reserving(w, n, gpu, profile, weights, workspace, kv_elem, notes, chosen, mla_heads)
    tensor_parallel = profile.multi_gpu.mode == "tensor-parallel"
    tp, pp = parallel_layout(n) if tensor_parallel else (1, n)
    # Tensor-parallel engines divide the KV heads inside a node and the layers across nodes. transformers
    # (accelerate device_map) and llama.cpp split the layers: each card holds its share of the blocks, and
    # the card with the embeddings / lm_head holds that matrix whole (the largest card is the one counted).
    kv, kv_notes = kv_cache_bytes(model, w.context, w.batch * w.beam_size, kv_elem, tp=tp,
                                  pure_window=profile.kv_cache.sliding_window == "applied", mla_heads=mla_heads,
                                  source_batch=w.batch * (w.beam_size if w.source_per_beam else 1))
    notes += kv_notes
    act = _activation(w, profile)
    # Allocated bytes (torch.cuda.max_memory_allocated) count tensors only: the constant and the fraction are
    # what reserved / nvidia-smi readings show beyond them, as in training.
    cards = None if tensor_parallel else card_layers(w, n, profile)
    layers = model.num_layers or 1
    experts_off = experts_on_host(w, profile)
    slots = offloaded_slots(w, profile)

    def on_card(card: CardLayers | None) -> float:
        return layer_split_weights(model, weights, w.precision, quant, n, card, experts_off)

    on_host = holds_on_host(w, profile)
    card_weights = [on_card(card) for card in cards] if cards is not None else []
    # The allocator's share grows with the weights a card holds: with layers left on the CPU, those it loads.
    weights_per_card = max(card_weights) if card_weights and on_host else weights / n
    if w.allocated_only:
        overhead = workspace / n
    else:
        overhead = (C.INFERENCE_OVERHEAD_GIB * C.GIB + C.INFERENCE_OVERHEAD_FRACTION * weights_per_card
                    + workspace / n)
    if workspace:
        notes.append("quant-workspace")
    notes += layout_notes(n, tensor_parallel)
    kv_pg = kv / pp
    weights_pg = weights / n if tensor_parallel else on_card(None)
    host = 0.0
    if cards is not None:
        # A stated uneven split, or layers left on the CPU: the card loaded most holds its blocks and their KV.
        loads = [held + kv * card.share(layers) for held, card in zip(card_weights, cards, strict=True)]
        index = max(range(n), key=loads.__getitem__)
        weights_pg, kv_pg = card_weights[index], kv * cards[index].share(layers)
        if w.layer_split:
            chosen["layer_split"] = list(w.layer_split)
        if n > 1:
            chosen["fullest_card"] = index  # the card these figures are for
            # every card's own need, for cards of different sizes (rules/mixed.py)
            chosen["card_loads_gib"] = [round(gib(load + act + overhead), 3) for load in loads]
            chosen["card_blocks"] = [card.blocks for card in cards]
        if stated_split(w, n) is not None:
            notes.append("uneven-layer-split")
    if cards is not None and on_host:
        on_card_fraction = sum(card.share(layers) for card in cards)
        host = (weights - sum(card_weights) + kv * (1.0 - on_card_fraction)
                + host_embedding_bytes(model, quant))
        if slots is not None:
            chosen["gpu_layers"] = slots
            chosen["layer_slots"] = layers + 1
            notes.append("cpu-layers")
        if experts_off:
            chosen["cpu_moe_layers"] = experts_off
            notes.append("cpu-experts")
        read = host_read_bytes(model, weights, w.precision, quant, cards, experts_off, kv)
        chosen["host_read_gib_per_token"] = round(gib(read), 2)
        chosen["ram_bound_tokens_per_s"] = round(C.REFERENCE_RAM_BANDWIDTH_GBPS * 1e9 / read, 1) if read else None
    per = dict(weights=weights_pg, kv_cache=kv_pg, activations=act, overhead=overhead)
    per_gpu = sum(per.values())
    total = weights + kv / pp * n + n * (act + overhead)
    return MemoryEstimate(total_gib=round(gib(total), 3), per_gpu_gib=round(gib(per_gpu), 3), gpu_count=n,
                          breakdown=breakdown(**per), notes=notes, chosen=chosen,
                          host_ram_gib=round(gib(host), 1) if host else None, cuda_context_gib=C.CUDA_CONTEXT_GIB)


def _reserving(w: Workload, tp: int, gpu: GPU | None, profile: EngineProfile, weights: float, workspace: float,
               kv_elem: float, notes: list[str], chosen: dict[str, object],
               mla_heads: tuple[int, int] | None = None) -> MemoryEstimate:
    """Engines that size their KV pool from the card (vLLM, SGLang, lmdeploy ≥ 0.2.2, TensorRT-LLM)."""
    model = w.model
    block = C.VLLM_BLOCK_TOKENS
    n = tp
    tp, pp = parallel_layout(n)
    pure_window = profile.kv_cache.sliding_window == "applied"
    # Data-parallel attention: each card attends for its own share of the requests, with the whole cache of
    # each (and the attention weights whole); tensor parallelism keeps every request's MLA latent on every card.
    dp = n if w.dp_attention and n > 1 and profile.dp_attention is not None else 1
    if dp > 1:
        tp, pp = 1, 1
        chosen["dp_attention"] = dp
        notes.append("dp-attention")
    kv_needed, kv_notes = kv_cache_bytes(model, w.context, -(-w.batch // dp), kv_elem, tp=tp, block=block,
                                         pure_window=pure_window, mla_heads=mla_heads)
    kv_needed /= pp
    notes += kv_notes
    act = _activation(w, profile, gpu)
    run = profile.profile_run
    if run is not None:
        sequences, tokens = _profiled(w, run, gpu)
        chosen["max_num_seqs"] = sequences
        if model.vision_encoder is not None:
            chosen["profiled_images"] = profiled_images(model.vision_encoder, sequences, tokens)
            chosen["image_encoder_gib"] = round(gib(image_encoder_bytes(model, sequences, tokens)), 2)
            notes.append(f"{profile.id}-multimodal-profile-sized")
        elif model.modality in ("multimodal", "vision"):
            # Its profile run also encodes dummy images, which these figures cannot size without the
            # model's encoder facts.
            notes.append(f"{profile.id}-multimodal-profile")
        if runs_on_encoder_decoder_backend(w):
            notes.append(f"{profile.id}-encoder-decoder-backend")
        # The engine measures what is neither weights, activations nor KV (non-torch memory) and counts it.
        non_kv = run.non_kv_gib if n == 1 else (run.non_kv_gib_tensor_parallel or run.non_kv_gib)
        overhead = non_kv * C.GIB + workspace / n
    else:
        overhead = C.INFERENCE_OVERHEAD_GIB * C.GIB + workspace / n
    buffers, slots = batch_buffer_bytes(w, profile)
    if buffers:
        # Taken before the KV pool, so the pool's share comes out of what they leave.
        overhead += buffers
        chosen["max_batch_size"] = slots
        chosen["batch_buffers_gib"] = round(gib(buffers), 3)
        if w.engine_max_seq_len is not None:
            chosen["max_seq_len"] = w.engine_max_seq_len
        notes.append(f"{profile.id}-batch-buffers")
    elif any(rule.batch_buffers for rule in profile.version_rules):
        notes.append(f"{profile.id}-batch-buffers-other-versions")  # sized only when the version says they apply
    weights_pg = weights / n
    if dp > 1:
        attention = attention_params(model) * weights / (model.params_b * 1e9)
        weights_pg = (weights - attention) / n + attention
    required = weights_pg + act + overhead + kv_needed
    res = profile.reservation
    fraction = reservation_fraction(w, profile) or 1.0
    key = "gpu_memory_utilization" if profile.id == "vllm" else f"{profile.id}_memory_fraction"
    chosen[key] = fraction
    chosen["reservation"] = res.kind
    tag = profile.id
    notes += layout_notes(n, True)
    if gpu is None:
        per = dict(weights=weights_pg, kv_cache=kv_needed, activations=act, overhead=overhead)
        return MemoryEstimate(total_gib=round(gib(required * n), 3), per_gpu_gib=round(gib(required), 3),
                              gpu_count=n, breakdown=breakdown(**per), notes=[*notes, f"{tag}-no-gpu"],
                              chosen=chosen, required_per_gpu_gib=round(gib(required), 3),
                              cuda_context_gib=C.CUDA_CONTEXT_GIB)
    card = visible_gib(gpu) * C.GIB - C.CUDA_CONTEXT_GIB * C.GIB
    fixed = weights_pg + act + overhead
    share = fraction * visible_gib(gpu) * C.GIB
    if res.kind == "fraction_of_free":
        # lmdeploy / TensorRT-LLM: the KV pool is a fraction of what is free once weights and activations sit.
        ceiling, pool = card, max(0.0, fraction * (card - fixed))
    elif res.covers == "kv":
        # TurboMind 2.0 (lmdeploy 0.1–0.2.1): the KV blocks alone take the fraction of the whole card.
        ceiling, pool = card, share
    elif res.covers == "weights_and_kv":
        # SGLang: weights + KV pool fill `mem_fraction_static` of the card; activations live outside it.
        ceiling = share - C.CUDA_CONTEXT_GIB * C.GIB + act
        pool = max(0.0, ceiling - fixed)
    else:
        # vLLM takes the fraction of the whole card and gives what weights, activations and its measured
        # non-KV memory leave to KV blocks (reserved_share_gib: whether the CUDA context counts against it).
        ceiling = reserved_share_gib(profile, gpu, fraction, act / C.GIB) * C.GIB
        pool = max(0.0, ceiling - fixed)
    per_seq = kv_cache_bytes(model, w.context, 1, kv_elem, tp=tp, block=block, pure_window=pure_window,
                             mla_heads=mla_heads)[0] / pp
    chosen["kv_pool_gib"] = round(gib(pool), 3)
    chosen["max_concurrent_sequences"] = int(pool // per_seq) * dp if per_seq > 0 else None
    per = dict(weights=weights_pg, kv_cache=pool, activations=act, overhead=overhead)
    # What the card will show: the reservation — or, when the job needs more than that, what it needs
    # (the engine would refuse to start; reporting the reservation would understate the problem).
    per_gpu = max(fixed + pool, required)
    if required > ceiling or kv_needed > pool:
        per["kv_cache"] = kv_needed
        notes.append(f"{tag}-does-not-fit")
    elif run is not None and model.max_context and model.max_context > w.context:
        # Started without --max-model-len, vLLM takes the model's whole context and refuses to start when one
        # such sequence does not fit its KV pool: say so when that is the case here.
        whole = kv_cache_bytes(model, model.max_context, 1, kv_elem, tp=tp, block=block, pure_window=pure_window,
                               mla_heads=mla_heads)[0]
        if whole / pp > pool:
            notes.append(f"{tag}-set-max-model-len")
    needed = dict(weights=weights_pg, kv_cache=kv_needed, activations=act, overhead=overhead)
    return MemoryEstimate(total_gib=round(gib(per_gpu * n), 3), per_gpu_gib=round(gib(per_gpu), 3),
                          gpu_count=n, breakdown=breakdown(**per), notes=[*notes, f"{tag}-reserve"],
                          chosen=chosen, required_per_gpu_gib=round(gib(required), 3),
                          required_breakdown=breakdown(**needed), cuda_context_gib=C.CUDA_CONTEXT_GIB)


def needed_view(estimate: MemoryEstimate) -> MemoryEstimate:
    """The job's own need on the card a reserving engine's estimate was made for (its defaults there), rather
    than the reservation the card will show: what a reply's "memory needed" describes."""
    if estimate.required_breakdown is None or estimate.required_per_gpu_gib is None:
        return estimate
    need = estimate.required_per_gpu_gib
    return replace(estimate, per_gpu_gib=need, total_gib=round(need * estimate.gpu_count, 3),
                   breakdown=dict(estimate.required_breakdown),
                   notes=[n for n in estimate.notes if not n.endswith("-does-not-fit")])
