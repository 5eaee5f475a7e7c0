"""Precision, quantisation format and optimizer ("int4", "AWQ", "Q4_K_M", "8-bit Adam")."""

from __future__ import annotations

import re

from bot.understand.slots.base import SlotState, first_label, rx
from bot.understand.slots.formats import FORMATS, asks_which_format, format_counts, formats_compared, formats_in
from rules.precision import BPW_RANGE, bpw_precision
from rules.weight_formats import GGUF_BYTES_PER_PARAM

# -- precision / quantisation -----------------------------------------------------------------------
_OPTIMIZER_8BIT = rx(
    r"\b8[-_ ]?bit\s+adam\w*|\b(?:paged[-_ ]?)?adamw?[-_ ]?8[-_ ]?bit\b|\badamw?[-_ ]?bnb[-_ ]?8bit\b"
)
_OPTIMIZER_PAGED = rx(r"\bpaged[-_ ]?(?:adam\w*|optimi[sz]er\w*|lion\w*)|分页优化器")
_OPTIMIZER_SGD = rx(r"\bsgd\b")
_OPTIMIZER_ADAFACTOR = rx(r"\badafactor\b")
_OPTIMIZER_ADAM = rx(r"\badamw?\b")
_GGUF_IQUANT = rx(r"(?<![a-z0-9])(?:ud[-_])?iq(?P<level>[1-4])_(?P<kind>xxs|xs|s|m|nl)(?![a-z0-9])"
                  r"|(?<![\d.])(?P<bits>1\.58)\s*-?\s*(?:bits?|位|比特)")
"""llama.cpp's i-quants ("IQ1_S", "UD-IQ1_S", "IQ2_XXS") and the "1.58-bit" DeepSeek-R1 files that are IQ1_S
(audit 33 HIGH 87: sized at int8 or Q4_K_M, 3-5× the 131 GB file)."""
_GGUF_LEVEL = rx(r"(?<![a-z0-9])(?:gguf[-_ ]?)?(?P<q>q[2-8])(?:_(?P<rest>k_[sml]|k|0|1))?(?![a-z0-9])")
_PRECISIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fp32", rx(r"\b(?:fp32|float32|f32|tf32)\b|单精度|全精度|32位浮点")),
    ("bf16", rx(r"\b(?:bf16|bfloat16)\b")),
    ("fp16", rx(r"\b(?:fp16|float16|f16|half(?:[-_ ]precision)?)\b|半精度|16位浮点")),
    ("fp8", rx(r"\b(?:fp8|float8|e4m3|e5m2|w8a8[-_ ]?fp8)\b|8位浮点")),
    ("int8", rx(r"\b(?:int8|8[-_ ]?bits?|w8a8|w8a16|load[-_]in[-_]8bit|llm\.int8)\b|8位|八位|8比特|8\s?bit"
                r"|\bint8_(?:float16|bfloat16|float32)\b")),  # CTranslate2's compute types (faster-whisper)
    ("int4", rx(r"\b(?:int4|4[-_ ]?bits?|w4a16|w4a8|nf4|fp4|load[-_]in[-_]4bit)\b|4位|四位|4比特|4\s?bit")),
)
_MXFP4 = rx(r"\bmxfp4\b")
_NVFP4 = rx(r"\bnvfp4\b|\bfp4\b")
"""NVIDIA's 4-bit float ("NVFP4", and a bare "FP4" as Blackwell serving means it); bitsandbytes' fp4 is named
with it ("bnb fp4") and stays bitsandbytes."""
_GPTQ = rx(r"\bgptq\b")
_AWQ = rx(r"\bawq\b")
_NF4 = rx(r"\bnf4\b|\bbnb\b|\bbitsandbytes\b|load[-_]in[-_]4bit")
_BNB8 = rx(r"load[-_]in[-_]8bit|llm\.int8")
_WEIGHT_ONLY = rx(r"\btorchao\b|\b(?:optimum[-_ ])?quanto\b")
"""Weight-only quantisers that keep a scale per group (torchao int4/int8_weight_only, Quanto): the plain int4 /
int8 formats, not bitsandbytes (whose fp32-kept modules they do not keep) and not a GPTQ checkpoint."""
_BPW = rx(r"(?<![\d.])(?P<bits>\d(?:\.\d{1,2})?)\s?(?:bpw\b|bits?\s+per\s+weight\b|位每权重)")
"""ExLlama's bits per weight ("exl2 4.0bpw", "4.65 bits per weight"): a variable-rate format sized at its bits."""
_BARE_QUANT = rx(r"(?<!向)(?<!数)(?<!特征)量化|\bquanti[sz](?:ed|ation|e)\b|\bquant\b")
"""A quantised model with no bit width: "量化", never inside 向量化 (vectorise: what an embedding job does) or
数量化/特征量化."""


