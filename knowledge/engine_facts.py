"""The facts an engine profile is made of: one sourced statement per behaviour that moves a job's memory.

Each class is one field of `knowledge.engines.EngineProfile` (attention, logits, KV cache, reservation, …);
version rules restate only the fields that changed, with their own source. Kept apart from the profile so the
rules can import a fact's type without the loader.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

KVDtype = Literal["fp16", "bf16", "fp8", "int8", "int4"]
KV_DTYPES: tuple[KVDtype, ...] = ("fp16", "bf16", "fp8", "int8", "int4")


class Fact(BaseModel):
    """One sourced statement about an engine (each profile field carries its own source)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str = Field(min_length=1)
    notes: str | None = None


class AttentionFact(Fact):
    implementation: Literal["flash", "sdpa", "eager", "paged"]
    scores_materialised: bool
    """True when heads × s² attention scores exist in memory at once (eager attention)."""


class LogitsFact(Fact):
    positions: Literal["last", "all", "chunked"]
    """Prefill logits: only the last position (generate), every prompt position, or chunks (fused loss)."""
    bytes_per_value: float = Field(ge=0)
    """Bytes per logit held at the peak: 16-bit output + fp32 upcast = 6; 16-bit only = 2."""


class KVCacheFact(Fact):
    bytes_per_element: dict[KVDtype, float]
    """The KV-cache dtypes the engine accepts and the bytes each element takes (block scales included)."""
    quantised_needs_flash_attention: bool = False
    """A quantised cache type takes effect only with flash attention on (llama.cpp's quantised V cache; Ollama
    ignores OLLAMA_KV_CACHE_TYPE without it), so without flash attention the cache stays 16-bit."""
    sliding_window: Literal["applied", "interleaved-only"] = "applied"
    """Whether a sliding-window model's cache holds only its window: on every such model, or only on models
    that interleave window and full layers (llama.cpp's iSWA cache); a model whose every layer slides
    (Mistral-7B v0.1) then caches every token."""
    mla_cache: Literal["latent", "per-head"] = "latent"
    """How a multi-head latent attention model (DeepSeek-V2/V3, Kimi K2) is cached: the compressed latent and
    the RoPE key once per layer (an MLA back end), or K and V for every attention head after decompression."""
    mla_head_size: int | Literal["qk"] | None = Field(default=None)
    """Per-head layout only: the size K and V are each padded to ("qk" = the query/key head size); None = K at
    the query/key head size and V at its own."""
    mla_latent_quants: list[str] | None = None
    """The weight formats the latent layout runs with (an unquantised model always does); with another format
    the engine falls back to the per-head layout. None = every format."""


class ReservationFact(Fact):
    kind: Literal["none", "fraction_of_total", "fraction_of_free"]
    """none: memory grows with the job; fraction_of_total: the engine takes `fraction` × the card and fills
    what weights and activations leave with KV blocks; fraction_of_free: after weights and activations, the
    KV pool takes `fraction` of what is free."""
    fraction: float | None = Field(default=None, gt=0, le=1)
    covers: Literal["everything", "weights_and_kv", "kv"] = "everything"
    """What the fraction of the card holds: everything the engine allocates (vLLM), weights and the KV pool
    with activations outside it (SGLang `mem_fraction_static`), or the KV blocks alone (TurboMind 2.0)."""
    margin_gib: float | None = Field(default=None, ge=0)
    """An engine that sizes its KV cache from the memory measured free after warmup (vLLM's extensible KV
    cache) keeps this much of it free besides the job's own transients, at least: the fraction then only caps
    the share from above, and the CUDA context counts against the card."""
    margin_activation_fraction: float | None = Field(default=None, ge=0)
    """That margin grows to this fraction of the activation peak when it is larger than `margin_gib`."""


class MultiGpuFact(Fact):
    mode: Literal["layer-split", "tensor-parallel", "zero", "fsdp", "data-parallel"]
    host_offload_layers: bool = False
    """The engine can leave layers in system RAM (llama.cpp's -ngl, Ollama's num_gpu): the cards then hold the
    last `gpu_layers` of its layer slots, each with its KV cache, and the CPU the rest."""


