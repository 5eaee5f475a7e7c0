"""`Answer`: everything a reply says, as data. Renderers turn it into words; nothing here is prose.

The JSON form (`Answer.as_json()`) is the contract scripts and checks rely on (design.md, "The Answer as
JSON"); keys are stable, more may be added.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.reply.money_model import BudgetOut, CostOut, PriceOut, ServingPlanOut
from bot.understand.question import Intent, Lang
from rules.constants import REFERENCE_RAM_CHANNELS, REFERENCE_RAM_MTS
from rules.types import Engine, KVCache, Precision, Task


class HostMemory(BaseModel):
    """System RAM as the question gives it; a kind without a channel count is taken as dual-channel, a desktop's
    usual fit."""

    model_config = ConfigDict(extra="forbid")

    channels: int
    kind: str
    mts: int
    bus_bits: int = 64
    """Bits a channel carries: 64 for a DIMM channel; a single-board computer's LPDDR can be narrower (32 on the
    Raspberry Pi 5)."""

    @property
    def bandwidth_gbps(self) -> float:
        """Theoretical peak: MT/s × the bus's bytes (8 for a 64-bit channel) × channels."""
        return self.channels * self.mts * self.bus_bits / 8 / 1000

    @classmethod
    def stated(cls, host_ram: tuple[int, str, int] | None) -> HostMemory | None:
        """The memory a question's `host_ram` slot (channels, kind, MT/s) names, or None."""
        return cls(channels=host_ram[0], kind=host_ram[1].upper(), mts=host_ram[2]) if host_ram else None


REFERENCE_RAM = HostMemory(channels=REFERENCE_RAM_CHANNELS, kind="DDR5", mts=REFERENCE_RAM_MTS)
"""The system memory assumed when the question names none: dual-channel DDR5-4800, a current desktop's."""

DESKTOP_MOST_RAM_GB = 256.0
"""The most RAM a desktop board takes (four 64 GB DIMMs on its two channels): more is a server's or a workstation's."""
SERVER_RAM = HostMemory(channels=8, kind="DDR5", mts=4800)
"""The memory assumed with more RAM than a desktop takes ("一张 4090 加 512G 内存"): eight channels of DDR5-4800,
the fewest of the boards that hold it (Xeon W and Threadripper PRO have 8; EPYC 9004 12, 460.8 GB/s: AMD's EDAC
patches for Genoa, reported at capn3m0.org/amd-confirms-twelve-ddr5-memory), where two desktop channels had capped
DeepSeek-V3's decode at 6.3 tok/s (audit 34 M-124)."""


def host_memory_of(host_ram: tuple[int, str, int] | None, host_ram_gb: float | None) -> HostMemory | None:
    """The system memory a question names, else the server memory its RAM size implies, else None."""
    return HostMemory.stated(host_ram) or (
        SERVER_RAM if host_ram_gb is not None and host_ram_gb > DESKTOP_MOST_RAM_GB else None)


