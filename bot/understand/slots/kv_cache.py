"""The KV cache's precision as the text sets it: "fp8 KV cache", "kv_cache_dtype=fp8", "KV int8", "KV cache量化",
llama.cpp's -ctk/-ctv, Ollama's OLLAMA_KV_CACHE_TYPE, LMDeploy's --quant-policy, or a type weighed against another.

A cache type is written in as many ways as the engines have flags, and beside a model's name "fp8" may be the
cache's or the checkpoint's. It is read here, apart from the weights' precision, so "fp8 KV cache" never makes the
weights fp8; the runtime slot (bot.understand.slots.runtime) calls it, and the parser asks it about a type after
a model's name.
"""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx

_KV_TYPES = r"fp16|bf16|fp8(?:[-_ ]?e[45]m[23])?|int8|int4|q8(?:_0)?|q4(?:_0)?|8[-_ ]?bit|4[-_ ]?bit"
_KV_BEFORE = rx(rf"(?P<dtype>{_KV_TYPES})\s*(?:的\s*)?kv(?:[-_ ]?cache|\s*缓存)?(?![a-z])")
_KV_AFTER = rx(rf"\bkv(?:[-_ ]?cache|\s*缓存|\s*快取)?(?:[-_ ]?dtype)?\s*"
               rf"(?:=|:|in|to|as|at|用|为|改成|改为|改用|改|换成|换为|换|设为|设成|设置为|设置成|设|调成|调为|采用|使用|"
               rf"(?:set|changed?|switched?)\s+to)?\s*"
               rf"(?P<dtype>{_KV_TYPES})(?![a-z0-9])")
_KV_CACHE_DTYPE = rx(rf"kv_cache_dtype\s*=\s*[\"']?(?P<dtype>{_KV_TYPES}|auto)")
_LLAMA_CPP_CACHE_TYPE = rx(r"(?:(?<![\w-])-ct(?P<short>[kv])|--cache[-_]type[-_](?P<long>[kv]))\s*[=\s]\s*"
                           r"(?P<dtype>f16|bf16|q8_0|q5_1|q5_0|q4_1|iq4_nl|q4_0)(?![\w.])")
_OLLAMA_KV_TYPE = rx(r"(?:ollama)?_kv_cache_type\s*=\s*[\"']?(?P<dtype>f16|q8_0|q4_0)(?![\w.])")
GGML_KV_TYPES = {"f16": "fp16", "bf16": "bf16", "q8_0": "int8", "q5_1": "int8", "q5_0": "int8", "q4_1": "int8",
                 "iq4_nl": "int4", "q4_0": "int4"}
"""llama.cpp's cache types → the KV-cache classes the profiles size: q8_0 and q4_0 exactly (ggml blocks of 34 and
18 bytes per 32 values), the 5-bit and q4_1 types at q8_0's size (an upper bound: 24 or 20 bytes per block, not
profiled), iq4_nl as q4_0 (18 bytes per block)."""
_KV_WIDTH = {"fp16": 2, "bf16": 2, "int8": 1, "int4": 0}
_KV_QUANTISED = rx(r"\bkv(?:[-_ ]?cache)?\s*(?:量化|quanti[sz]\w*)"
                   r"|(?:quanti[sz]\w*|量化)\s*(?:the\s+)?kv(?:[-_ ]?cache)?")


KV_QUANTISED_DEFAULT = "kv-quantised"
"""`kv_cache` when the text asks for a quantised KV cache without a type: the engine's first type below 16
bits is chosen when the answer knows the engine (bot.reply), and stated."""


def _dtype(raw: str) -> str:
    if raw.lower() in GGML_KV_TYPES:
        return GGML_KV_TYPES[raw.lower()]  # "KV q8_0": llama.cpp's name for the type
    if raw.lower() in ("q8", "q4"):
        return GGML_KV_TYPES[f"{raw.lower()}_0"]  # "q8 的 KV cache": llama.cpp's type, its block size unwritten
    raw = raw.replace("-", "").replace("_", "").replace(" ", "")
    if raw.startswith("fp8"):
        return "fp8"
    return {"8bit": "int8", "4bit": "int4"}.get(raw, raw)


def parse_ggml_cache_types(state: SlotState) -> bool:
    """llama.cpp's "-ctk q8_0 -ctv q8_0" / "--cache-type-k/-v", Ollama's OLLAMA_KV_CACHE_TYPE=q8_0. K and V
    take their types separately, and an unstated one stays f16: the cache is sized at the wider of the two (a
    quantised K alone still keeps a 16-bit V). True when the text set them."""
    found: dict[str, str] = {}
    for m in list(_LLAMA_CPP_CACHE_TYPE.finditer(state.text)):
        found[(m.group("short") or m.group("long")).lower()] = GGML_KV_TYPES[m.group("dtype").lower()]
        state.mask(m.start(), m.end())
    ollama = _OLLAMA_KV_TYPE.search(state.text)  # "OLLAMA" itself may already be read as the engine's name
    if ollama is not None:
        found["k"] = found["v"] = GGML_KV_TYPES[ollama.group("dtype").lower()]
        state.mask(ollama.start(), ollama.end())
    if not found:
        return False
    wider = max((found.get("k", "fp16"), found.get("v", "fp16")), key=_KV_WIDTH.__getitem__)
    if wider not in ("fp16", "bf16"):
        state.set("kv_cache", wider)
    return True