class RuntimeFact(Fact):
    cuda_graphs: bool
    prefill_chunk_tokens: int | None = Field(default=None, gt=0)
    """Prompt tokens evaluated per forward pass (chunked prefill / n_ubatch); None = the whole prompt."""
    moe_expert_loop: Literal["fused", "hit", "all"] = "fused"
    """How an MoE layer runs its experts: fused kernels (serving engines), a Python loop over the experts the
    step's tokens were routed to (`hit`), or over every expert whether routed or not (`all`)."""
    quantised_moe_kernel: Literal["fused", "per-expert"] = "fused"
    """How GPTQ MoE layers run: one fused kernel per projection, or the older Marlin MoE kernel, which launches
    one GEMM per expert for each of the two projections whether the expert was routed to or not."""
    rope_tables_per_layer: list[str] = Field(default_factory=list)
    """Model families (the knowledge base's `family`) whose modelling code, in this version, builds cos and sin
    tables for all `max_position_embeddings` positions in every attention layer at load time and keeps them on
    the card as buffers in the load dtype (transformers' `_set_cos_sin_cache`, before the rotary embedding
    moved to the model and computed only the positions in use)."""


class AllocatorFact(Fact):
    kind: Literal["pytorch-caching", "pytorch-expandable", "preallocated-pool", "ggml-buffers", "tensorrt-static"]
    """pytorch-expandable: the caching allocator with `expandable_segments:True`, which grows segments in place
    instead of caching blocks of every size, so training keeps no fragmentation reserve."""


class ProfileRunFact(Fact):
    """How an engine that profiles a dummy batch at start-up (vLLM) sizes what it keeps beside the KV pool.

    vLLM runs one forward pass of `max_num_batched_tokens` tokens and then warms its sampler with
    `max_num_seqs` dummy requests whose top-k/top-p path sorts and normalises the whole vocabulary in fp32; the
    larger of the two peaks is the activation memory it sets aside, and what the card's share leaves after it,
    the weights and the non-torch memory becomes KV blocks. Its defaults depend on the card.
    """

    sequences: int = Field(gt=0)
    """`max_num_seqs` by default: the sampler warm-up's batch."""
    tokens: int | None = Field(default=None, gt=0)
    """`max_num_batched_tokens` by default (the OpenAI server's); None = the context (V0 without chunked
    prefill profiles one sequence of max_model_len tokens)."""
    large_card_sequences: int | None = Field(default=None, gt=0)
    large_card_tokens: int | None = Field(default=None, gt=0)
    """The same on a "large" card (below), where vLLM picks bigger defaults."""
    large_card_gib: float | None = Field(default=None, gt=0)
    """A card with at least this much memory is large (None: decided by name alone)."""
    large_card_names: list[str] = Field(default_factory=list)
    """Names that make a card large whatever its memory (empty: memory alone decides)."""
    large_card_excluded: list[str] = Field(default_factory=list)
    """Names never treated as large (vLLM keeps A100s on the small defaults)."""
    tokens_floor: int | None = Field(default=None, gt=0)
    """With `tokens` None: the least the forward pass profiles (V0: max(max_model_len, 2048))."""
    chunked_above: int | None = Field(default=None, gt=0)
    chunked_tokens: int | None = Field(default=None, gt=0)
    """With `tokens` None: above `chunked_above` context tokens the engine turns chunked prefill on and
    profiles `chunked_tokens` (V0: above 32,768, 512)."""
    multimodal_tokens_floor: int | None = Field(default=None, gt=0)
    """The least a multimodal model's forward pass profiles (V0: enough for one image's tokens, 5,120)."""
    multimodal_chunked: bool = True
    """Whether `chunked_above` turns chunked prefill on for a multimodal model too (V0 from 0.6.2: not)."""
    forward_bytes_per_intermediate: float = Field(ge=0)
    forward_bytes_per_hidden: float = Field(ge=0)
    """Bytes per profiled token held at the forward pass's peak, per MLP intermediate feature (the merged
    gate/up output and the activation's) and per hidden feature."""
    sampler_bytes_per_vocab: float | None = Field(default=None, ge=0)
    """Bytes per (request, vocabulary entry) of the sampler pass; None = rules' fitted V1 figure
    (VLLM_SAMPLER_BYTES_PER_VOCAB)."""
    non_kv_gib: float = Field(ge=0)
    """Memory inside the share that is neither weights, activations nor KV blocks (non-torch allocations; in
    V0 the CUDA context as well, which V1 leaves outside the share)."""
    non_kv_gib_tensor_parallel: float | None = Field(default=None, ge=0)
    """The same with more than one card (NCCL buffers); None = as on one card."""