class Query(BaseModel):
    """The workload actually sized: the question's slots with defaults filled in."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = None
    params_b: float | None = None
    task: Task | None = None
    precision: Precision | None = None
    quant: str | None = None
    engine: Engine | None = None
    context: int | None = None
    batch: int | None = None
    gpu: str | None = None
    gpu_count: int | None = None
    memory_gb: float | None = None
    card_bandwidth_gbps: float | None = None
    """The memory bandwidth stated for a card known only by its memory: its decode is timed at it."""
    cloud: str | None = None
    budget: bool = False
    lang: Lang = "en"
    tokens: float | None = None
    """Training tokens of the job, when the question states them."""
    hours: float | None = None
    """Rental hours, when the question states them ("for a month" = 730)."""
    subscription: bool = False
    """Those hours are asked for as subscription months ("包月"), not pay-as-you-go."""
    daily_batch: bool = False
    """The job is one day's batch, run every day: its cost is billed for a month of such days."""
    engine_version: str | None = None
    """The engine version whose profile was used (null: the current behaviour of the engine)."""
    engine_backend: str | None = None
    """The execution backend named for the engine (TensorRT-LLM `tensorrt` or `pytorch`; null: the version's
    default)."""
    kv_cache: KVCache | None = None
    """KV-cache precision when it differs from the model's compute dtype by request (null: the model's dtype)."""
    memory_fraction: float | None = None
    """The share a reserving serving engine takes (stated, else its default: vLLM gpu_memory_utilization 0.9);
    null for engines that take what the job needs."""
    max_num_seqs: int | None = None
    """vLLM's request cap, or a TensorRT engine's --max_batch_size, when the question sets it (null: the engine's
    default, under Assumed)."""
    prefill_chunk: int | None = None
    """Tokens per forward pass when the question sets it (llama.cpp -ub, vLLM --max-num-batched-tokens); null:
    the engine's default."""
    layer_split: list[float] | None = None
    """llama.cpp's --tensor-split when stated: each card's share of the layers (the figures are the fullest card's)."""
    gpu_set: list[str] = Field(default_factory=list)
    """Cards of different kinds run as one set, one GPU id per card in the order named (empty otherwise)."""
    gpu_layers: int | None = None
    """llama.cpp's -ngl / Ollama's num_gpu when stated: layer slots on the cards (null: all)."""
    image_resolution: int | None = None
    """Image generation: the side in pixels of the (square-equivalent) image sized; null for other models."""
    image_steps: int | None = None
    """Image generation: denoising steps per image when the question sets them (null: the model card's)."""
    text_encoders: Literal["cached", "resident", "trained"] | None = None
    """Image-model training: whether the text encoders' outputs are cached (off the card), the encoders stay on
    it, or they are trained; null for other jobs."""
    cpu_moe_layers: int | None = None
    """llama.cpp's --n-cpu-moe when stated: the first blocks whose routed experts stay in system RAM (999:
    --cpu-moe, all of them; null: none)."""
    host_memory: HostMemory | None = None
    """The machine's system memory when the question names its kind ("64GB DDR4", "8-channel DDR5"): what
    the ceilings on layers or experts read from RAM are computed at (null: dual-channel DDR5-4800)."""


class Breakdown(BaseModel):
    model_config = ConfigDict(extra="forbid")

    weights: float = 0.0
    kv_cache: float = 0.0
    activations: float = 0.0
    gradients: float = 0.0
    optimizer: float = 0.0
    overhead: float = 0.0


class EstimateOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    total_gb: float
    per_gpu_gb: float
    gpu_count: int = 1
    breakdown: Breakdown
    notes: list[str] = Field(default_factory=list)
    host_ram_gb: float | None = None
    """Host RAM per node beside the cards (optimizer states offloaded to CPU, or the layers llama.cpp leaves on
    the CPU), GiB."""
    gpu_layers: int | None = None
    """When llama.cpp leaves layers on the CPU: the layer slots on the cards (-ngl), of `layer_slots`."""
    layer_slots: int | None = None
    """The model's layer slots as llama.cpp counts them: its blocks and the output layer."""
    cpu_moe_layers: int | None = None
    """When llama.cpp keeps experts in system RAM: the first blocks whose routed experts stay there."""
    host_read_gb_per_token: float | None = None
    """With layers or experts in system RAM: GiB each generated token reads from it."""
    ram_bound_tokens_per_s: float | None = None
    """The ceiling that puts on decode tokens/s at dual-channel DDR5-4800's 76.8 GB/s (a bound, not an
    estimate)."""
    batch_buffers_gb: float | None = None
    """Per card, GiB: a TensorRT engine's runtime and decoder buffers for `max_batch_size` request slots, taken
    before its KV pool (counted in breakdown.overhead); null where the runtime has none sized."""
    max_batch_size: int | None = None
    """The request slots those buffers are sized for (stated, else the engine build's default)."""
    profiled_images: int | None = None
    """Dummy images a serving engine's start-up profile encodes at once (vLLM, a model with a sized image
    encoder); null otherwise."""
    image_encoder_gb: float | None = None
    """Per card, GiB: the image encoder's peak over those images (part of breakdown.activations when it is the
    profile's largest)."""
    draft_gb: float | None = None
    """Speculative decoding: the draft model's weights and KV cache over all the cards (spread like the target's),
    inside the weights line (GiB); audit 35 LOW-199 had read it as a card's."""
    tensor_split: list[int] | None = None
    """Blocks per card when experts stay in RAM on several cards: the llama.cpp --tensor-split that evens the
    cards' bytes (its default split by block count would load the last card alone); null otherwise."""


