"""`Question`: what the bot understood from a message, before any sizing.

Parsing fills it from text; `ask` flags and Slack buttons override single slots. Every slot that the text
stated is recorded in `stated`, so the reply can show "I read this as: …" and the assumptions can list
exactly what was defaulted. The notes a reading leaves on it, and the properties that read them back, are
kept in bot.understand.notes (the names stay importable from here).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.understand.notes import (
    ASSUMED_MODEL_NOTE,
    CLAIMED_MEMORY_NOTE,
    DERIVED_NAME_NOTE,
    ENGINE_NOT_ON_CARD_NOTE,
    FAMILY_RELEASE_NOTE,
    GGUF_SERVER_NOTE,
    MODDED_NOTE,
    NO_SUCH_VARIANT_NOTE,
    ROLLOUT_ENGINE_NOTE,
    SHARED_MEMORY_NOTE,
    NoteViews,
)
from rules.types import Engine, Optimizer, Precision, Task

Intent = Literal["recommend", "check", "compare", "faq", "gpu_info", "model_info", "help", "unknown"]
Lang = Literal["en", "zh-Hans", "zh-Hant"]
INTENTS: tuple[Intent, ...] = ("recommend", "check", "compare", "faq", "gpu_info", "model_info", "help", "unknown")

MAX_PARAMS_B = 20_000.0
"""Bound on a stated parameter count (billions): larger than any model that exists, small enough to size."""
MAX_CONTEXT = 10_000_000
MAX_BATCH = 4096
"""Sequences in flight at once: beyond this no single deployment is sized as one job."""
MAX_OUTPUT_TOKENS = 1e13
"""Tokens a volume of output to generate may count ("generate 10 billion tokens")."""
MAX_USERS = 10_000_000
"""Concurrent users a serving plan spreads over replicas ("10,000 concurrent users"), beyond one job's batch."""
MAX_GPU_COUNT = 100_000
"""Cards one job may span: above the largest training runs described (Llama 3 405B on 16,384 H100s, "The Llama 3
Herd of Models", 2024) and the 100,000-GPU clusters announced since; 10,000 H100s is a question to answer."""
MAX_PREFILL_CHUNK = 1_048_576
"""Tokens per forward pass: vLLM's max_num_batched_tokens goes to hundreds of thousands, never past this."""
MIN_IMAGE_SIDE = 64
MAX_IMAGE_SIDE = 16_384
"""Image sides in pixels: diffusion latents are 8× smaller, so below 64 there is nothing to denoise; above 16K
no pipeline runs in one piece."""
MAX_IMAGE_STEPS = 1000
"""Denoising steps: DDPM's full schedule is 1,000; samplers use 1-150."""
MAX_GPU_LAYERS = 999
"""llama.cpp's -ngl: people write 99 or 999 for "all"; no model has more layers."""

MAX_LORA_ADAPTERS = 100_000
"""LoRA adapters one base model may serve: S-LoRA ("Serving Thousands of Concurrent LoRA Adapters", Sheng et al.
2023) serves 2,000 from one A100; a service with more is sized, anything beyond this is not one deployment."""

TRAINING_SWITCHES = ("paged_optimizer", "activation_offloading", "optimizer_in_backward", "chunked_loss", "compiled",
                     "preference_pairs")
"""Training techniques a question can switch on by name: each a boolean slot of the same name on the Question,
the JSON request and the Workload, read back by its own label."""

SLOT_ORDER = (
    "model", "draft_model", "params_b", "task", "precision", "quant", "engine", "engine_version", "engine_backend",
    "kv_cache", "flash_attention", "dp_attention",
    "memory_fraction", "max_num_seqs", "prefill_chunk", "layer_split", "gpu_layers", "cpu_moe_layers",
    "context", "batch", "more_sequences", "more_sequences_context", "users", "user_base",
    "user_base_period",
    "gen_tokens", "output_tokens", "image_dims", "image_resolution", "image_steps",
    "text_encoders", "prior_preservation", "image_count", "audio_hours", "audio_per_day", "clip_seconds", "beam_size",
    "texts_per_request", "images_per_request", "images_per_minute", "images_per_minute_per_user", "instance", "gpu",
    "gpu_count", "machines", "gpu_set", "host_ram_gb", "inter_node_gbps", "context_parallel", "unified_memory",
    "apple_chip",
    "memory_gb", "card_bandwidth_gbps", "compare_gpus", "cloud", "other_clouds",
    "currency", "budget", "consumer", "budget_amount", "budget_currency", "budget_period", "zero_stage", "offload",
    "gradient_checkpointing", "lora_adapters", "max_loras", "lora_rank", "grad_accumulation", "optimizer",
    *TRAINING_SWITCHES, "tokens", "training_samples", "training_steps", "training_epochs", "hours",
)
"""The order the read-back lists the slots a text stated (`Question.stated`); a slot not listed is not stated."""


