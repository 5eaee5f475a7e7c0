"""Weight formats: bytes per parameter, which tensors a format quantises, and the model's parameter split."""

from __future__ import annotations

import re
from dataclasses import dataclass

from knowledge.engine_facts import ExpertPaddingFact
from knowledge.engines import version_tuple
from knowledge.schema import GPU, Model
from rules import constants as C
from rules import weight_formats as WF
from rules.memory_adapters import linear_shapes

_ALIASES: dict[str, str] = {
    "gptq-int4": "gptq", "gptq4": "gptq", "gptq-4bit": "gptq", "awq-int4": "awq", "awq4": "awq",
    "gptq-8bit": "gptq-int8", "gptq8": "gptq-int8",
    "bnb-nf4": "nf4", "bnb-4bit": "nf4", "load_in_4bit": "nf4", "qlora": "nf4", "bnb4": "nf4",
    "nf4-double-quant": "nf4-dq", "nf4-dq": "nf4-dq", "bnb-fp4": "fp4",
    "bnb-8bit": "bnb-int8", "llm.int8": "bnb-int8", "load_in_8bit": "bnb-int8", "bnb8": "bnb-int8",
}

_GGUF_BARE = re.compile(r"q[2-8]_(?:k(?:_[sml])?|[01])|iq[1-4]_(?:xxs|xs|s|m|nl)")
_BITS_PER_WEIGHT = re.compile(r"(?:bpw|exl[23])[-_ ]?(?P<bits>\d+(?:\.\d+)?)")

BPW_RANGE = (2.0, 8.5)
"""Bits per weight a variable-rate format is made at: ExLlamaV2's EXL2 (and EXL3) quantiser targets any average
from about 2 to 8 bits (turboderp/exllamav2 README, "EXL2 ... supports 2, 3, 4, 5, 6 and 8-bit quantization ...
mixed within a model to achieve any average bitrate between 2 and 8 bits per weight")."""


BPW_HEAD_BITS = 6
"""A variable-rate (EXL2/EXL3) file's output layer is quantised at 6 bits a weight unless the converter is told
otherwise (turboderp/exllamav2 convert.py and exllamav3's converter: `-hb/--head_bits`, "default: 6"), and
ExLlamaV2 keeps the token-embedding table in system RAM (exllamav2/model.py `set_device_map(..., embed_cpu=True)`:
"Special case for token embeddings on CPU"), so the card holds the body at the file's bits plus that head."""


def bits_per_weight(quant: str | None) -> float | None:
    """The average bits per weight of a variable-rate format key ("bpw-4.65"), else None."""
    m = _BITS_PER_WEIGHT.fullmatch(quant or "")
    return float(m.group("bits")) if m else None


def bpw_precision(bits: float) -> str:
    """The precision a variable-rate format is labelled with: int4 up to 5 bits a weight, int8 above (its bytes
    come from the bits themselves, not from the label)."""
    return "int4" if bits <= 5.0 else "int8"


BNB_4BIT = frozenset({"nf4", "fp4", "nf4-dq"})