class SuggestionOut(BaseModel):
    """An alternative that fits: what changes (kind + the changed slots) and what it then needs."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    precision: Precision | None = None
    quant: str | None = None
    task: Task | None = None
    gpu: str | None = None
    count: int | None = None
    context: int | None = None
    batch: int | None = None
    memory_per_gpu_gb: float | None = None
    host_ram_gb: float | None = None
    """Host RAM per machine the alternative needs (offloading), GiB."""
    kv_cache: str | None = None
    """The KV-cache element type a "kv-cache" alternative uses."""
    gpu_layers: int | None = None
    """For "cpu-layers": the layer slots kept on the cards (llama.cpp -ngl, Ollama num_gpu)."""
    cpu_moe_layers: int | None = None
    """For "cpu-experts": the first blocks whose routed experts stay in system RAM (llama.cpp --n-cpu-moe)."""
    max_num_seqs: int | None = None
    """For "fewer-requests": the request cap (vLLM --max-num-seqs) that fits."""
    flash_attention: bool | None = None
    """For "newer-engine": true when the newer release needs flash attention turned on as well."""
    optimizer: str | None = None
    """For "zero3": the optimizer it fits with when sharding alone does not (adamw-8bit)."""
    engine: str | None = None
    """The engine the alternative runs on when not the job's (llama.cpp for a Q4_K_M GGUF on a GeForce card)."""
    decode_tokens_per_s: float | None = None
    train_hours: float | None = None
    """A training fix on the cards asked about: the hours the question's tokens then take there."""
    """For a quantised alternative on the cards checked: one sequence's decode speed there, so "which quant and
    how fast" is answered for the card someone has, not only for the picks."""


class PickOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str
    count: int
    fits: bool
    memory_per_gpu_gb: float
    headroom_gb: float
    """limit_gb − memory_per_gpu_gb: what the engine could still give the job per card (negative: no fit)."""
    decode_at_load: int | None = None
    """The sequences decoding at once that `decode_tokens_per_s` is each one's speed at (the serving plan's load),
    when it is not one sequence's alone (audit 39 M-154: both were labelled "per sequence")."""
    free_gb: float = 0.0
    """Left on the card while the job runs."""
    decode_tokens_per_s: float | None = None
    price_per_hour: float | None = None
    price_currency: str | None = None
    instance: str | None = None
    max_concurrent_sequences: int | None = None
    limit_gb: float = 0.0
    tight: bool = False
    cloud: str | None = None
    region: str | None = None
    price_date: str | None = None
    price_source: list[str] = Field(default_factory=list)
    instances: int | None = None
    """Instances of `instance` the count takes (16 GPUs = 2 × an 8-GPU instance)."""
    instance_gpus: int | None = None
    """The GPUs those instances hold, when more than `count` (no 2-GPU L4 instance on AWS: a 4-GPU g6.12xlarge,
    billed whole); None when they hold exactly the count."""
    price_fx_rate: str | None = None
    """The operator's dated exchange rate, when `price_per_hour` was converted from the source's currency."""
    work_tokens_per_s: float | None = None
    """Cards compared: the useful tokens per second of this configuration (generated across the batch when
    serving, trained when training)."""
    work_cost: float | None = None
    """Cards compared: `price_per_hour` per unit of that work, in `price_currency` (per million generated tokens
    when serving, per billion trained tokens when training, per 1,000 images for an image generator): what
    "which is more cost-effective" compares."""
    job_hours: float | None = None
    """An offline job over documents compared side by side: how long this set-up takes over all of them."""
    job_cost: float | None = None
    """…and what those hours cost at the pick's price (its currency): "which is cheaper in total"."""
    seconds_per_image: float | None = None
    """Cards compared, image generation: seconds per image on this card at the size and steps sized."""
    fix: SuggestionOut | None = None
    """Cards compared: for a set-up that does not hold the job, the change on those same cards that makes it hold
    it (bot.reply.compare_fix)."""
    gradient_checkpointing: bool | None = None
    """Training: whether the rules check-point on this configuration (off where the card holds the job without:
    faster), so a pick's memory can differ from the estimate's for the same job."""
    replicas: int | None = None
    """Many users served by copies of the model, each on count / replicas cards in one node behind a load
    balancer (null: one copy); memory_per_gpu_gb, decode speed and the instance are one replica's, count, the
    price and max_concurrent_sequences all of them (the text gives the concurrency per replica, beside the
    replica's other figures)."""


