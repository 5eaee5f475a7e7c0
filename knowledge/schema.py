"""Pydantic schema of the knowledge base.

Every entry carries `source`: the advisor's users check numbers, so a fact without a place to check it
is a defect. Models forbid unknown keys so a typo in a YAML file fails at start-up instead of silently
dropping a field that the sizing rules needed.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Entry(BaseModel):
    """Base of every knowledge entry: strict keys, a source, and honesty flags."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: list[str] = Field(min_length=1)
    notes: str | None = None
    unverified: bool = False
    unverified_fields: list[str] = Field(default_factory=list)

    @field_validator("source", mode="before")
    @classmethod
    def _source_as_list(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class RemoteCode(BaseModel):
    """What a model's own modelling code (config.json `auto_map`, loaded with trust_remote_code=True) does in
    memory where it differs from the transformers implementation the engine profile describes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    loss_shift_copy_bytes: float = Field(ge=0)
    """Bytes per (token, vocab) value of the copies of the logits its forward makes for the loss besides the
    fp32 upcast: the shifted copy (2 when it shifts the 16-bit logits, 4 when it upcasts them first) and any
    transposed contiguous copy (ChatGLM's sequence-first layout: 2 more)."""
    source: str = Field(min_length=1)


class Kept16Bit(BaseModel):
    """What the authors' own quantised release leaves in 16-bit beyond the embeddings and lm_head, which every
    quantiser keeps: users asking for "Llama-3.1-405B FP8" load that checkpoint, not an all-FP8 one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attention: bool = False
    """Every layer's attention projections (q, k, v, o) stay 16-bit."""
    end_layers: int = Field(default=0, ge=0)
    """Whole decoder layers at the ends of the stack (first and last = 2) stay 16-bit."""
    source: str = Field(min_length=1)


class MoE(BaseModel):
    """Mixture-of-experts shape: memory needs every expert, compute only the routed ones."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    num_experts: int = Field(gt=0)
    experts_per_token: int = Field(gt=0)
    num_shared_experts: int = Field(default=0, ge=0)
    moe_intermediate_size: int | None = Field(default=None, gt=0)
    first_k_dense: int = Field(default=0, ge=0)


class MLA(BaseModel):
    """DeepSeek multi-head latent attention: the KV cache stores a compressed latent per token."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kv_lora_rank: int = Field(gt=0)
    q_lora_rank: int | None = None
    qk_rope_head_dim: int = Field(gt=0)
    qk_nope_head_dim: int | None = None
    v_head_dim: int | None = None


class VisionEncoder(BaseModel):
    """A multimodal model's image encoder, as far as what it holds per image while it runs.

    A serving engine that encodes dummy images at start-up (vLLM's profile run) sets this memory aside for
    every image it encodes at once, so its size decides how many requests fit beside the weights."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tokens_per_image: int = Field(gt=0)
    """Positions the encoder runs for the largest image, padding and every tile included."""
    hidden_size: int = Field(gt=0)
    intermediate_size: int = Field(gt=0)
    kept_hidden_states: int = Field(default=0, ge=0)
    """Layer outputs the encoder keeps to the end (features read from several depths)."""
    dense_attention_mask: bool = False
    """The encoder builds a 16-bit positions × positions attention mask per image."""
    cross_attention: bool = False
    """The language model reads the image through cross-attention layers: engines serve it as an
    encoder-decoder model."""
    source: str = Field(min_length=1)


class ImageTokens(BaseModel):
    """How many of the language model's positions one input image takes, from the model's image processor.

    Three schemes cover the families served today: `pixels` (Qwen2-VL/2.5-VL, Pixtral: the image is resized to a
    multiple of the area one token covers, within pixel bounds), `tiles` (Llama 4, InternVL: tiles of a fixed side,
    a token count per tile, a thumbnail tile) and `fixed` (Gemma 3, GLM-4V: every image resized to one size)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scheme: Literal["pixels", "tiles", "fixed"]
    pixels_per_token: int | None = Field(default=None, gt=0)
    """`pixels`: the side in pixels of the square one token covers (patch size × spatial merge)."""
    min_pixels: int | None = Field(default=None, gt=0)
    max_pixels: int | None = Field(default=None, gt=0)
    """`pixels`: the processor's default bounds on the resized image's area."""
    max_side: int | None = Field(default=None, gt=0)
    """`pixels`: the longest side the processor resizes to (Pixtral's longest edge)."""
    rounding: Literal["nearest", "up"] = "nearest"
    """`pixels`: each side rounded to the nearest multiple (Qwen2-VL's smart_resize) or up to the next (Pixtral)."""
    row_break_tokens: int = Field(default=0, ge=0)
    """`pixels`: positions added at the end of each row of tokens (Pixtral's [IMG_BREAK])."""
    tile_size: int | None = Field(default=None, gt=0)
    tokens_per_tile: int | None = Field(default=None, gt=0)
    max_tiles: int | None = Field(default=None, gt=0)
    thumbnail: bool = False
    """`tiles`: a downscaled whole-image tile is added when the image takes more than one tile."""
    separator_tokens_per_tile: int = Field(default=0, ge=0)
    """`tiles`: positions between the tiles of an image cut into more than one (Llama 4's tile separators)."""
    fixed_tokens: int | None = Field(default=None, gt=0)
    extra_tokens: int = Field(default=0, ge=0)
    """Special positions around each image (start and end markers)."""
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _complete(self) -> ImageTokens:
        needed = {"pixels": ("pixels_per_token",), "tiles": ("tile_size", "tokens_per_tile", "max_tiles"),
                  "fixed": ("fixed_tokens",)}[self.scheme]
        missing = [name for name in needed if getattr(self, name) is None]
        if missing:
            raise ValueError(f"scheme {self.scheme} needs {', '.join(missing)}")
        return self


Attention = Literal["mha", "gqa", "mqa", "mla"]
NativePrecision = Literal["fp32", "fp16", "bf16", "fp8", "mxfp4", "int4"]
"""Precisions an official checkpoint ships in (config.json `torch_dtype` / `quantization_config`)."""
Modality = Literal["text", "encoder", "vision", "audio", "image-generation", "multimodal", "code"]


class Model(Entry):
    """A model's architecture, as its config.json states it.

    Transformer fields are optional because the knowledge base also holds CNNs and diffusion models,
    which the rules size from `params_b` and `details` alone.
    """

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    name: str
    aliases: list[str] = Field(default_factory=list)
    hf_ids: list[str] = Field(default_factory=list)
    family: str
    org: str
    modality: Modality
    arch: Literal["decoder", "encoder", "encoder-decoder", "cnn", "vit", "diffusion", "dual-encoder"]
    params_b: float = Field(gt=0, le=20_000)
    params_b_computed: float | None = Field(default=None, gt=0)
    active_params_b: float | None = Field(default=None, gt=0)
    active_params_b_computed: float | None = Field(default=None, gt=0)
    num_layers: int | None = Field(default=None, gt=0)
    hidden_size: int | None = Field(default=None, gt=0)
    num_attention_heads: int | None = Field(default=None, gt=0)
    num_kv_heads: int | None = Field(default=None, gt=0)
    head_dim: int | None = Field(default=None, gt=0)
    attention: Attention | None = None
    intermediate_size: int | None = Field(default=None, gt=0)
    mlp: Literal["gated", "plain"] | None = None
    mlp_branch: int | None = Field(default=None, gt=0)
    vocab_size: int | None = Field(default=None, gt=0)
    max_context: int | None = Field(default=None, gt=0)
    max_position_embeddings: int | None = Field(default=None, gt=0)
    """config.json `max_position_embeddings` of the checkpoint people deploy, where it differs from
    `max_context` (Qwen2's base configs say 131072, its instruct configs 32768). Old transformers modelling code
    sizes its rotary tables by it; None = `max_context`."""
    sliding_window: int | None = Field(default=None, gt=0)
    tie_embeddings: bool | None = None
    kv_cache_kib_per_token_16bit: float | None = Field(default=None, gt=0)
    moe: MoE | None = None
    mla: MLA | None = None
    vision_encoder: VisionEncoder | None = None
    image_tokens: ImageTokens | None = None
    """Positions an input image takes in the language model: what images a request carries add to its context."""
    fp16_overflow: str | None = None
    """Where it is documented that the model's activations overflow fp16 (max 65,504) and give NaNs or garbage:
    sized in fp16 (a card without bf16), the reply says so."""
    remote_code: RemoteCode | None = None
    """Set when transformers runs the model's own modelling code rather than a library implementation."""
    release: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)
    native_precision: NativePrecision = Field(
        default="bf16",
        description="The precision the official checkpoint ships in: what an engine loads when told nothing "
        "(DeepSeek-V3 fp8 from its quantization_config, gpt-oss mxfp4). Cite the config or card in `source`.",
    )
    native_quant: Literal["int4-experts-g32"] | None = Field(
        default=None,
        description="The weight format of an int4 release, where it is not the GPTQ/AWQ default the rules assume "
        "(Kimi K2 Thinking: compressed-tensors INT4 experts, group 32). Cite its quantization_config in `source`.",
    )
    smaller_versions: list[str] = Field(
        default_factory=list,
        description="Ids of the smaller models its makers released in the same line (DeepSeek-R1's six distilled "
        "models): what a card too small for this one can run instead. Cite the release in `source`.",
    )
    official_quants: list[str] = Field(
        default_factory=list,
        description="Quantised variants the model's authors publish (fp8, awq-int4, gptq-int4, gptq-int8, gguf, "
        "mxfp4); community quantisations are not listed.",
    )

    official_quant_16bit: dict[str, Kept16Bit] = Field(default_factory=dict)
    """Per official quant (a key of `official_quants`): the parts that release keeps in 16-bit."""

    @model_validator(mode="after")
    def _consistent(self) -> Model:
        if self.moe is not None and self.active_params_b is None:
            raise ValueError("active_params_b is required when moe is set")
        if self.attention == "mla" and self.mla is None:
            raise ValueError("mla is required when attention is 'mla'")
        for quant in self.official_quant_16bit:
            if quant not in self.official_quants:
                raise ValueError(f"official_quant_16bit names {quant!r}, which is not in official_quants")
        pattern = str(self.details.get("attention_pattern") or "").lower()
        if self.sliding_window and ("global" in pattern or "full" in pattern) and not (
                self.details.get("full_attention_layers") or self.details.get("full_kv_layers")):
            # Without the split the rules window every layer (or none), missing the cache by several times.
            raise ValueError("details.full_attention_layers (and sliding_window_layers) are required when "
                             "details.attention_pattern mixes sliding-window and global layers")
        return self

    @property
    def rope_positions(self) -> int | None:
        """Positions a rotary table built at load time covers (config `max_position_embeddings`)."""
        return self.max_position_embeddings or self.max_context

    @property
    def is_moe(self) -> bool:
        return self.moe is not None

    @property
    def active_params(self) -> float:
        """Parameters (billions) that one token touches: all of them for a dense model."""
        return self.active_params_b or self.params_b


class GPU(Entry):
    """An accelerator. Throughput figures are dense tensor peaks (no 2:4 sparsity)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    name: str
    aliases: list[str] = Field(default_factory=list)
    vendor: str
    architecture: str | None = None
    memory_gb: float = Field(gt=0, le=1024)
    memory_type: str | None = None
    bandwidth_gbps: float = Field(gt=0, le=50_000)
    fp32_tflops: float | None = Field(default=None, gt=0)
    fp16_tflops: float | None = Field(default=None, gt=0)
    fp16_tflops_fp32_accum: float | None = Field(default=None, gt=0)
    bf16_tflops: float | None = Field(default=None, gt=0)
    fp8_tflops: float | None = Field(default=None, gt=0)
    int8_tops: float | None = Field(default=None, gt=0)
    tdp_w: float | None = Field(default=None, gt=0)
    interconnect: str | None = None
    nvlink_gbps: float | None = Field(default=None, gt=0)
    mig: bool = False
    mig_max_instances: int | None = None
    form: Literal["datacenter", "workstation", "consumer"]
    launch_year: int | None = None
    recommended: bool = Field(
        default=True,
        description="False for cards the advisor never proposes for ML (e.g. a Quadro P2200).",
    )
    memory_variants_gb: list[float] = Field(
        default_factory=list,
        description="Other memory sizes the card is sold in whose other figures are not published (an H20 with "
        "141 GB): a question naming one is sized at that memory and timed at this entry's bandwidth and compute, "
        "and the reply says so. Cite the size in `source`.",
    )
    price_usd_per_hour: float | None = Field(default=None, gt=0)
    price_source: str | None = None
    gpus_per_node: int | None = Field(
        default=None,
        gt=0,
        description="GPUs that come as one unit (a GB200 superchip: 2 with one Grace CPU; an HGX board: 8). The "
        "entry's figures stay per GPU; this says the card is bought and placed in those steps.",
    )
    devices_per_card: int = Field(
        default=1,
        ge=1,
        le=8,
        description="Devices one card as sold shows the runtime (an MI250X module: two GCDs of 64 GB, each its own "
        "GPU to ROCm, PyTorch and Slurm). The entry's figures are one device's and `gpus_per_node` its multiple; "
        "a count of these cards in a question is a count of modules, so it is multiplied.",
    )
    nvlink_domain_gpus: int | None = Field(
        default=None,
        gt=0,
        description="GPUs that share one NVLink domain (HGX: 8; GB200/GB300 NVL72: 72): how far tensor "
        "parallelism can reach before it crosses InfiniBand/Ethernet.",
    )
    max_per_machine: int | None = Field(
        default=None,
        gt=0,
        description="The most of these one machine holds, when more cannot be added (a Mac's GPU is its one): "
        "no more-cards advice beyond it. None: as many as the sizing rules place.",
    )
    only_on: list[str] = Field(
        default_factory=list,
        description="The clouds that alone rent this card, when it is made for them (AWS's A10G, its G5 "
        "instances' variant of the A10): never a pick on another cloud. Empty: sold or rented anywhere.",
    )
    unified_memory: bool = Field(
        default=False,
        description="The GPU's memory is the machine's RAM (Apple silicon): moving layers, experts or a "
        "pipeline's parts to host RAM frees nothing, so no offload is advice.",
    )


class InstanceType(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    instance_type: str
    vcpu: int | None = None
    memory_gib: float | None = None
    gpus: int | None = Field(default=None, gt=0)
    unverified: bool = False


class InstanceFamily(Entry):
    """A cloud GPU instance family. Prices stay null unless a dated, regional source gives one."""

    family: str
    provider: str = "alibaba"
    category: str | None = None
    gpu_id: str | None
    gpu_model: str | None = None
    gpu_memory_gb: float | None = None
    use_for: str | None = None
    example_instance_types: list[InstanceType] = Field(default_factory=list)
    price_cny_per_hour_on_demand: float | None = None
    price_region: str | None = None
    price_date: str | None = None


_NAME_SEPARATORS = re.compile(r"[\s_-]+")


def compact_vm_name(name: str) -> str:
    """A VM type's name folded for matching: lower case, spaces, underscores and hyphens dropped.

    People write Azure's "ND H100 v5" as "ND-H100-v5" (Microsoft's own page titles) or "nd h100 v5", and its API
    name with or without the "Standard_" prefix; folding all of them to one key lets the knowledge base list a
    name once and `kb check` catch two entries claiming what is, for a reader, the same name."""
    return _NAME_SEPARATORS.sub("", name.lower())


class InstanceLayout(Entry):
    """The GPU layout of one cloud VM type: which card it carries and how many, and nothing about its price.

    A `prices:` row must carry a price, and the VM types people name most (Azure's ND H100 v5, GCP's
    a3-highgpu-8g) have no list price the knowledge base can stand behind. Without the layout the bot read
    "ND H100 v5" as one H100 and dropped "a3-highgpu-8g" altogether; with it the question is checked on the
    machine's real cards while its price stays an honest gap. `kb check` reports an unknown GPU id, a count below
    one, and a name two entries claim, with the file and entry named.
    """

    cloud: str = Field(min_length=1)
    instance: str = Field(min_length=1, description="The name the cloud's API takes (Standard_ND96isr_H100_v5).")
    aliases: list[str] = Field(
        default_factory=list,
        description="Other names for this one VM type (the marketing name 'ND H100 v5', the API name without "
        "'Standard_'). Never a series name whose sizes carry different numbers of cards.",
    )
    gpu: str = Field(min_length=1, description="Knowledge GPU id.")
    count: int = Field(description="Whole GPUs in one VM; fractional (vGPU) sizes are not listed.")

    @property
    def key(self) -> str:
        """The identity a user file repeats to replace a shipped entry."""
        return f"{self.cloud}/{self.instance}"

    @property
    def names(self) -> list[str]:
        """Every name the VM type is read by: its API name, then its aliases."""
        return [self.instance, *self.aliases]


class CloudProduct(Entry):
    id: str
    name: str
    name_zh: str | None = None
    summary: str
    summary_zh: str | None = None


class LocalisedText(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    en: str
    zh_hans: str = Field(alias="zh-Hans")


class FaqQuestions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    en: list[str] = Field(min_length=1)
    zh: list[str] = Field(min_length=1)


class FaqEntry(Entry):
    """One FAQ answer, written in our own words from a seed document and naming it."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    questions: FaqQuestions
    answer: LocalisedText
    keywords: list[str] = Field(default_factory=list)
    topics: list[str] = Field(
        default_factory=list,
        description="Tags the answer pipeline matches against a workload (e.g. multi-gpu, quantisation).",
    )
    document: str = Field(description="Title of the seed document the answer is drawn from.")
    document_en: str | None = Field(
        default=None,
        description="What a title in Chinese means, shown beside it in English replies (the title stays as written).",
    )


class AppleChip(Entry):
    """An Apple silicon chip (M-series): its unified memory's bandwidth, which bounds how fast llama.cpp's Metal
    back end decodes on it. The memory itself is the machine's, stated in the question."""

    id: str
    name: str
    bandwidth_gbps: float = Field(gt=0)
    """Unified memory bandwidth as Apple states it (GB/s), for the chip's usual configuration."""
    bandwidth_by_memory_gb: dict[int, float] = Field(default_factory=dict)
    """Where Apple gives the same chip different bandwidths by memory configuration (M3 Max: 300 GB/s with 36 GB,
    400 with 48 GB and more): memory GB → GB/s; the largest configuration not above the machine's applies."""
    gpu_cores: list[int] = Field(default_factory=list)
    fp32_tflops: float | None = Field(default=None, gt=0)

    def bandwidth_for(self, memory_gb: float | None) -> float:
        """The bandwidth of the configuration with `memory_gb` of unified memory (the chip's own when unknown)."""
        fitting = [gb for gb in self.bandwidth_by_memory_gb if memory_gb is not None and gb <= memory_gb]
        return self.bandwidth_by_memory_gb[max(fitting)] if fitting else self.bandwidth_gbps