def normalise_quant(quant: str | None, precision: str, engine: str = "transformers") -> str | None:
    """The canonical format key, or None for plain tensors of `precision`.

    llama.cpp always runs a GGUF file: with no format named, 16-bit precision means GGUF F16 and int4/int8
    mean Q4_K_M/Q8_0. MXFP4 is a weight format of its own on every engine (llama.cpp has an MXFP4 GGUF type
    that keeps the checkpoint's layout).
    """
    if quant:
        key = quant.strip().lower()
        if key.startswith("gguf"):
            rest = key[4:].lstrip("-_: ").replace("-", "_")
            key = f"gguf-{rest}" if rest else WF.DEFAULT_GGUF
        elif _GGUF_BARE.fullmatch(key):
            key = f"gguf-{key}"
        else:
            key = key.replace("_", "-")
        key = _ALIASES.get(key, key)
        bits = bits_per_weight(key)
        if bits is not None:
            if not BPW_RANGE[0] <= bits <= BPW_RANGE[1]:
                raise ValueError(f"unknown weight format {quant!r}: bits per weight go from {BPW_RANGE[0]:g} to "
                                 f"{BPW_RANGE[1]:g}")
            return f"bpw-{bits:g}"
        if key == "gptq" and precision == "int8":
            key = "gptq-int8"  # GPTQ-Int8 checkpoints exist (Qwen, Llama ports): the bits come from the precision
        if key in WF.GGUF_BYTES_PER_PARAM or key in WF.QUANT_BYTES_PER_PARAM:
            return key
        if key in {"none", "fp16", "bf16", "fp32"}:
            return None
        raise ValueError(f"unknown weight format {quant!r}")
    if precision == "mxfp4":
        return "mxfp4"
    if engine == "llama.cpp":
        return {"int4": WF.DEFAULT_GGUF, "int8": "gguf-q8_0", "fp8": "gguf-q8_0"}.get(precision, "gguf-f16")
    if precision in {"int8", "int4", "fp8"}:
        # FP8 checkpoints (Qwen3-FP8, DeepSeek-V3, Llama-3.1-405B-FP8) and the engines' online FP8 (vLLM
        # --quantization fp8) quantise the linear layers only: embeddings and lm_head stay 16-bit, as for int8.
        return precision
    return None


@dataclass(frozen=True)
class ParamSplit:
    total: float
    """All parameters (units, not billions)."""
    embedding: float
    """Token embedding + untied lm_head parameters (the tensors quantisers leave 16-bit)."""
    largest_layer: float
    """The largest single parameter tensor/module (ZeRO-3 gathers it whole)."""

    @property
    def body(self) -> float:
        return self.total - self.embedding


def param_split(model: Model) -> ParamSplit:
    total = model.params_b * 1e9
    embedding = 0.0
    largest = 0.0
    if model.vocab_size and model.hidden_size and model.arch in {"decoder", "encoder-decoder", "encoder"}:
        one = float(model.vocab_size * model.hidden_size)
        copies = 1 if (model.tie_embeddings or model.arch == "encoder") else 2
        embedding = min(one * copies, 0.5 * total)
        largest = one
    layers = model.num_layers or int(model.details.get("encoder_layers", 0) or 0) + int(
        model.details.get("decoder_layers", 0) or 0)
    if layers and model.hidden_size:
        per_layer = (total - embedding) / layers
        largest = max(largest, per_layer)
    if largest == 0.0:
        largest = total / 10
    return ParamSplit(total=total, embedding=embedding, largest_layer=largest)


def weight_bytes(model: Model, precision: str, quant: str | None) -> tuple[float, list[str]]:
    """Bytes of the weights in `precision` / format `quant` (already normalised), and notes."""
    split = param_split(model)
    notes: list[str] = []
    if quant is None:
        return split.total * WF.BYTES_PER_PARAM_PLAIN[precision], notes
    if quant in WF.GGUF_BYTES_PER_PARAM:
        return gguf_card_bytes(model, quant, split, notes), notes
    bits = bits_per_weight(quant)
    if bits is not None:
        head = float(model.vocab_size * model.hidden_size) if model.vocab_size and model.hidden_size else 0.0
        return split.body * bits / 8 + head * BPW_HEAD_BITS / 8, notes
    if quant in WF.EXPERTS_ONLY_FORMATS and model.moe is not None:
        # the experts counted from the architecture, beside a rounded published total ("1T" for Kimi K2's
        # 1.026T) that would leave the 16-bit rest negative: the config's own count then sets the total
        total = max(split.total, (model.params_b_computed or 0.0) * 1e9)
        experts = min(moe_expert_params(model), total - split.embedding)
        if experts > 0:
            notes.append(f"{quant}-experts-only")
            return experts * WF.QUANT_BYTES_PER_PARAM[quant] + (total - experts) * 2.0, notes
    per = WF.QUANT_BYTES_PER_PARAM[quant]
    if split.embedding > 0:
        notes.append("embeddings-16bit")
    kept = kept_16bit_params(model, quant, split)
    if kept > 0:
        notes.append("official-quant-keeps-16bit")
    return (split.body - kept) * per + kept * 2.0 + split.embedding * WF.EMBEDDING_BYTES_QUANTISED, notes