class ExpertPaddingFact(Fact):
    """How a runtime pads a quantised format's MoE expert matrices for the kernel it runs them with on some
    cards: each expert's intermediate size (per tensor-parallel rank) and the hidden size are rounded up, and
    the padding is allocated like the weights (vLLM's Marlin path for MXFP4 on cards before Hopper)."""

    quant: str
    architectures: list[str] = Field(min_length=1)
    """GPU architectures (the start of `GPU.architecture`) that take this path."""
    intermediate_multiple: int = Field(gt=0)
    hidden_multiple: int = Field(gt=0)
    before: str | None = None
    """Only releases older than this take the path (None: every release); an unstated version is the newest."""
    scale_copies: int = Field(default=0, ge=0)
    """Extra copies of the block scales the kernel's weight processing keeps beside the checkpoint's own (vLLM's
    Triton path swizzles MXFP4 scales into new tensors and keeps the loaded ones): each adds the format's scale
    bytes per expert parameter."""


class FormatFloorFact(Fact):
    """The oldest NVIDIA compute capability each weight format's kernels run on in this engine (vLLM's
    `get_min_capability` per quantisation method): a card below it cannot load the checkpoint at all."""

    min_capability: dict[str, float]
    engine_min_capability: float | None = None
    """The oldest compute capability the engine itself supports, whatever the format (vLLM: 7.0)."""


class HardwareFact(Fact):
    """The GPU makers whose cards the engine runs on, as its own documentation says: a card of another maker cannot
    run it at all, whatever its memory."""

    vendors: list[str] = Field(min_length=1)


class DpAttentionFact(Fact):
    """Data-parallel attention: each rank runs attention for its own requests only, so it holds only their KV
    cache (the whole of it: an MLA latent is not split by heads) and the attention weights whole, while the
    experts and the rest stay sharded. `flag` is how the engine is told."""

    flag: str = Field(min_length=1)


class Float16RefusalFact(Fact):
    """Model families the engine refuses to run in float16 (numerical instability): on a card without bf16 its
    automatic dtype loads them in fp32 instead, and an explicit float16 is an error."""

    families: list[str] = Field(min_length=1)


class BatchBuffersFact(Fact):
    """Buffers a runtime allocates for every request slot its engine was built for, before the KV pool, so the
    pool takes its share of what they leave: TensorRT-LLM's C++ runtime and decoder running a TensorRT engine.
    They depend on the build's max_batch_size, not on what is in flight."""

    bytes_per_slot_vocab: float = Field(ge=0)
    """Per slot and vocabulary entry: fp32 logits, embedding bias, penalty and sampling workspaces."""
    bytes_per_slot_position: float = Field(ge=0)
    """Per slot and position of the engine's max_seq_len: cache indirection, output ids, log-probs."""
    bytes_per_slot: float = Field(ge=0)
    """Per slot whatever the vocabulary and length (top-k/top-p workspace)."""
    default_slots: int = Field(gt=0)
    """max_batch_size when the build does not set it."""