_SUFFIX_QUANT = {"gptq": ("int4", "gptq"), "gptq-int8": ("int8", "gptq"), "awq": ("int4", "awq"),
                 "int4": ("int4", None), "int8": ("int8", None), "fp8": ("fp8", None), "gguf": (None, None)}


_DENIED = rx(
    r"\b(?:bf16|bfloat16|fp8|fp16)\s+(?:is\s+not|isn'?t|not|is\s+unsupported|unsupported)\b(?:\s+supported)?"
    r"|\bno\s+(?:bf16|bfloat16|fp8)(?:\s+support)?\b"
    r"|\b(?:doesn'?t|does\s+not|don'?t|do\s+not|can'?t|cannot|lacks?)\s+(?:support\s+|do\s+|run\s+|have\s+)?"
    r"(?:bf16|bfloat16|fp8)\b"
    r"|不支持\s*(?:bf16|bfloat16|fp8)|(?:bf16|bfloat16|fp8)\s*不(?:支持|行|能用)"
)
"""A precision named as what the card lacks ("I heard bf16 isn't supported", "V100 不支持 bf16"): not the one asked."""


_TENSOR_TYPE_COUNT = rx(r"\btype\s+(?:f32|f16|bf16|q\d\w*|iq\d\w*)\s*:\s*\d+\s+tensors"
                        r"|\b[kv]\s*\((?:f32|f16|bf16)\)")
"""llama.cpp's loader lines ("- type  f32:  257 tensors", "K (f16): 4096.00 MiB"): the norms a GGUF keeps in f32 and
the cache's type, not the model's precision."""


_UNSET_FORMAT = rx(r"\b(?:quantize|quantization|dtype|torch_dtype|kv_cache_dtype)\s*[:=]\s*(?:none|null)\b")
"""A launcher's unset format keys ("quantize: None" in TGI's Args): no precision, not the word "quantize"."""