def kept_16bit_params(model: Model, quant: str, split: ParamSplit) -> float:
    """Body parameters (units) the authors' own `quant` release keeps in 16-bit (Model.official_quant_16bit):
    the attention projections of every layer, plus whole layers at the ends of the stack."""
    kept = model.official_quant_16bit.get(quant)
    if kept is None or not model.num_layers or not model.hidden_size or not model.num_attention_heads:
        return 0.0
    shapes = linear_shapes(model)
    attention = float(sum(shapes[name][0] * shapes[name][1] for name in ("q", "k", "v", "o")))
    per_layer = split.body / model.num_layers
    params = model.num_layers * attention if kept.attention else 0.0
    params += kept.end_layers * (per_layer - (attention if kept.attention else 0.0))
    return min(params, split.body)


def gguf_card_bytes(model: Model, quant: str, split: ParamSplit, notes: list[str]) -> float:
    """Weights llama.cpp puts on the cards for a GGUF file: the body at the file's type, the output layer at
    GGUF_OUTPUT_TYPE below Q8_0 (a tied embedding is quantised as the output and copied to the card), and not
    the token-embedding table, which llama.cpp keeps in host RAM."""
    per = WF.GGUF_BYTES_PER_PARAM[quant]
    # a model released in MXFP4 (gpt-oss) keeps its routed experts in MXFP4 in every GGUF type: the type applies
    # to the rest (ggml-org's and the community's Q2_K to Q8_0 files of gpt-oss-120b are all about 60 GB)
    experts = min(moe_expert_params(model), split.body) if model.native_precision == "mxfp4" else 0.0
    body = (split.body - experts) * per + experts * WF.MXFP4_BYTES_PER_PARAM
    if split.embedding <= 0 or not model.vocab_size or not model.hidden_size:
        return body + split.embedding * per
    notes.append("gguf-embeddings-on-host")
    output = float(model.vocab_size * model.hidden_size)
    output_per = max(per, WF.GGUF_BYTES_PER_PARAM[WF.GGUF_OUTPUT_TYPE])
    return body + output * output_per


def moe_expert_params(model: Model) -> float:
    """Parameters (units) of the routed experts: what an MoE-only format such as gpt-oss's MXFP4 quantises.

    Gated experts hold three hidden × moe_intermediate matrices (gate, up, down), plain ones two; the first
    `first_k_dense` layers have no experts. Zero when the config lacks the fields.
    """
    moe = model.moe
    intermediate = (moe.moe_intermediate_size or model.intermediate_size) if moe else None
    if moe is None or not intermediate or not model.hidden_size or not model.num_layers:
        return 0.0
    matrices = 2 if model.mlp == "plain" else 3
    moe_layers = max(0, model.num_layers - moe.first_k_dense)
    return float(moe_layers * moe.num_experts * matrices * model.hidden_size * intermediate)