_QUANT_POLICY = rx(r"(?:--|\b)quant[-_]policy\s*[=:\s]\s*(?P<bits>[048])(?![\w.])")
"""LMDeploy's `--quant-policy 4|8`: the KV cache in int4 or int8 (0: off). A flag of the cache, not of the weights,
though it says "quant" (audit 24 HIGH 15: read as 8-bit weights, 8.1 GiB for 14.2, and "Yes, 101 fit" for "No,
57 of 64")."""


_KV_WHAT_IF = rx(r"\bif\s+(?:we|i|you)\b|\bwhat\s+if\b|\bwould\b|\bcould\s+(?:we|i)\b|如果|假如|要是|若是?")
"""A change written as one to weigh ("if we switch the KV cache to fp8", "如果 KV 改成 fp8")."""
_RUNNING = rx(r"\bvllm\s+serve\b|\bpython3?\s+-m\s+(?:vllm|sglang)|"
              r"\bwe(?:'re|\s+are)?\s+(?:run|running|serve|serving)\b|\bcurrently\b|\bright\s+now\b|目前|现在|現在|正在跑|在跑")
"""A set-up that already runs: a launch command pasted, or said to be running."""


def _clause_before(text: str, at: int) -> str:
    """The text of the clause that ends at `at`: back to the last sentence end or numbered item."""
    start = max(0, at - 60)
    cut = max(text.rfind(mark, start, at) for mark in (".", "?", "!", "。", "？", "！", "\n", "(", "（", ";", "；"))
    return text[max(start, cut + 1):at]


def running_set_up(state: SlotState) -> bool:
    """Whether the text describes a set-up that runs (its flags or its launch command pasted, or said to run)."""
    flags = ("memory_fraction", "max_num_seqs", "engine_max_len")
    return any(name in state.values for name in flags) or _RUNNING.search(state.text) is not None


def parse_kv_cache(state: SlotState) -> None:
    """"fp8 KV cache", "kv_cache_dtype=fp8", "KV int8", "KV cache量化" (a quantised cache of no stated type),
    LMDeploy's --quant-policy."""
    policy = _QUANT_POLICY.search(state.text)
    if policy is not None:
        if policy.group("bits") != "0":
            state.set("kv_cache", "int4" if policy.group("bits") == "4" else "int8")
        state.mask(policy.start(), policy.end())
    for pattern in (_KV_CACHE_DTYPE, _KV_BEFORE, _KV_AFTER):
        m = pattern.search(state.text)
        if m is not None:
            state.mask(m.start(), m.end())
            quantised = _KV_QUANTISED_AFTER.match(state.text, m.end())
            if quantised is not None:
                # "KV cache 用 int8 量化": the cache's quantisation, not the weights' (audit 36 M-136: a bare 量化
                # read as int8 weights, sized at 15.1 GiB where the released bf16 weights are 27.4)
                state.mask(quantised.start(), quantised.end())
            if m.group("dtype") == "auto":
                continue  # a log's kv_cache_dtype='auto' beside "KV cache 改 fp8 有没有帮助?": the type asked about
            weighed = _KV_WHAT_IF.search(_clause_before(state.text, m.start())) and running_set_up(state)
            state.set("other_kv_cache" if weighed else "kv_cache", _dtype(m.group("dtype")))
            versus = _KV_VERSUS.match(state.text, m.end())
            if versus is not None and not weighed and _dtype(versus.group("dtype")) != _dtype(m.group("dtype")):
                # "KV cache 用 int8 和 fp16 比": the second type is the one weighed against, not the weights'
                state.set("other_kv_cache", _dtype(versus.group("dtype")))
                state.mask(versus.start(), versus.end())
            break
    else:
        m = _KV_QUANTISED.search(state.text)
        if m is not None:
            state.set("kv_cache", KV_QUANTISED_DEFAULT)
            state.mask(m.start(), m.end())


_KV_QUANTISED_AFTER = rx(r"\s*(?:量化|quanti[sz]\w*)")
_KV_VERSUS = rx(rf"\s*(?:和|与|與|跟|对比|對比|vs\.?|versus|or|还是|還是|compared\s+(?:to|with)|against)\s*"
                rf"(?P<dtype>{_KV_TYPES})(?![a-z0-9])")
"""A second cache type set against the first ("KV cache 用 int8 和 fp16 比", "fp8 KV vs bf16")."""
_KV_NEXT = rx(r"\s*(?:的\s*)?kv(?:[-_ ]?cache|\s*缓存)?(?![a-z])")
_SPACED_SUFFIX = rx(rf"\s(?:{_KV_TYPES})\s*$")


def kv_type_after_model(state: SlotState, model_text: str, model_end: int, suffix_quant: str | None) -> bool:
    """"Qwen3-32B fp8 KV cache": the name match took "fp8" as the checkpoint's, but a cache word follows, so
    the type is the KV cache's. Only a type written apart from the name ("Qwen3-32B-FP8" is a checkpoint) and
    one the cache can take. True when the suffix was the cache's (the caller then drops it as the weights')."""
    if suffix_quant is None or "kv_cache" in state.values or not _SPACED_SUFFIX.search(model_text):
        return False
    follows = _KV_NEXT.match(state.folded, model_end)
    kv = _dtype(suffix_quant)
    if follows is None or kv not in ("fp8", "int8", "int4"):
        return False
    state.set("kv_cache", kv)
    state.mask(model_end, follows.end())
    return True