def parse_precision(state: SlotState, suffix_quant: str | None) -> None:
    for denied in _DENIED.finditer(state.text):
        state.mask(denied.start(), denied.end())
    for unset in _UNSET_FORMAT.finditer(state.text):
        state.mask(unset.start(), unset.end())  # TGI's "quantize: None, dtype: None": no format named
    for logged in _TENSOR_TYPE_COUNT.finditer(state.text):
        state.mask(logged.start(), logged.end())  # audit 28 LOW-88: "fp32 · 4.82 bits per weight"
    compared = formats_compared(state)
    if not compared and suffix_quant is not None:
        # "Qwen3-32B AWQ vs GPTQ-Int8": the first format was read with the model's name (and masked with it)
        named = formats_in(state.folded)
        if named and FORMATS[named[0]][1] == suffix_quant:
            compared = named
    if not compared and asks_which_format(state.text):
        state.values["asks_precision"] = True  # the formats the cards run are set side by side (bot.reply.capacity)
    if compared:
        # "AWQ, GPTQ or FP8": the first sizes the reply, every one is set side by side (bot.reply.capacity)
        state.values["compare_formats"] = compared
        counts = format_counts(state.text, compared)
        if len(counts) == len(compared) or (counts and compared[0] not in counts):
            state.values["compare_format_counts"] = counts  # "NVFP4 on 4x B200 … FP8 on 8x B200"
        first_precision, first_quant = FORMATS[compared[0]]
        state.set("precision", first_precision)
        if first_quant is not None:
            state.set("quant", first_quant)
        return
    text = state.text
    if _OPTIMIZER_PAGED.search(text):
        state.set("paged_optimizer", True)
    m = _OPTIMIZER_8BIT.search(text)
    if m is not None:
        state.set("optimizer", "adamw-8bit")
        state.mask(m.start(), m.end())
        text = state.text
    elif _OPTIMIZER_SGD.search(text):
        state.set("optimizer", "sgd")
    elif _OPTIMIZER_ADAFACTOR.search(text):
        state.set("optimizer", "adafactor")
    elif _OPTIMIZER_ADAM.search(text):
        state.set("optimizer", "adamw")

    quant: str | None = None
    precision: str | None = None
    iquant = _GGUF_IQUANT.search(text)
    gguf = _GGUF_LEVEL.search(text) if iquant is None else None
    if iquant is not None:
        quant = "gguf-iq1_s" if iquant.group("bits") else f"gguf-iq{iquant.group('level')}_{iquant.group('kind')}"
        precision = "int4"
        state.mask(iquant.start(), iquant.end())
    if gguf is not None:
        level = int(gguf.group("q")[1])
        rest = gguf.group("rest") or ("k_m" if level in (3, 4, 5) else "0" if level == 8 else "k")
        if f"gguf-q{level}_{rest}" in GGUF_BYTES_PER_PARAM:  # "Q7" or "Q8_K_M" is no GGUF type: not a format
            quant = f"gguf-q{level}_{rest}"
            precision = "int8" if level >= 6 else "int4"
    if _MXFP4.search(text):
        quant, precision = "mxfp4", "mxfp4"
    elif _NVFP4.search(text) and not _NF4.search(text):
        quant, precision = "nvfp4", "int4"
    elif _GPTQ.search(text):
        quant = "gptq"
    elif _AWQ.search(text):
        quant = "awq"
    elif _BNB8.search(text):
        quant = "bnb-int8"
    elif _WEIGHT_ONLY.search(text):
        quant = "weight-only"
    elif _NF4.search(text) and not re.search(r"8[-_ ]?bit|int8", text):
        quant = "nf4"
    bpw = _BPW.search(text)
    if bpw is not None and BPW_RANGE[0] <= float(bpw.group("bits")) <= BPW_RANGE[1]:
        bits = float(bpw.group("bits"))
        # llama.cpp's "file size = 21.66 GiB (5.68 BPW)" is the file's own rate, sized as it is; its class is the
        # GGUF type's, not the 8 bits 5.68 rounds up to (audit 29 HIGH 56: a Q5_K_M read as "int8")
        quant, precision = f"bpw-{bits:g}", precision if gguf is not None else bpw_precision(bits)
        state.mask(bpw.start(), bpw.end())
        text = state.text
    explicit = first_label(_PRECISIONS, text)
    if explicit is not None and precision != "mxfp4":
        precision = explicit
    if suffix_quant in _SUFFIX_QUANT:
        suffix_precision, suffix_label = _SUFFIX_QUANT[suffix_quant]
        precision = precision or suffix_precision
        quant = quant or suffix_label
    if quant == "weight-only":
        quant = precision if precision in ("int4", "int8") else None
    if quant in ("gptq", "awq", "nf4") and precision is None:
        precision = "int4"
    if quant == "bnb-int8":
        precision = "int8"
    if quant == "nf4" and precision == "int8":
        quant = "bnb-int8"
    if precision is None and _BARE_QUANT.search(text) and not state.values.get("asks_precision"):
        # "what quant do I need?" asks for a format, it does not name one (audit 38 HIGH-117: sized as int8)
        precision = "int8"
        state.notes.append("quant-bits-assumed")
    if precision is not None:
        state.set("precision", precision)
    if quant is not None:
        state.set("quant", quant)


_QAT = rx(r"\bqat\b|量化感知训练|量化感知訓練")
"""A quantisation-aware-trained release ("Gemma 3 27B QAT"): the model's own 4-bit checkpoint."""


def parse_qat(state: SlotState, qat_quant: str | None) -> None:
    """"QAT" names the authors' quantisation-aware-trained release: its format from the knowledge base
    (`qat_quant`, e.g. Gemma 3's Q4_0 GGUF), else a plain 4-bit one. A format the text states wins."""
    if _QAT.search(state.text) is None or "quant" in state.values:
        return
    state.set("precision", "int4")
    if qat_quant:
        state.set("quant", qat_quant)