def padded_expert_fraction(model: Model, tensor_parallel: int, intermediate_multiple: int,
                           hidden_multiple: int) -> float:
    """How much larger the expert matrices become when a kernel rounds each rank's intermediate size and the
    hidden size up to these multiples (0 when they already are, or the config lacks the sizes)."""
    moe = model.moe
    intermediate = (moe.moe_intermediate_size or model.intermediate_size) if moe else None
    if not intermediate or not model.hidden_size:
        return 0.0
    per_rank = -(-intermediate // tensor_parallel)
    padded_rank = -(-per_rank // intermediate_multiple) * intermediate_multiple
    padded_hidden = -(-model.hidden_size // hidden_multiple) * hidden_multiple
    return (padded_rank * tensor_parallel * padded_hidden) / (intermediate * model.hidden_size) - 1.0


def expert_padding_bytes(model: Model, padding: list[ExpertPaddingFact], quant: str | None, gpu: GPU | None,
                         tensor_parallel: int, version: tuple[int, ...] | None = None) -> tuple[float, str | None]:
    """Bytes an engine adds to the expert weights for its kernel on `gpu` (its `expert_padding` facts) at
    `version` (None: the newest), and what adds them: "expert-padding" (matrices rounded up) or "scale-copy"
    (block scales kept twice); (0, None) when it runs the format as stored there, or no card is named."""
    if quant is None or gpu is None or not model.is_moe:
        return 0.0, None
    for fact in padding:
        dated = fact.before is None or (version is not None and version < (version_tuple(fact.before) or ()))
        if fact.quant == quant and dated and (gpu.architecture or "").startswith(tuple(fact.architectures)):
            extra = padded_expert_fraction(model, tensor_parallel, fact.intermediate_multiple,
                                           fact.hidden_multiple)
            scales = fact.scale_copies * WF.BLOCK_SCALE_BYTES_PER_PARAM.get(quant, 0.0)
            added = moe_expert_params(model) * (WF.QUANT_BYTES_PER_PARAM[quant] * extra + scales)
            if added <= 0:
                return 0.0, None
            return added, "expert-padding" if extra > 0 else "scale-copy"
    return 0.0, None


DEQUANTISED_BYTES = 2.0
"""bitsandbytes dequantises to the 16-bit compute dtype (bnb_4bit_compute_dtype fp16/bf16)."""


def quant_workspace_bytes(model: Model, quant: str | None, *, one_matrix: bool = False) -> float:
    """Memory a quantisation library needs beyond its packed weights: bitsandbytes 4-bit holds weights
    dequantised to 16-bit, BNB_4BIT_WORKSPACE_LAYERS decoder layers' worth (calibrated; see constants). A MoE
    layer dequantises the experts its tokens reach, so its layer is counted at the active parameters.

    Each weight is dequantised for its matmul and freed (bitsandbytes `matmul_4bit`, Unsloth `fast_dequantize`
    then `del`): only one is live at a time. The layer's worth is the caching allocator keeping a block of every
    shape. Where that cache does not count — allocated bytes (`max_memory_allocated`), or expandable segments
    that reuse one region for every shape — the workspace is the largest single matrix (`one_matrix`)."""
    if quant not in BNB_4BIT:
        return 0.0
    if one_matrix and model.hidden_size:
        return largest_linear_params(model) * DEQUANTISED_BYTES
    split = param_split(model)
    layers = model.num_layers or 0
    if not layers:
        return split.body * DEQUANTISED_BYTES / 16  # no layer count known: a sixteenth of the body
    body_per_layer = split.body / layers
    if model.is_moe:
        body_per_layer *= model.active_params / model.params_b
    return C.BNB_4BIT_WORKSPACE_LAYERS * body_per_layer * DEQUANTISED_BYTES


def largest_linear_params(model: Model) -> float:
    """Parameters of the widest linear in a decoder layer: hidden × max(query width, MLP (or expert) width)."""
    assert model.hidden_size
    h = model.hidden_size
    heads = model.num_attention_heads or 1
    query = heads * (model.head_dim or h // heads)
    inter = model.intermediate_size or 4 * h
    if model.moe is not None and model.moe.moe_intermediate_size:
        inter = model.moe.moe_intermediate_size
    return float(h * max(query, inter))


def compute_dtype_bytes(precision: str) -> float:
    """Activations run in the 16-bit compute dtype unless the model is fp32."""
    return 4.0 if precision == "fp32" else 2.0