class StackPartOut(BaseModel):
    """One of several models deployed on the same cards (bot.reply.stack): what it needs per card on its own."""

    model_config = ConfigDict(extra="forbid")

    model: str
    name: str
    per_gpu_gb: float
    engine: str | None = None
    serving_cards: int | None = None
    """The cards its own serving plan takes for the load asked (replicas × cards each), when it has one."""
    serving_gpu: str | None = None
    serving_gpu_name: str | None = None
    serving_per_hour: float | None = None
    """What those cards cost an hour (its plan's bill), in `serving_currency`."""
    serving_currency: str | None = None


class CardFitOut(BaseModel):
    """One card of a set of different cards: what the job puts on it and what it can give."""

    model_config = ConfigDict(extra="forbid")

    gpu: str
    needed_gb: float
    """What the job puts on this card (GiB)."""
    limit_gb: float
    layers: int | None = None
    """The blocks a layer split gives this card (null when every card holds the same shard)."""


class CheckOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str
    count: int
    fits: bool
    fewer_count: int | None = None
    """When the job fits: the fewest of the card below `count` that also hold it (bot.reply.fewer_cards)."""
    fewer_need_gb: float | None = None
    headroom_gb: float
    memory_per_gpu_gb: float
    gpu_memory_gb: float
    free_gb: float = 0.0
    suggestions: list[SuggestionOut] = Field(default_factory=list)
    limit_gb: float = 0.0
    """What the engine can use per card (GiB): the fit compares memory_per_gpu_gb with this."""
    limit_basis: str = "usable"
    """usable (visible memory − CUDA context) | reservation (vLLM gpu_memory_utilization, SGLang)."""
    reserve_fraction: float | None = None
    tight: bool = False
    unsupported_precision: str | None = None
    """Set when the card cannot run the weights' format on this engine (fp8 on a V100): then fits is False
    whatever the memory figures say."""
    split_invalid: bool = False
    """Set when the engine cannot split the model over this many cards (tensor parallelism needs the count to
    divide the attention heads): then fits is False whatever the memory figures say."""
    cards: list[CardFitOut] = Field(default_factory=list)
    """For cards of different kinds run as one set: each card, in the order named (`gpu` is then the one with
    the least room left)."""
    split: str | None = None
    """How the engine shares the job over those cards: by-memory (llama.cpp's default layer split), stated (a
    --tensor-split), equal (tensor parallel or data parallel: the smallest card decides)."""
    kv_pool_gb: float | None = None
    """Set when the memory fits but the engine's KV pool (LMDeploy, TensorRT-LLM: a share of what the weights
    leave) holds fewer sequences than asked: then fits is False, and sequences_held says how many it holds."""
    sequences_held: int | None = None
    host_ram_gb: float | None = None
    """Set when the cards hold their part but the state kept in system RAM (ZeRO-Offload, llama.cpp's layers or
    experts) needs more than the RAM the question gives (GB as written): then fits is False."""
    host_ram_needed_gb: float | None = None
    """What that state needs in system RAM per machine (GiB), beside `host_ram_gb`."""


class CapacityOut(BaseModel):
    """The largest model (billions of parameters) a card or a memory size holds for one kind of job."""

    model_config = ConfigDict(extra="forbid")

    task: Task
    precision: Precision
    max_params_b: float | None
    examples: list[str] = Field(default_factory=list)
    """Knowledge model ids of about that size."""


class MaxContextOut(BaseModel):
    """The longest context the job fits on a set of cards, for "what is the max context on this card"."""

    model_config = ConfigDict(extra="forbid")

    gpu: str
    count: int
    tokens: int | None
    """None: not even a short prompt fits these cards."""
    window: int | None
    """The model's own context window (the search stops there)."""
    kv_kib_per_token: float
    """KV cache per token per card, the slope of the need with the context (inference)."""
    precision: str | None = None
    """Set when the job as asked holds no context on these cards: the quantised format (the check's first fix)
    the longest context is given for instead."""
    quant: str | None = None
    longer_release: str | None = None
    """A release of the same model with a longer window (a model id), named when the whole window fits."""


class ModelCompareOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str
    total_gb: float
    per_gpu_gb: float
    gpu: str | None = None
    count: int | None = None
    fits: bool | None = None
    decode_tokens_per_s: float | None = None
    max_concurrent_sequences: int | None = None
    """Formats compared for a serving engine: the sequences of the job's context the row's cards hold."""
    task: Task | None = None
    """Set when training methods are compared ("full fine-tune vs LoRA vs QLoRA"): the row's method, on `model`."""
    format: str | None = None
    engine: str | None = None
    """Set when the formats compared run on different engines (a GGUF on llama.cpp beside AWQ on vLLM)."""
    """Set when weight formats are compared ("AWQ, GPTQ or FP8"): the row's format (awq, gptq, fp8, int8, …)."""
    fix: dict[str, Any] | None = None
    """Models compared on the cards named, for a row that does not fit them: the first quantisation that does,
    on those same cards, {precision, quant, per_gpu_gb} ("which fits 2× 4090?": Gemma 2 27B in 8 bits)."""
    job_hours: float | None = None
    """Speech models compared over hours of recorded audio: the run on the row's cards, and its bill when priced
    ("large-v3 vs large-v3-turbo … hours and cost for each?")."""
    job_cost: float | None = None
    job_currency: str | None = None


class Assumption(BaseModel):
    """A slot the question did not state, the value used, and why (a code the templates translate)."""

    model_config = ConfigDict(extra="forbid")

    field: str
    value: Any
    reason: str = "default"