PRETRAINING_TOKENS = 1e10
"""From this many training tokens a job is treated as (continued) pre-training, not a fine-tune an adapter could
replace: a threshold of this bot's, set an order of magnitude above the LoRA jobs its sources time (≤ 1B tokens)."""


class Question(NoteViews, BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = ""
    intent: Intent = "recommend"
    lang: Lang = "en"

    model: str | None = None
    """Knowledge id of the model, when one was recognised with confidence."""
    model_text: str | None = None
    """The words the model was read from (for "did you mean" and the "I read this as" line)."""
    model_score: float | None = None
    model_suggestions: list[str] = Field(default_factory=list)
    params_b: float | None = Field(default=None, gt=0, le=MAX_PARAMS_B)
    """A bare size ("a 13B model", "70亿参数") when no model was named."""

    task: Task | None = None
    precision: Precision | None = None
    quant: str | None = None
    engine: Engine | None = None
    context: int | None = Field(default=None, gt=0, le=MAX_CONTEXT)
    batch: int | None = Field(default=None, gt=0, le=MAX_BATCH)

    users: int | None = Field(default=None, gt=MAX_BATCH, le=MAX_USERS)
    """More concurrent sequences than one job's batch (`batch` holds MAX_BATCH): what a serving plan spreads
    over replicas."""
    smi_busy: dict[int, int] = Field(default_factory=dict)
    """Cards of a pasted nvidia-smi table another job already uses: index → MiB in use (the reply says the figures
    assume them free)."""
    user_base: int | None = Field(default=None, gt=0)
    """People who use the product in a day, week or month ("10k DAU", "日活 1 万"): not a load; the reply asks for
    the peak at once (bot.understand.slots.user_base)."""
    user_base_period: Literal["day", "week", "month"] | None = None
    more_sequences: int | None = Field(default=None, gt=0, le=MAX_USERS)
    """Sequences of a second group served beside the batch at a shorter context ("8 analysts at 128k plus about
    40 short chats"): they share the same KV cache (bot.reply.mixed_load)."""
    more_sequences_context: int | None = Field(default=None, gt=0, le=MAX_CONTEXT)
    """That group's tokens per sequence when said ("plus 40 chats at 2k"); None = a chat's default."""
    gen_tokens: int | None = Field(default=None, gt=0, le=MAX_CONTEXT)
    output_tokens: float | None = Field(default=None, gt=0, le=MAX_OUTPUT_TOKENS)
    """Inference: a volume of output to generate ("how long to generate 1M tokens"), timed and billed at the
    generation rate shown; not one reply's length."""
    image_resolution: int | None = Field(default=None, ge=MIN_IMAGE_SIDE, le=MAX_IMAGE_SIDE)
    """Image generation: the side of a square image of the pixels asked for ("768x768", "1024px", "1920x1080"
    → 1440)."""
    image_dims: str | None = None
    """A non-square image as written ("1920×1080"), for the read-back; `image_resolution` is what is sized."""
    images_per_minute: float | None = Field(default=None, gt=0)
    """Images a minute an image service must make in all ("200 images per minute")."""
    images_per_minute_per_user: float | None = Field(default=None, gt=0)
    """Images a minute each of its users asks for ("每人每分钟一张图"): times the users, the service's rate."""
    image_count: int | None = Field(default=None, gt=0)
    """Image generation: images the job makes ("10k images", "1万张图"); the run is timed and billed."""
    audio_hours: float | None = Field(default=None, gt=0)
    """Speech recognition: hours of audio the job transcribes ("1000 hours of audio"); timed and billed."""
    audio_per_day: bool = False
    """`audio_hours` arrive every day ("1000 hours of audio per day"): cards to keep up, billed by the month."""
    live_audio: bool = False
    """Speech transcribed as it is spoken ("real-time", "live", "实时"): streams refreshed every second or so."""
    clip_seconds: float | None = Field(default=None, gt=0)
    """Seconds of audio in each request to a speech model ("10-second clips"): padded to 30-second windows."""
    beam_size: int | None = Field(default=None, ge=1, le=64)
    """A speech model's beam search width as stated ("beam_size 5"); None = greedy decoding, as timed by default."""
    image_steps: int | None = Field(default=None, gt=0, le=MAX_IMAGE_STEPS)
    """Image generation: denoising steps per image ("28 steps", "4步")."""
    prior_preservation: bool | None = None
    """DreamBooth's prior preservation ("with prior preservation", --with_prior_preservation): a class image is
    trained beside each instance image, so an image model's training step holds twice its batch."""
    text_encoders: Literal["cached", "resident", "trained"] | None = None
    """Image-model training: the text encoders' outputs cached ("cache text embeddings"), the encoders kept on the
    card ("text encoder on GPU") or trained ("--train_text_encoder"); None = cached, as trainers do."""
    zero_stage: Literal[0, 1, 2, 3] | None = None
    other_zero_stage: Literal[0, 1, 2, 3] | None = None
    """A second ZeRO stage the text names beside the one it runs ("ds_zero2.json … would ZeRO-3 fit?"): the reply
    gives that stage's need on the same cards in one line (audit 24 HIGH 12)."""
    gradient_checkpointing: bool | None = None
    lora_rank: int | None = Field(default=None, gt=0, le=4096)
    lora_adapters: int | None = Field(default=None, gt=0, le=MAX_LORA_ADAPTERS)
    """Inference: LoRA adapters served on the base model ("50 LoRA adapters with vLLM", 挂 100 个 LoRA); the rank
    is `lora_rank` (bot/understand/slots/lora_serving.py)."""
    max_loras: int | None = Field(default=None, gt=0, le=MAX_LORA_ADAPTERS)
    """Inference: the adapters the engine holds on the card at once as stated ("--max-loras 8", SGLang
    --max-loras-per-batch, or "all 50 active at once"); None = the engine's default."""
    grad_accumulation: int | None = Field(default=None, gt=0, le=4096)
    """Micro-steps per optimizer step, when stated ("gradient accumulation 8")."""
    optimizer: Optimizer | None = None
    paged_optimizer: bool | None = None
    """A bitsandbytes paged optimizer ("paged AdamW", paged_adamw_8bit): its states may leave the card."""
    activation_offloading: bool | None = None
    """Checkpointed activations kept in host RAM ("activation offloading", torchtune enable_activation_offloading)."""
    optimizer_in_backward: bool | None = None
    """The optimizer steps each parameter as its gradient arrives ("optimizer in backward", optimizer_in_bwd)."""
    chunked_loss: bool | None = None
    """Cross-entropy over chunks of the sequence ("chunked cross entropy"); None = the engine's default."""
    generic_fine_tune: bool = False
    """The text asked to fine-tune or train without naming a method or saying all parameters ("fine-tune X with
    unsloth", "SFT"): an engine whose own default method is LoRA or QLoRA sizes that."""
    preference_pairs: bool | None = None
    """A paired preference loss ("DPO"): chosen + rejected per sample, a frozen reference for full runs."""
    compiled: bool | None = None
    """The recipe runs under torch.compile ("torch.compile", compile: True)."""
    flash_attention: bool | None = None
    dp_attention: bool | None = None
    """Serving with data-parallel attention ("--enable-dp-attention", "DP attention")."""
    offload: Literal["none", "optimizer", "all"] | None = None
    pure_16bit: bool | None = None
    train_embeddings: bool | None = None

    machines: int | None = Field(default=None, gt=0, le=10_000)
    """Machines (nodes) a follow-up asks the thread's job on, naming no card ("what if we use 2 nodes?",
    "用两台机器呢"): the thread's cards a machine times this (bot.understand.followup)."""
    active_params_b: float | None = Field(default=None, gt=0, le=MAX_PARAMS_B)
    """Parameters a mixture-of-experts model the knowledge base lacks runs per token, as stated ("86B active"):
    its size from `params_b` is in memory, this is what a token computes and reads."""
    gpu: str | None = None
    gpu_text: str | None = None
    unknown_gpu_text: str | None = None
    no_gpu: bool = False
    cpu_board: str | None = None
    """A single-board computer the job runs on ("Raspberry Pi 5"): no GPU the runtimes use, so `no_gpu`, and its
    RAM where a source gives it (bot/understand/unknown.BOARD_RAM)."""
    """The text says the job has no GPU ("CPU only", "没有显卡", "on an iPhone"): the reply says what a CPU needs."""
    host_ram: tuple[int, str, int] | None = None
    """The machine's memory as written ("8-channel DDR5", "DDR4-3200 dual channel"): channels, kind, MT/s."""
    """A card-shaped name no lookup matched ("RTX 9090"): the reply says it does not know that card."""
    unmodelled_engine: str | None = None
    """A runtime named that has no engine profile ("with TGI", "exl2"), when no profiled one is named: the
    reply says whose figures it gives instead."""
    gpu_count: int | None = Field(default=None, gt=0, le=MAX_GPU_COUNT)
    unified_memory: bool = False
    """A Mac (Apple silicon) is the machine: `memory_gb` is its unified memory, of which macOS gives the GPU a
    part."""
    apple_chip: str | None = None
    mac_beside: tuple[str, float | None] | None = None
    """A Mac named beside the card sized ("M4 Pro 64GB vs RTX 5090"): its chip id and unified memory (GB, when
    written), answered on a line of its own."""
    """The Apple silicon chip named with a Mac ("m3-max"): knowledge/data/apple_silicon.yaml gives its bandwidth."""
    instance: str | None = None
    """A cloud instance type named ("g5.12xlarge"): `gpu`, `gpu_count` and `cloud` are its cards and cloud."""
    named_instances: dict[str, str] = Field(default_factory=dict)
    """The instance types named, by the card each holds ("g5.2xlarge vs g6.2xlarge": a10g → g5.2xlarge): a
    configuration of that card is priced on the instance named, not on the family's cheapest size."""
    compare_engines: list[str] = Field(default_factory=list)
    """Serving engines the question weighs against each other ("TensorRT-LLM vs vLLM"): the first sizes the reply,
    all are set side by side on its cards."""
    compare_gpus: list[str] = Field(default_factory=list)
    """For intent compare: the GPU ids named, in order."""
    thread_gpus: dict[str, int | None] = Field(default_factory=dict)
    """Cards earlier messages of the thread were sized on, with the count each stated (None: the fewest that
    hold the job): "which one is cheaper in total?" after "on one L4?" … "and on an H100?" chooses among them."""
    thread_clouds: dict[str, str] = Field(default_factory=dict)
    """The cloud each of the thread's cards was priced on ("一张 A10 on Alibaba" … "AWS 的 L4 呢"): a choice among
    them prices each where it was asked (`compare_clouds`), not all on the latest cloud named."""
    asked_clouds: list[str] = Field(default_factory=list)
    answered_pick: tuple[str, int] | None = None
    """The first set-up the reply recommended, (card id, count), when the question named no card: what a thread's
    later "换成 H20 呢 … 哪个更便宜" weighs the new card against (set by the conversation, bot.service)."""
    chooses_thread_clouds: bool = False
    """"哪个更便宜" after the job was priced on several clouds: each cloud's cheapest fitting set-up is set side by
    side (bot.reply.cloud_choice)."""
    """The clouds a thread has priced on, in the order asked: "哪个更便宜" after AWS and then Alibaba Cloud prices
    the job on each."""
    compare_clouds: dict[str, str] = Field(default_factory=dict)
    """For a comparison among the thread's cards asked on different clouds: GPU id → the cloud to price it on."""
    compare_counts: dict[str, int] = Field(default_factory=dict)
    """For intent compare: the count written before each card ("4x L40S vs 2x H100"); a card without one is
    sized at the fewest that hold the job."""
    compare_as_sized: bool = False
    """A choice among the thread's set-ups ("which is cheaper per month?"): a set that does not hold the job at
    the count its turn asked is compared at the fewest of its card that do, as that turn's reply recommended."""
    gpu_set: list[str] = Field(default_factory=list)
    """Cards of different kinds in one machine ("a 3090 and a 3060"): one GPU id per card, in the order named;
    `gpu` is the first and `gpu_count` their number."""

    memory_gb: float | None = Field(default=None, gt=0, le=100_000)
    """GPU memory stated without a card ("is 24GB enough", "48G显存够吗"): checked against a generic card."""
    card_bandwidth_gbps: float | None = Field(default=None, gt=0, le=20_000)
    """The memory bandwidth stated for that generic card ("MTT S80 16GB, 448 GB/s"): its decode is timed at it."""
    compare_models: list[str] = Field(default_factory=list)
    """For intent compare: the model ids named, in order, when models rather than GPUs are compared."""
    asks_capacity: bool = False
    """The reverse question: what can this card (or this much memory) run?"""

    cloud: str | None = None
    """alibaba | aws | azure | gcp, when named."""
    currency: Literal["USD", "CNY", "EUR", "TWD"] | None = None
    """The currency the question asks its money in ("the cost in EUR", "用美元算"), when it names one."""
    budget_amount: float | None = Field(default=None, gt=0, le=1e12)
    """A sum the question says it can spend ("budget $3,000 a month", "预算每月1万元")."""
    budget_currency: str | None = None
    """USD | CNY | EUR: as written, else the question's language's (CNY for Chinese, USD otherwise)."""
    budget_period: Literal["hour", "day", "month", "total", "purchase"] | None = None
    """What the sum covers: an hour, a day, a month of the set-up, or the whole job."""
    rent_per_hour: float | None = Field(default=None, gt=0, le=1e6)
    """Beside a purchase: the hourly rent the text states for the alternative ("rent 4090s at $0.69/hr per card"),
    which the buy-or-rent line weighs instead of the catalogue's price."""
    rent_currency: str | None = None
    rent_per_card: bool = False
    """`rent_per_hour` is each card's ("per card", "每张"), not the set's."""
    budget: bool = False
    """The question asks for the cheapest / most cost-effective option."""
    consumer: bool = False
    """The question asks for a consumer card ("a gaming GPU", "at home", 消费级): GeForce picks, not rented ones."""

    stated: list[str] = Field(default_factory=list)
    """Slots the text (or a flag) stated, as opposed to defaults."""
    clamped: list[str] = Field(default_factory=list)
    clamped_asked: dict[str, float] = Field(default_factory=dict)
    """The value written for a slot in `clamped` (what was asked, beside the bound used)."""
    """Slots whose stated value was out of bounds and was clamped (the reply says so)."""
    faq_hint: str | None = None
    """The FAQ id the parser matched, for intent faq."""
    gpu_defaulted: bool = False
    """A GPU was named without its variant ("A100", "V100", "H100") and read as the knowledge base's default
    entry for that bare name; the reply's assumptions say which card it was read as."""
    gpu_variants: list[str] = Field(default_factory=list)
    """With `gpu_defaulted`: the datacenter cards of the same architecture the bare name may mean, the default
    first ("A100" → a100-80gb, a100-40gb): a cloud that rents the smaller one cheaper may be the one meant."""
    intent_explicit: bool = False
    """The intent came from a cue phrase ("which GPU", "够吗", "vs"), not from the shape of the question;
    a follow-up without one keeps the previous question's intent."""
    engine_version: str | None = None
    """The engine's version as written ("4.38", "0.6.3"): the engine profile changes with it."""
    engine_backend: str | None = None
    """An execution backend the text names ("trtllm-build", "Triton" → TensorRT-LLM's `tensorrt` engine)."""
    kv_cache: str | None = None
    """KV-cache precision (fp16 | bf16 | fp8 | int8 | int4), or `kv-quantised` when no type was given."""
    other_gpu_count: int | None = Field(default=None, gt=0)
    """All the cards of a box weighed beside the part the job runs on ("on 2 of the 4 L40S … would using all 4 GPUs
    be the better fix?"): the reply adds what the whole box holds (audit 28 M-49)."""
    other_kv_cache: str | None = None
    """A KV-cache type named only as a change to weigh beside a set-up that runs ("we run … (3) if we switch the KV
    cache to fp8, how many 32k sequences fit?"): the job is sized as it runs and the reply adds what that type
    holds in one line (audit 25 HIGH 22)."""
    other_kv_context: int | None = Field(default=None, gt=0, le=MAX_CONTEXT)
    """The length the KV-cache change is weighed at: the engine's length flag when the requests' own are written."""
    logged_progress: list[float] | None = None
    """A pasted trainer progress bar: [steps done, steps in all, seconds a step] (bot.reply.progress_view)."""
    logged_queue: list[float] | None = None
    """[running, pending, KV-cache use %] from a pasted vLLM metrics line ("Running: 10 reqs, … Pending: 14 reqs,
    GPU KV cache usage: 99.8%"): requests queue because the cache is full (bot.reply.notices)."""
    logged_kv_tokens: int | None = Field(default=None, gt=0)
    """The tokens a pasted engine log says its KV cache holds: the user's own measurement, said beside the
    estimate when the length flag is checked."""
    engine_max_len: int | None = Field(default=None, gt=0, le=MAX_CONTEXT)
    """The engine's length flag (--max-model-len) written beside the requests' own, shorter lengths: the job is
    sized at the requests', and the reply checks that the engine starts with the flag (vLLM refuses to when one
    sequence that long does not fit its KV cache; audit 26 LOW-61)."""
    weighed_layout: tuple[int, int] | None = None
    """(cards a replica, replicas) of a layout weighed against the one asked ("would TP=2 x 2 replicas be
    better?"): the reply sizes the users on it in one line (audit 26 HIGH 34)."""
    tensor_parallel: int | None = Field(default=None, ge=1, le=MAX_GPU_COUNT)
    """The engine's tensor-parallel degree as its flag writes it ("--tensor-parallel-size 2"): a replica's cards."""
    memory_fraction: float | None = Field(default=None, gt=0, le=1)
    """The serving engine's memory share as its flag states it (vLLM gpu_memory_utilization, SGLang
    mem_fraction_static, lmdeploy cache_max_entry_count, TensorRT-LLM free_gpu_memory_fraction)."""
    max_num_seqs: int | None = Field(default=None, ge=1, le=65_536)
    """vLLM's cap on requests in flight, which also sizes its start-up sampler warm-up (a TensorRT engine's
    --max_batch_size, which sizes its runtime buffers)."""
    prefill_chunk: int | None = Field(default=None, ge=1, le=MAX_PREFILL_CHUNK)
    """Tokens per forward pass the engine is set to: "-ub 2048", "--max-num-batched-tokens 16384"."""
    layer_split: list[float] | None = None
    """llama.cpp's --tensor-split, each card's share of the layers ("-ts 10,6")."""
    gpu_layers: int | None = Field(default=None, ge=0, le=MAX_GPU_LAYERS)
    """llama.cpp's -ngl / Ollama's num_gpu: layer slots on the cards, the rest in system RAM ("-ngl 40")."""
    cpu_moe_layers: int | None = Field(default=None, ge=0, le=MAX_GPU_LAYERS)
    """llama.cpp's --n-cpu-moe N: the first N blocks keep their routed experts in system RAM ("--cpu-moe" or
    "-ot exps=CPU": all of them, written as MAX_GPU_LAYERS)."""
    other_jobs: list[str] = Field(default_factory=list)
    """Further workloads the message asked about, quoted (bot.understand.jobs): answered separately."""
    closed_model: str | None = None
    """A closed, API-only model named (GPT-4, Claude, Gemini): nothing to size, the reply says why."""
    draft_model: str | None = None
    """Knowledge id of speculative decoding's draft model (bot.understand.speculative); `model` is the target."""
    unmodelled_model: tuple[str, str] | None = None
    """(kind, name) of an open model of a kind the rules do not size ("video", "Wan"; "tts", "CosyVoice")."""
    notes: list[str] = Field(default_factory=list)
    """Machine-readable readings the reply may explain: `ptuning-as-lora` (P-tuning / prefix tuning sized as
    LoRA), `quant-bits-assumed` (a bare "量化"/"quantized" read as int8), `task-implied` (inference read from
    concurrency / context / a serving engine rather than from a task word)."""
    tokens: float | None = Field(default=None, gt=0, le=1e16)
    """Training tokens of the job ("300B tokens", "3 epochs over 50k samples of 2k tokens")."""
    sample_tokens: int | None = Field(default=None, gt=0, le=MAX_CONTEXT)
    """Tokens per training sample when the text gives them ("50k samples of 2k tokens"): the sequence length a
    training step holds when no context is stated."""
    asks_max_context: bool = False
    """The text asks for the longest context the job fits ("max context on a 24GB card", "最长能跑多长上下文")."""
    training_samples: int | None = Field(default=None, gt=0, le=10**12)
    """Samples the job trains on when the text gives no length per sample ("on 10k samples"): the reply sizes
    each at the job's context, an upper bound it states."""
    training_steps: int | None = Field(default=None, gt=0, le=10**9)
    """Optimizer steps of a training job ("for 2000 steps", "max_steps=1000", "训练1000步"): with the job's batch,
    its samples (bot.reply.defaults.samples_as_tokens)."""
    training_epochs: float | None = Field(default=None, gt=0, le=1000)
    """Passes over those samples ("3 epochs"); None = one."""
    hours: float | None = Field(default=None, gt=0, le=1e6)
    """Rental hours stated ("for 100 hours", "for a month" = 730, "24/7" = a month)."""
    daily_batch: bool = False
    """The job's count arrives every day and the hours a day's batch runs are asked ("每天新增 300 万条 … 每天要跑几个
    小时"): the job is one day's, billed every day of the month."""
    subscription: bool = False
    """A subscription month is asked for ("包月", "monthly subscription"), not 730 pay-as-you-go hours."""
    asks_cost: bool = False
    """A cost cue ("how much does it cost", "多少钱", "费用"): the reply leads with the money."""
    asks_token_cost: bool = False
    """A price per generated token asked ("cost per million tokens", "$/1M tokens", "每百万token成本"): such a price
    assumes a serving engine at full load, so the reply sizes one replica at the most sequences it holds."""
    encodes_documents: bool = False
    """The model named is an encoder and the text counts what it is to encode ("embed 10M documents"): the count
    in `training_samples` is then the job, timed at the encoder's speed, not a training set."""
    stack_formats: dict[str, str] = Field(default_factory=dict)
    """In a stack, the weight format a model's own name carries ("Llama-3.1-70B-AWQ": awq), for that model alone."""
    stack_models: list[str] = Field(default_factory=list)
    """Models deployed beside `model` on the same cards ("an embedder and a reranker together on one A10"): the
    reply checks their sum, each in its own process (bot.reply.stack)."""
    batch_job: bool = False
    """A generative model is run over the documents the text counts ("summarise 1M articles of 2k tokens into
    200-token summaries"): `training_samples` requests, each a prompt of `context` − `gen_tokens` tokens and
    `gen_tokens` of output, prefilled and generated at a serving engine's full load (bot.understand.documents)."""
    asks_running_cost: bool = False
    """What it costs to keep the machine running is asked ("cheaper to run 24/7", "电费"): for hardware someone owns
    that is its electricity (bot.reply.owned_running)."""
    asks_spot: bool = False
    """Spot or preemptible prices are asked about: the reply gives the spot price it knows or says none is."""
    asks_overflow: bool = False
    """The fit is asked as spilling or running out of memory ("will it spill to CPU?", "会爆显存吗"): the verdict
    then says whether it fits in words that answer that question (slots/cues.ASKS_OVERFLOW)."""
    asks_max_rate: bool = False
    """The request rate the set-up sustains is asked ("how many requests per second can it sustain"): the serving
    plan gives the rate its compute keeps up with (audit 27 M-38)."""
    asks_precision: bool = False
    """Which precision to run in is asked, none named ("… and in what precision?", "用什么精度"): the formats the
    card runs are set side by side (bot.reply.format_choice)."""
    api_price_per_million: float | None = Field(default=None, gt=0)
    """An API's price per million tokens the question weighs its own serving against, in `api_price_currency`."""
    api_price_currency: str | None = None
    companion_models: list[str] = Field(default_factory=list)
    """Smaller models named beside the one sized in a pipeline ("bge-m3 + reranker + Qwen2.5-14B"): said with their
    weights beside the generator's sizing (bot.reply.notices)."""
    slow_first_token: bool = False
    """The first token is said to come slowly ("users complain about slow first token", "TTFT too high", "首 token
    慢"): the reply gives one prompt's prefill time and what shortens it (bot.reply.first_token)."""
    logged_oom: bool = False
    """A pasted log shows the job running out of memory ("CUDA out of memory", "OutOfMemoryError"): the verdict says
    that the sizing, not the log, is what fits (bot.reply.notices.rate_not_kept_line)."""
    asks_load_ram: bool = False
    """How much system RAM loading the model takes is asked (bot.understand.slots.load_ram)."""
    asks_copies: bool = False
    """How many copies of the model the card holds at once is asked ("一张 A100 能同时跑几个 7B 模型"): each its own
    process (bot.understand.slots.copies, bot.reply.copies)."""
    asks_concurrency: bool = False
    """How many users or sequences the set-up serves at once is asked ("how many concurrent users", "最大并发"):
    the reply sizes one replica of a serving engine at the most sequences it holds."""
    other_clouds: list[str] = Field(default_factory=list)
    """Clouds named after the first ("on AWS vs GCP"): the configuration is priced on each of them too."""
    asks_latency: bool = False
    """How long one request takes is asked ("p95 latency for 512 tokens", "首 token 延迟多少"), with or without a
    target: the reply gives a request's first-token and total time on the configuration it times."""
    asks_time: bool = False
    """A time cue ("how long", "要多久", "GPU-hours"): the reply leads with the wall-clock."""
    qps: float | None = Field(default=None, gt=0)
    """Serving target: requests per second."""
    texts_per_request: int | None = Field(default=None, gt=0)
    """Texts each request carries ("rerank 100 docs per query"): an encoder's serving load is `qps` times this
    (a reranker scores every query-document pair), not one sequence a request."""
    tokens_per_s_per_user: float | None = Field(default=None, gt=0)
    """Serving target: decode tokens per second each user sees."""
    output_tokens_per_s: float | None = Field(default=None, gt=0)
    """Serving target: tokens per second generated over all users ("2,000 tokens/s in total", "100M output
    tokens a day" ≈ 1,157)."""
    prompt_tokens_per_s: float | None = Field(default=None, gt=0)
    """Serving load: prompt tokens a second to prefill over all users ("一天 2 亿 token 的输入" ≈ 2,315), with
    `output_tokens_per_s`; the serving plan's compute must keep up with both."""
    ttft_s: float | None = Field(default=None, gt=0)
    """Serving target: time to the first token, seconds."""
    latency_s: float | None = Field(default=None, gt=0)
    """Serving target: a whole request's latency, seconds ("p50 latency under 3s"). Met when each request writes its
    output in that time: read as the per-user speed `tokens_per_s_per_user` = output tokens ÷ latency
    (bot.understand.parse), the first token's wait not counted."""
    images_per_request: int | None = Field(default=None, gt=0)
    """Images a vision-language request carries ("一次输入 5 张图片"): read so they are not taken for cards or a
    context; their tokens are counted only through the context the text gives."""
    compare_tasks: list[Task] = Field(default_factory=list)
    """Training methods set side by side ("full fine-tune vs LoRA vs QLoRA"): each one's memory and pick."""
    compare_formats: list[str] = Field(default_factory=list)
    compare_format_counts: dict[str, int] = Field(default_factory=dict)
    """The cards a compared format is written to run on, where it differs from the set asked ("NVFP4 on 4x B200 …
    better than the FP8 release on 8x B200?"): that row is sized on them (audit 28 M-48)."""
    """Weight formats set side by side ("AWQ, GPTQ or FP8"): keys of bot.understand.slots.formats.FORMATS, the
    first the one the reply sizes."""
    inter_node_gbps: float | None = Field(default=None, gt=0)
    """The network between machines the text states ("25GbE"), as GB/s one-direction per card."""
    context_parallel: int | None = Field(default=None, ge=0, le=64)
    """Training: cards each sequence is split over ("context parallel 8", "CP=4", "ring attention"; 0 = named with
    no degree, None = not asked): each holds 1/N of the sequence's activations (bot.understand.slots.runtime)."""
    host_ram_gb: float | None = Field(default=None, gt=0)
    """The machine's RAM as the text gives it ("256GB RAM", "加 256G 内存"): offloaded state must fit in it."""
    offload_to_ram: bool = False
    """Part of the model in system RAM is asked for with no layer count ("with partial offload", "+ 64G 内存"):
    the reply keeps on the cards the most layers (or MoE experts) that fit, as llama.cpp's -ngl / --n-cpu-moe."""
    observed_tokens_per_s: float | None = Field(default=None, gt=0)
    """A decode speed the asker measured and doubts ("is 15 tok/s normal?"): the reply compares it with its own."""


__all__ = ["ASSUMED_MODEL_NOTE", "CLAIMED_MEMORY_NOTE", "DERIVED_NAME_NOTE", "ENGINE_NOT_ON_CARD_NOTE",
           "FAMILY_RELEASE_NOTE", "GGUF_SERVER_NOTE", "INTENTS", "MAX_BATCH", "MAX_CONTEXT", "MAX_GPU_COUNT",
           "MAX_GPU_LAYERS", "MAX_IMAGE_SIDE", "MAX_IMAGE_STEPS", "MAX_LORA_ADAPTERS", "MAX_OUTPUT_TOKENS",
           "MAX_PARAMS_B", "MAX_PREFILL_CHUNK", "MAX_USERS", "MIN_IMAGE_SIDE", "MODDED_NOTE", "NO_SUCH_VARIANT_NOTE",
           "PRETRAINING_TOKENS", "ROLLOUT_ENGINE_NOTE", "SHARED_MEMORY_NOTE", "SLOT_ORDER", "TRAINING_SWITCHES",
           "Intent", "Lang", "Question"]
