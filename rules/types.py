"""Inputs and outputs of the sizing rules: numbers in, numbers out, no words.

Memory figures are GiB (2**30 bytes), as GPU vendors and PyTorch report them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from knowledge.schema import Model

Task = Literal["inference", "train", "lora", "qlora"]
Precision = Literal["fp32", "fp16", "bf16", "fp8", "int8", "int4", "mxfp4"]
Engine = Literal["transformers", "vllm", "llama.cpp", "sglang", "lmdeploy", "tensorrt-llm", "unsloth", "deepspeed",
                 "fsdp", "fsdp-qlora", "llama-factory", "torchtune"]
Optimizer = Literal["adamw", "adamw-8bit", "sgd", "adafactor"]

TASKS: tuple[Task, ...] = ("inference", "train", "lora", "qlora")
PRECISIONS: tuple[Precision, ...] = ("fp32", "fp16", "bf16", "fp8", "int8", "int4", "mxfp4")
ENGINES: tuple[Engine, ...] = ("transformers", "vllm", "llama.cpp", "sglang", "lmdeploy", "tensorrt-llm", "unsloth",
                               "deepspeed", "fsdp", "fsdp-qlora", "llama-factory", "torchtune")
KVCache = Literal["fp16", "bf16", "fp8", "int8", "int4"]
KV_CACHES: tuple[KVCache, ...] = ("fp16", "bf16", "fp8", "int8", "int4")


@dataclass(frozen=True)
class Workload:
    """One job to size. `quant` names the weight format when precision is a quantised one (gptq, awq, nf4,
    bnb-int8, gguf-q4_k_m, …); None means plain tensors of `precision`."""

    model: Model
    task: Task = "inference"
    precision: Precision = "bf16"
    quant: str | None = None
    engine: Engine = "transformers"
    context: int = 4096
    """Prompt + generated tokens per sequence (training: sequence length)."""
    min_context: int = 0
    """Positions a sequence cannot do without whatever it is cut to (a request's images): no shorter context is
    offered as a fix below them."""
    batch: int = 1
    """Sequences in flight together (inference: concurrent requests; training: micro-batch per GPU)."""
    gen_tokens: int | None = None
    """Tokens generated per request, when known; part of `context`."""
    zero_stage: Literal[0, 1, 2, 3] | None = None
    """Training: DeepSpeed ZeRO stage / FSDP sharding across the GPUs; None lets the rules choose."""
    gradient_checkpointing: bool | None = None
    """Training: None lets the rules choose what a practitioner would turn on."""
    optimizer: Optimizer | None = None
    """Training: None means the engine's documented set-up (its profile's `optimizer_default`), else AdamW."""
    lora_rank: int = 16
    grad_accumulation: int = 1
    """Micro-steps per optimizer step (the trainers' default is 1): what an offloaded CPU optimizer step is
    spread over."""
    # Added fields (the rules' extensions; defaults keep every existing caller's meaning).
    flash_attention: bool = True
    """FlashAttention/SDPA (no seq² score tensor); False = eager attention."""
    dp_attention: bool = False
    """Serving with data-parallel attention over the cards (SGLang --enable-dp-attention, vLLM
    --data-parallel-size with expert parallelism): each card holds its own requests' KV cache and the attention
    weights whole."""
    offload: Literal["none", "optimizer", "all"] = "none"
    """Training with DeepSpeed: optimizer states offloaded to CPU RAM ("optimizer", ZeRO-Offload), or the
    parameters too ("all": ZeRO-3 offload_param, ZeRO-Infinity's CPU form)."""
    pure_16bit: bool = False
    """Training: 16-bit weights and optimizer moments with no fp32 master copy (LLaMA-Factory `pure_bf16`)."""
    train_embeddings: bool = False
    """LoRA: also train the embedding and output layers (PEFT `modules_to_save`, Qwen's "LoRA (emb)")."""
    image_resolution: int | None = None
    """Image models: output/input side in pixels (defaults to the model's native resolution); a W×H image is
    the square of the same pixels."""
    image_steps: int | None = None
    """Diffusion: denoising steps per image (defaults to the model card's)."""
    quantise_text_encoders: bool | None = None
    """Diffusion: whether a quantised format covers the large text encoders (T5) too; None = the usual recipe
    for the format (rules.memory_diffusion.quantises_text_encoders)."""
    text_encoders: Literal["cached", "resident", "trained"] | None = None
    """Diffusion training: the text encoders' outputs cached (None: what trainers do), the encoders kept on the
    card, or trained with the denoiser (rules.memory_diffusion_training)."""
    engine_version: str | None = None
    """The engine's version ("4.38", "0.6.3"); None = its current behaviour (knowledge/data/engines.yaml
    version_rules say what changed)."""
    inter_node_gbps: float | None = None
    """GB/s one-direction from each card to the other machines when the question states the network ("25GbE
    between the nodes"); None = the fabric training clusters of the card are built with (rules.speed)."""
    context_parallel: int = 1
    """Training: cards each sequence is split over (context parallelism: ring attention, DeepSpeed-Ulysses,
    Megatron's --context-parallel-size); each holds 1/N of its activations and logits."""
    expert_parallel: bool = False
    """Full training of an MoE model with expert parallelism (Megatron-Core, NeMo AutoModel, ms-swift's Megatron
    back end): each card keeps its share of the routed experts and the tokens travel to them, where ZeRO-3 / FSDP
    alone gathers every expert onto every card for each pass. It changes the speed only: the states are sharded
    over the cards either way."""
    engine_backend: str | None = None
    """The engine's execution backend when the question names one (TensorRT-LLM's `tensorrt` engine or its
    `pytorch` backend); None = the version's default."""
    kv_cache: KVCache | None = None
    """KV-cache element type; None = the model's 16-bit compute dtype. The engine profile says which it accepts
    (vLLM/SGLang/TensorRT-LLM fp8, lmdeploy int8/int4, llama.cpp q8_0/q4_0 as int8/int4)."""
    memory_fraction: float | None = None
    """The serving engine's share (vLLM gpu_memory_utilization, SGLang mem_fraction_static, lmdeploy
    cache_max_entry_count, TensorRT-LLM free_gpu_memory_fraction); None = the profile's default."""
    max_num_seqs: int | None = None
    """vLLM max_num_seqs: the requests its start-up sampler warm-up covers; None = its default for the card. For a
    TensorRT engine, its --max_batch_size: the request slots its runtime buffers are sized for."""
    engine_max_seq_len: int | None = None
    """A TensorRT engine's --max_seq_len: the prompt + output positions its per-slot runtime buffers are built for.
    None = the context sized (the engine built for it); the bot sets trtllm-build's own default, the model's
    window, when the question states no length."""
    prefill_chunk: int | None = None
    """Prompt tokens the engine runs per forward pass when the question sets it (llama.cpp -ub, vLLM
    --max-num-batched-tokens, TensorRT-LLM max_num_tokens); None = its default. Engines that prefill a prompt
    whole, or fold it into a planner figure (SGLang), ignore it."""
    layer_split: tuple[float, ...] | None = None
    """llama.cpp's --tensor-split: each card's share of the layers, one number per card (None: even)."""
    gpu_layers: int | None = None
    """llama.cpp's -ngl / Ollama's num_gpu: the layer slots (the blocks and, last, the output layer) loaded on the
    cards; the rest stay in system RAM. None = all of them. Engines that cannot leave layers on the CPU ignore
    it."""
    cpu_moe_layers: int | None = None
    """llama.cpp's --n-cpu-moe N: the routed experts of the first N blocks stay in system RAM (--cpu-moe: every
    block's). None = none. Dense models and engines that cannot ignore it."""
    lora_targets: tuple[str, ...] | None = None
    """Adapter training: the linears adapted (q, k, v, o, gate, up, down); None = every linear (all-linear)."""
    peft_method: Literal["lora", "prompt"] = "lora"
    """lora: an adapter on each targeted linear (LoRA and its kin: DoRA, IA3, OFT, …) keeps that linear's input;
    prompt: virtual tokens or prefixes (prompt/prefix/P-tuning, adaption prompt), no per-linear adapter."""
    trainable_params: float | None = None
    """Adapter parameters when the job states them (PEFT prints them); None = LoRA's r·(d_in + d_out) each."""
    activation_offloading: bool = False
    """Training: checkpointed activations kept in host RAM (torchtune `enable_activation_offloading`)."""
    optimizer_in_backward: bool = False
    """Training: the optimizer steps each parameter as its gradient is produced, so gradients never coexist
    (torchtune `optimizer_in_bwd`)."""
    chunked_loss: bool | None = None
    """Training: cross-entropy over chunks of the sequence; None = the engine's default."""
    preference_pairs: bool = False
    """Training: a paired preference loss (DPO and its kin): every sample runs a chosen and a rejected completion
    through the policy, and a full-parameter run keeps a frozen 16-bit reference copy of the model (TRL
    DPOTrainer; an adapter run scores the reference by switching its adapters off)."""
    compiled: bool = False
    """Training: the recipe runs under torch.compile (torchtune `compile: True`), which changes what the loss
    keeps for backward (the engine profile's `chunked_loss_bytes_per_value_compiled`)."""
    allocated_only: bool = False
    """Size the bytes PyTorch has allocated (active; torch.cuda.max_memory_allocated) rather than what its caching
    allocator reserves: no framework overhead constant and no allocator reserve, in training and inference. The
    benchmarks set it for tables that read that counter; the bot never does (a card must hold the reserve)."""
    paged_optimizer: bool = False
    """Training: a bitsandbytes paged optimizer (PagedAdamW, paged_adamw_32bit/8bit), whose states live in
    CUDA unified memory and are evicted to host RAM when the card runs out (QLoRA paper, "Paged Optimizers";
    bitsandbytes docs): the card must hold everything else, and holds the states only while there is room."""
    draft_model: Model | None = None
    """Inference: speculative decoding's draft model, on the same cards (rules.memory_draft)."""
    beam_size: int = 1
    """Inference of an encoder-decoder (Whisper): hypotheses kept a step by beam search; each caches and reads its
    own self-attention keys and values, while the weights are read once a step for all. 1 = greedy decoding."""
    source_per_beam: bool = True
    """Whether each beam holds its own copy of the source's cross-attention keys and values: transformers' generate
    expands the encoder output per beam; CTranslate2 (faster-whisper, WhisperX) does not. Measured: faster-whisper
    large-v2 in fp16 with 5 beams takes 4,525 MB for one stream and 6,090 MB batched 8 at a time (SYSTRAN/faster-
    whisper benchmark, as copied in kaka-lin/ASR-notes whisper/benchmark/README.md), where a cross-attention cache
    per beam alone would be 40 × 246 MB = 9.8 GB."""
    lora_adapters: int | None = None
    """Inference: LoRA adapters the service offers on this base model ("50 LoRA adapters", 挂 100 个 LoRA); the
    engine holds some of them in GPU slots at `lora_rank` (rules.memory_lora_serving). None = no adapters."""
    max_loras: int | None = None
    """Inference: the adapter slots the engine is set to hold on the card (vLLM --max-loras, SGLang
    --max-loras-per-batch); None = the engine's default."""


@dataclass(frozen=True)
class MemoryEstimate:
    """Where the bytes go. `per_gpu_gib` is the largest per-card figure when spread over `gpu_count` cards."""

    total_gib: float
    per_gpu_gib: float
    gpu_count: int
    breakdown: dict[str, float]
    """GiB by component: weights, kv_cache, activations, gradients, optimizer, overhead (all keys present)."""
    notes: list[str] = field(default_factory=list)
    """Machine-readable facts the renderer explains, e.g. 'zero3', 'checkpointing', 'vllm-reserve'
    (no prose)."""
    chosen: dict[str, object] = field(default_factory=dict)
    """Defaults the rules chose and the reply must state, e.g. {"zero_stage": 3, "gradient_checkpointing":
    True}; vLLM adds gpu_memory_utilization, kv_pool_gib and max_concurrent_sequences."""
    required_per_gpu_gib: float | None = None
    """The least memory per card the job needs, when it differs from `per_gpu_gib` (vLLM reserves 90% of the
    card whatever the model needs; this is weights + activations + the KV cache of `context` × `batch`)."""
    required_breakdown: dict[str, float] | None = None
    """GiB by component of `required_per_gpu_gib` (the KV cache of the job's own sequences, not the pool), when
    the figures above are a reservation on a named card."""
    host_ram_gib: float | None = None
    """Host (CPU) RAM per node the job needs beside the cards, when it offloads optimizer states or leaves
    layers on the CPU (llama.cpp -ngl)."""
    cuda_context_gib: float = 0.0
    """Per-card memory outside PyTorch's allocator (CUDA context), NOT included in the figures above;
    nvidia-smi shows it on top. The fit check subtracts it from the card."""


@dataclass(frozen=True)
class Speed:
    decode_tokens_per_s: float | None
    """Per sequence, at the workload's batch; None for non-generative models."""
    prefill_tokens_per_s: float | None
    aggregate_tokens_per_s: float | None = None
    train_tokens_per_s: float | None = None
    offload_step_s: float | None = None
    """Training that offloads its optimizer: the seconds of each step its CPU optimizer takes (in the rate)."""
    sharded_train_tokens_per_s: float | None = None
    """MoE training timed with expert parallelism: the rate ZeRO-3 / FSDP alone would reach on the same cards,
    which gathers every expert for each pass (what the reply compares the figure with)."""


@dataclass(frozen=True)
class Pick:
    """One candidate configuration: `count` cards of `gpu_id`."""

    gpu_id: str
    count: int
    fits: bool
    memory_per_gpu_gib: float
    headroom_gib: float
    """Memory left beyond the required safety margin (negative: does not fit)."""
    decode_tokens_per_s: float | None
    price_per_hour: float | None
    price_currency: str | None
    instance: str | None
    """An Alibaba Cloud instance type with at least `count` of these cards, when one is listed."""
    max_concurrent_sequences: int | None = None
    """vLLM: how many sequences of `context` tokens the KV-cache pool holds."""
    score: float = 0.0
    free_gib: float = 0.0
    """What the card has left while the job runs (usable memory − the job; vLLM: its unused KV pool)."""
    limit_gib: float = 0.0
    tight: bool = False
    replicas: int = 1
    """Copies of the model the cards serve, each on count / replicas cards behind a load balancer (1: one copy);
    memory and decode speed are one replica's, the price all of them."""


@dataclass(frozen=True)
class FitCheck:
    gpu_id: str
    count: int
    fits: bool
    headroom_gib: float
    memory_per_gpu_gib: float
    gpu_memory_gib: float
    suggestions: list[Suggestion] = field(default_factory=list)
    free_gib: float = 0.0
    limit_gib: float = 0.0
    """What the engine can use per card: visible memory − CUDA context, or its reservation (vLLM, SGLang)."""
    tight: bool = False
    """Within TIGHT_FRACTION of the limit, either side."""
    unsupported_precision: str | None = None
    """The weights' format the card cannot run on this engine (fp8 on a V100): it does not fit whatever the
    memory says (hardware.runs_precision)."""
    split_invalid: bool = False
    """The engine cannot split the model over this many cards (tensor parallelism needs the count to divide the
    attention heads): it does not fit whatever the memory says (limits.valid_tp)."""
    kv_pool_gib: float | None = None
    """Set when the engine's KV pool on the card holds fewer sequences than asked (limits.kv_pool_short): the
    pool, beside `sequences_held`, the sequences of the asked context it holds at once."""
    sequences_held: int | None = None


@dataclass(frozen=True)
class Suggestion:
    """A cheaper or feasible alternative: a changed workload or hardware that fits, with its numbers."""

    kind: Literal["quantise", "lora", "qlora", "more-gpus", "bigger-gpu", "shorter-context", "smaller-batch",
                  "pipeline-parallel", "one-card-replicas",
                  "zero3", "checkpointing", "offload-optimizer", "offload-all", "kv-cache", "flash-attention",
                  "newer-engine", "cpu-layers", "cpu-experts", "fewer-requests", "optimizer-8bit",
                  "model-offload", "bf16", "cache-text-encoders", "adafactor-fused", "fp8-base", "dp-attention",
                  "other-format", "engine-build"]
    precision: Precision | None = None
    quant: str | None = None
    task: Task | None = None
    gpu_id: str | None = None
    count: int | None = None
    context: int | None = None
    batch: int | None = None
    memory_per_gpu_gib: float | None = None
    kv_cache: KVCache | None = None
    """The smaller KV-cache element type a "kv-cache" alternative uses (one the engine accepts)."""
    host_ram_gib: float | None = None
    """Host RAM per machine an offloading alternative needs (DeepSpeed's estimator; for "cpu-layers", the layers
    left in system RAM with their KV cache and the token embeddings)."""
    gpu_layers: int | None = None
    """For "cpu-layers": the layer slots kept on the cards (llama.cpp -ngl)."""
    cpu_moe_layers: int | None = None
    """For "cpu-experts": the first blocks whose routed experts stay in system RAM (llama.cpp --n-cpu-moe)."""
    max_num_seqs: int | None = None
    """For "fewer-requests": the request cap (vLLM --max-num-seqs) whose start-up profile leaves room; for
    "engine-build", the TensorRT engine's --max_batch_size (its --max_seq_len is `context`)."""
    flash_attention: bool | None = None
    """For "newer-engine": True when the current release fits only with a fused attention kernel turned on too
    (an old transformers asked for without flash attention)."""
    optimizer: Optimizer | None = None
    """For "zero3": the optimizer it fits with when sharding alone does not (8-bit AdamW)."""
    engine: Engine | None = None
    """The engine the alternative runs on when it is not the job's (a Q4_K_M GGUF on llama.cpp for a GeForce
    card the transformers job does not fit); None = the job's own."""