class TrainingFact(Fact):
    checkpointing: Literal["recompute", "offload"]
    """What gradient checkpointing keeps on the card: recompute keeps each layer's input; offload moves the
    inputs to host RAM."""
    checkpointing_default: bool | None = None
    """The engine's own default (None = it leaves the choice to the user)."""
    loss_logits_bytes_per_value: float | None = Field(default=None, ge=0)
    """Bytes per (token, vocab) logit the engine's own loss holds at its peak; None = transformers' loss (the
    rules' fitted LOGITS_BYTES_PER_VOCAB_TRAIN figures); 0 when the loss is chunked (a slice at a time)."""
    sharding: Literal["none", "zero", "fsdp"] = "none"
    kbit_upcasts_non_quantised: bool = True
    """k-bit (QLoRA) training casts the non-quantised layers (embeddings, lm_head, norms) to fp32 (PEFT
    `prepare_model_for_kbit_training`); False when the engine's own preparation leaves them 16-bit."""
    kbit_double_quant: bool = False
    """The engine loads a 4-bit NF4 base with double quantisation whatever the user asks
    (bnb_4bit_use_double_quant=True in its own loader)."""
    optimizer_default: Literal["adamw", "adamw-8bit", "sgd", "adafactor"] | None = None
    """The optimizer the engine's own documented set-up uses when the user names none (Unsloth's README and
    notebooks: `optim = "adamw_8bit"`); None = AdamW, the HF Trainer default."""
    adapter_input_bytes: float | None = None
    """Bytes per input feature an adapted linear keeps for the adapter's backward (LoRA dropout copy + mask);
    None = rules/constants.py LORA_ACT_BYTES_PER_INPUT; 0 when the engine's path has no dropout copy."""
    own_modelling: bool = False
    """The engine runs its own implementation of the architectures it supports (Unsloth's patched models,
    torchtune's model builders), not the model's transformers or remote code."""
    loss_shift_copy_bytes: float = Field(default=0.0, ge=0)
    """Bytes per (token, vocab) value of the shifted copy of the logits the loss makes before its cross-entropy
    (`logits[..., :-1, :].contiguous()`, after the fp32 upcast: 4); 0 when the labels are shifted instead
    (transformers from 4.49). A model with its own modelling code states its own (Model.remote_code)."""
    fine_tune_method: Literal["lora", "qlora"] | None = None
    """What a plain "fine-tune" means on this engine when the question names no method: its own default
    (LLaMA-Factory `finetuning_type: lora`; Unsloth loads the base in 4-bit and adds LoRA unless told
    `full_finetuning=True`); None = every parameter is trained."""
    cpu_offload: Literal["optimizer", "parameters"] = "optimizer"
    """What the engine's one "CPU offload" switch moves: the optimizer states (DeepSpeed's ZeRO-Offload,
    torchao's CPUOffloadOptimizer in torchtune), or the parameters with their gradients, the optimizer then
    stepping on the CPU (FSDP's CPUOffload(offload_params=True), its only switch)."""
    offload_default: Literal["none", "optimizer", "all"] | None = None
    """What the engine keeps in host RAM unless told otherwise (Answer.AI's fsdp_qlora offloads the parameters
    by default); None = nothing."""
    lora_rank_default: int | None = Field(default=None, ge=1)
    """The LoRA rank the engine's own defaults train (fsdp_qlora: 64); None = the rules' usual rank."""
    optimizer_states: Literal["fp32", "param"] = "fp32"
    """AdamW moments and master weights: fp32 mixed precision, or in the parameters' 16-bit dtype with no
    master copy (full bf16 training)."""
    chunked_loss_bytes_per_value: float = 0.0
    """Bytes per (token, vocab) logit when the loss is chunked (the workload asks for it or the engine always
    does), run eagerly: what every chunk keeps for backward, plus one chunk's fp32 working set."""
    image_max_pixels: int | None = Field(default=None, gt=0)
    """Pixels an image is scaled down to at most before the model's processor sees it (LLaMA-Factory's
    image_max_pixels, 768 × 768); None = the processor's own limit."""
    chunked_loss_bytes_per_value_compiled: float | None = None
    """The same under torch.compile, which saves the loss's 16-bit input rather than its fp32 output; None =
    as eager."""