class ConfigRef(BaseModel):
    """A set of cards: `count` × the knowledge id `gpu`."""

    model_config = ConfigDict(extra="forbid")

    gpu: str
    count: int


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    intent: Intent
    query: Query
    estimate: EstimateOut | None = None
    picks: list[PickOut] = Field(default_factory=list)
    check: CheckOut | None = None
    compare: list[str] = Field(default_factory=list)
    """For intent compare: GPU ids side by side."""
    capacity: list[CapacityOut] = Field(default_factory=list)
    """For "what can this card run": the largest model per job kind."""
    model_compare: list[ModelCompareOut] = Field(default_factory=list)
    faq: list[str] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    """Did-you-mean model ids, for an unknown or doubtful model."""
    assumptions: list[Assumption] = Field(default_factory=list)
    understood: dict[str, Any] = Field(default_factory=dict)
    """What the text stated, slot by slot, for the "I read this as" line."""
    missing: list[str] = Field(default_factory=list)
    """Facts the answer hinges on that the question lacked (model, task, budget): the reply asks for them."""
    speed: dict[str, float | None] = Field(default_factory=dict)
    """Figures for the top pick: prefill tokens/s, aggregate tokens/s, training hours, cost per M tokens."""
    speed_on: ConfigRef | None = None
    """The cards `speed` and `cost` describe: those the question named, unless the job does not fit them and
    a pick does (a speed or a bill for cards the job cannot run on would describe nothing). None for a machine
    of different cards: `speed` is then that set's (check.cards), and no bill is given."""
    sources: list[str] = Field(default_factory=list)
    other_engine: dict[str, Any] | None = None
    fewer_in_tp: dict[str, Any] | None = None
    """Fewer of the first pick's card holding the load with tensor parallelism, beside its one-card replicas."""
    engines_compared: list[dict[str, Any]] = Field(default_factory=list)
    """The serving engines the question weighs, side by side on the cards sized (bot.reply.engine_compare)."""
    """When no engine was named and the other common one changes the per-card need by more than 15%:
    {engine, per_gpu_gb} (inference: transformers ↔ vLLM; LoRA/QLoRA: PEFT ↔ Unsloth)."""
    lighter_task: dict[str, Any] | None = None
    other_checkpointing: dict[str, Any] | None = None
    """Both gradient-checkpointing settings asked: the other one's need per card (bot.reply.checkpointing_both)."""
    other_stage: dict[str, Any] | None = None
    """A second ZeRO stage the question asks about on its cards: {stage, mine (the stage it runs), gpu, count, fits,
    per_gpu_gb, limit_gb}
    and, when the batch asked does not fit, {batch_one_gb, batch_one_fits} (side_figures.other_stage_figure)."""
    weighed_layout: dict[str, Any] | None = None
    """A replica layout the question weighs: {cards, replicas, gpu, users_each, fits, per_gpu_gb, limit_gb,
    decode_tokens_per_s, sequences_each} (bot.reply.weighed_layout)."""
    all_cards: dict[str, Any] | None = None
    """All the cards of a box weighed beside the part asked about: {count, gpu, fits, per_gpu_gb, held, held_now,
    context, length, starts} (bot.reply.all_cards)."""
    cloud_choice: list[dict[str, Any]] = Field(default_factory=list)
    """The cheapest set-up holding the job on each cloud a thread priced on, when asked which is cheaper:
    [{cloud, gpu, count, instance, per_hour, currency}] (bot.reply.cloud_choice)."""
    reasoning_length: dict[str, Any] | None = None
    """A reasoning model served at a default length: the same cards at its makers' generation length, {tokens,
    context, gpu, count, per_gpu_gb, fits} (bot.reply.reasoning_length)."""
    compare_serving_speeds: dict[str, float] = Field(default_factory=dict)
    """Cards compared under transformers with no engine stated: each set-up's decode with the usual serving engine
    (vLLM), card id → tok/s, so the comparison also says the gap where the engine stops hiding it."""
    quantised_path: dict[str, Any] | None = None
    """The 4-bit job on fewer of the card named, beside a 16-bit answer on many: {gpu, count, quant, per_gpu_gb,
    decode_tokens_per_s, sixteen_bit_count} (bot.reply.quantised_path)."""
    load_ram: dict[str, Any] | None = None
    """System RAM to load the model, asked for: {weights_gb, fp32_gb, shard_gb} (bot.reply.load_ram)."""
    copies_at_once: dict[str, Any] | None = None
    """Copies of the model one card holds at once, asked for: {copies, per_copy_gb, total_gb, limit_gb, context,
    engine, share, share_needed} (bot.reply.copies)."""
    other_kv: dict[str, Any] | None = None
    engine_length: dict[str, Any] | None = None
    """The engine's length flag written beside shorter requests: {length, gpu, count, starts, longest} (whether
    one sequence that long fits the KV cache a replica's cards leave, else the longest that does)."""
    """A KV-cache type weighed beside the set-up that runs: {kv_cache, gpu, count (a replica's cards), context,
    max_num_seqs, now, other (sequences of that length one replica holds with each cache)}."""
    smaller_models: list[dict[str, Any]] = Field(default_factory=list)
    """The makers' smaller versions of the model that fit the card asked about (model, precision, quant, engine,
    per_gpu_gb), largest first, when the model itself does not fit."""
    """A full fine-tune the question did not call full, that needs several cards: what LoRA needs instead on
    one of the recommended cards, {task, gpu, count, per_gpu_gb} (only when it fits there)."""
    mac_beside: dict[str, Any] | None = None
    """A Mac named beside the card sized: the same job on it in llama.cpp, {chip, memory_gb, usable_gib,
    need_gib, fits, decode_tokens_per_s, bandwidth_gbps} (bot.reply.mac_beside)."""
    cpu_only: dict[str, Any] | None = None
    """When the question says there is no GPU: what llama.cpp needs to run the model from system RAM in
    Q4_K_M at the question's context, {quant, ram_gb, read_gb_per_token, ram_bound_tokens_per_s} (the last a
    ceiling at dual-channel DDR5-4800's 76.8 GB/s peak, rules.constants.REFERENCE_RAM_BANDWIDTH_GBPS)."""
    error: str | None = None
    """A code for a reply that could not size anything (e.g. 'too-long', 'unknown-model')."""
    text: str = ""
    cost: CostOut | None = None
    asked_cost: CostOut | None = None
    """The rent of the set the question named, for the hours it gave, when that set does not hold the job and
    `cost` is for one that does: the user asked what their set costs."""
    other_cloud_costs: list[CostOut] = Field(default_factory=list)
    """The same configuration on the other clouds the question names ("AWS vs GCP"), each with nulls where that
    cloud has no known price."""
    reference_cost: CostOut | None = None
    """The configuration at its cheapest public list price on any cloud, when the cloud the question names has
    none known here (Azure): labelled as another cloud's price, never passed off as the one asked about."""
    stack: list[StackPartOut] = Field(default_factory=list)
    """Models deployed together on the same cards, the first the one sized above: each one's need per card; the
    check is for their sum (bot.reply.stack)."""
    stack_picks_checked: bool = False
    """With no card named: the picks kept are those with room for the other models beside the first."""
    budget: BudgetOut | None = None
    prices: list[PriceOut] = Field(default_factory=list)
    """For gpu_info: the known instances of the card with their prices."""
    serving: ServingPlanOut | None = None
    max_context: MaxContextOut | None = None

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
