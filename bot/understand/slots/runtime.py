"""The runtime's own settings: engine version, KV-cache precision, attention implementation.

"transformers 4.38", "vllm 0.6", "vLLM v0.8.5" → `engine_version` (the engine's profile changes with it:
logits over every prompt token before transformers 4.45, eager attention before 4.36); "fp8 KV cache",
"kv_cache_dtype=fp8", "KV int8", "KV cache量化" → `kv_cache`; "no flash attention", "eager" →
`flash_attention` False; "gpu_memory_utilization 0.8", "--mem-fraction-static 0.85" → `memory_fraction` (the
serving engine's share); "max_num_seqs 64" (vLLM) or "--max_batch_size 64" (a TensorRT engine's build) →
`max_num_seqs`, the requests the engine is set up for. Each span is masked once read, so "fp8 KV cache" does
not also make the weights fp8 and "4.38" or "0.8" is never read as a size or a count. Runs before the number
slots. The KV cache's type (slots.kv_cache), the machine's RAM and network (slots.machine) and what a pasted engine
log states (slots.engine_logs) are read by modules of their own; their entry points stay importable from here.
"""

from __future__ import annotations

from bot.understand.question import MAX_GPU_LAYERS, MAX_PREFILL_CHUNK
from bot.understand.slots.base import SlotState, bounded, rx
from bot.understand.slots.engine import TRITON
from bot.understand.slots.engine_logs import read_logged_kv_tokens, read_logged_queue, read_logged_version
from bot.understand.slots.kv_cache import kv_type_after_model, parse_ggml_cache_types, parse_kv_cache
from bot.understand.slots.machine import parse_host_ram_size, parse_network

_ENGINE_NAMES = (r"transformers|vllm|sglang|lmdeploy|turbomind|tensorrt[-_ ]?llm|trt[-_ ]?llm|unsloth|llama[.-_ ]?cpp"
                 r"|ollama|deepspeed|llama[-_ ]?factory|torchtune")
_VERSION = rx(rf"(?P<engine>{_ENGINE_NAMES})\s*(?:version\s*|版本\s*)?v?"
              r"(?P<version>\d{1,2}(?:\.\d{1,4}){1,2})(?![\d.]*[bkmg])")
_DP_ATTENTION = rx(r"--?enable[-_]dp[-_]attention|\bdp[-\s]?attention\b|\bdpa\b|data[-\s]parallel\s+attention|"
                   r"数据并行注意力|注意力数据并行")
"""Data-parallel attention (SGLang --enable-dp-attention, "DP attention", 数据并行注意力)."""
_NO_FLASH = rx(r"(?:no|without|w/o|disable\w*|不用|不使用|没有|关闭|关掉)\s*"
               r"(?:flash[-_ ]?attn|flash[-_ ]?attention|fa2?|sdpa)\b"
               r"|(?:(?<![\w-])-fa|--flash[-_]attn|\bflash[-_ ]?attn|\bflash[-_ ]?attention)"
               r"\s*(?:=|:|is|set to)?\s*(?:off|0|false|disabled?)(?![\w.])"
               r"|\beager\b(?:\s*attention)?|attn_implementation\s*=\s*[\"']?eager"
               r"|(?:ollama)?_flash_attention\s*=\s*[\"']?(?:0|false)(?![\w.])")
_FLASH_ON = rx(r"\bflash[-_ ]?attn(?:[-_ ]?2)?\b|\bflash[-_ ]?attention(?:[-_ ]?2)?\b|\bfa2\b"
               r"|(?<![\w-])-fa(?:\s+(?:on|1|true))?(?![\w-])|(?:ollama)?_flash_attention\s*=\s*[\"']?(?:1|true)(?![\w.])")

_MEMORY_FRACTION = rx(r"(?:--?)?(?:gpu[-_ ]memory[-_ ]utili[sz]ation|mem[-_ ]fraction[-_ ]static"
                      r"|free[-_ ]gpu[-_ ]memory[-_ ]fraction|cache[-_ ]max[-_ ]entry[-_ ]count)"
                      r"\s*(?:=|:|of|to|at|设为|为)?\s*(?P<value>\d{1,3}(?:\.\d+)?\s*%|[01]?\.\d+|1(?![\d.]))")
_MAX_MODEL_LEN = rx(r"(?:--?)?(?:max[-_ ]model[-_ ]len|context[-_ ]length|max[-_]total[-_]tokens|session[-_]len)"
                    r"\s*(?:=|:)?\s*"
                    r"(?:some\()?(?P<n>\d{1,7})(?![\d.kK])"
                    r"|(?<![\w-])(?:-c|--ctx[-_]size|-n_ctx|--n[-_]ctx)\s*(?:=\s*)?(?P<n2>\d{3,7})(?![\d.kK])")
"""The engine's length flag: vLLM's --max-model-len, SGLang's --context-length, llama.cpp's -c / --ctx-size, TGI's
--max-total-tokens, LMDeploy's --session-len, in a pasted command line or launcher log."""
_PARALLEL_SLOTS = rx(r"(?<![\w-])(?:-np|--parallel|--n[-_]parallel)\s*(?:=\s*)?(?P<n>\d{1,4})(?![\d.])")
"""llama.cpp server's -np / --parallel: the slots that decode at once, sharing the -c cells between them."""
_MAX_NUM_SEQS = rx(r"(?:--?)?(?:max[-_ ]num[-_ ]seqs|max[-_]batch[-_]size)\s*(?:=|:|of|to|at|设为|为)?\s*"
                   r"(?P<n>\d{1,6})(?![\d.])")
MAX_NUM_SEQS_LIMIT = 65_536
_TENSOR_SPLIT = rx(r"(?:(?<![\w-])-ts|--tensor[-_]split|\btensor_split)\s*(?:=|:)?\s*[\"']?"
                   r"(?P<shares>\d{1,3}(?:\.\d+)?(?:\s*,\s*\d{1,3}(?:\.\d+)?){1,7})(?![\d.])")
"""llama.cpp's --tensor-split: each card's share of the layers, comma-separated ("-ts 10,6")."""
_PREFILL_CHUNK = rx(r"(?:(?<![\w-])-ub|--ubatch[-_]size|\bn_ubatch|--?max[-_]num[-_]batched[-_]tokens"
                    r"|\bmax_num_batched_tokens|--?chunked[-_]prefill[-_]size|\bchunked_prefill_size"
                    r"|--?max[-_]num[-_]tokens|\bmax_num_tokens|--?max[-_]batch[-_]prefill[-_]tokens"
                    r"|\bmax_batch_prefill_tokens)\s*(?:=|:)?\s*(?:some\()?(?P<n>\d{1,7})(?![\d.kK])")
"""The tokens an engine runs per forward pass: llama.cpp's -ub/--ubatch-size, vLLM's --max-num-batched-tokens,
SGLang's --chunked-prefill-size, TensorRT-LLM's max_num_tokens, TGI's --max-batch-prefill-tokens (its warm-up
runs one prefill that long)."""
_GPU_LAYERS = rx(r"(?:(?<![\w-])-ngl|--n[-_]gpu[-_]layers|--gpu[-_]layers|\bn_gpu_layers|\bnum_gpu)"
                 r"\s*(?:=|:)?\s*[\"']?(?P<n>\d{1,4})(?![\d.])")
"""Layer slots on the cards: llama.cpp's -ngl / --n-gpu-layers, Ollama's num_gpu option."""
_GPU_LAYERS_WORDS = rx(r"\boffloaded\s+(?P<n0>\d{1,4})\s*/\s*\d{1,4}\s+layers\s+to\s+gpu"
                       r"|(?<![\w./])(?P<n>\d{1,4})\s*(?:layers?|层)\s*(?:offloaded\s+|loaded\s+)?"
                       r"(?:on|to|onto|in|放|卸载|加载|跑)?\s*(?:到|在)?\s*(?:the\s+)?(?:gpus?|cards?|vram|显卡|显存)(?![a-z])")
"""The same said in words: "offloading 40 layers to the GPU", "with 40 layers on the GPU", "40层放GPU", or in
llama.cpp's load log ("offloaded 52/65 layers to GPU": 52, not the 65 the model has)."""
_N_CPU_MOE = rx(r"(?:(?<![\w-])-ncmoe|--n[-_]cpu[-_]moe|\bn_cpu_moe)\s*(?:=|:)?\s*(?P<n>\d{1,4})(?![\d.])")
_CPU_MOE = rx(r"(?<![\w-])-cmoe(?![\w-])|(?<![\w-])--cpu[-_]moe(?![\w-])"
              r"|(?:(?<![\w-])-ot|--override[-_]tensor)\s*[=\s]\s*[\"']?[^\s\"']*exps[^\s\"']*=\s*cpu"
              r"|\b(?:moe\s+)?experts?\s+(?:(?:offloaded|kept|left|placed|running|run)\s+)?(?:on|in|to|onto)\s+"
              r"(?:the\s+)?(?:cpu|system\s+ram|ram|host\s+(?:ram|memory))\b"
              r"|专家(?:层|权重)?\s*(?:都|全部)?\s*(?:放|卸载|留|跑)(?:到|在)?\s*(?:cpu|内存|系统内存)")
"""llama.cpp keeping MoE experts in system RAM: --n-cpu-moe N (the first N blocks'), --cpu-moe or an -ot
override of the `exps` tensors to CPU (every block's), or the same said in words ("with the experts on CPU",
"all MoE experts offloaded to CPU RAM", "专家放到内存")."""

_SOME_OF = rx(r"(?:\bsome|\bpart\s+of|\ba\s+few|\bseveral|部分|一部分|一些)\s*(?:of\s+)?(?:the\s+)?(?:moe\s+)?$")
"""Words before "experts … to the CPU" that leave how many to the reply ("offload some experts to the CPU")."""
_OFFLOAD_TO_RAM = rx(r"\b(?:partial(?:ly)?\s+offload\w*|(?:cpu|ram)\s+offload\w*|offload\w*\s+(?:some\s+|part\s+of\s+"
                     r"(?:it|the\s+model)\s+|the\s+rest\s+|layers\s+)?(?:to|onto|into)\s+(?:the\s+)?(?:cpu|system\s+ram|ram)|"
                     r"with\s+(?:cpu\s+)?offload\w*)\b|(?:部分)?(?:卸载|offload)\s*(?:到|至)\s*(?:cpu|内存|系统内存)|"
                     r"(?:显存|vram)\s*(?:\+|加|和|与)\s*\d+\s*g[b]?\s*(?:的\s*)?(?:内存|ram)|(?:\+|加上?)\s*\d+\s*g[b]?\s*(?:的\s*)?"
                     r"(?:内存|记忆体|ram\b|system\s+ram)|\b(?:and|with|plus)\s+\d+\s*gb?\s+(?:of\s+)?(?:ddr\d\s+)?(?:system\s+)?ram\b")
"""Part of the model in system RAM asked for without a layer count ("with partial offload", "offload to CPU",
"16G 显存 + 64G 内存", "4 张 4090 加 256G 内存"): llama.cpp's -ngl / --n-cpu-moe chosen by the reply."""

_NO_OFFLOAD = rx(r"\b(?:no|not|without|w/o|never|don'?t|do\s+not|avoid|disable\w*)\b[\w\s-]{0,16}offload|"
                 r"(?:不要|不想|不用|不能|别|無|无|没有|禁止|避免)\s*(?:部分)?(?:卸载|offload)")
"""A negated offload ("no system RAM offload", "without CPU offload", "不要卸载到内存"): everything on the cards."""


_TENSORRT_ENGINE = rx(r"\btrtllm[-_ ]build\b|\btensorrt[-_ ]?llm[-_ ]backend\b|\btensorrtllm_backend\b"
                      r"|\btensorrt[-_ ]engines?\b|\btrt[-_ ]engines?\b|--backend[= ]+tensorrt\b|_tensorrt_engine\b")
"""TensorRT-LLM's TensorRT engine: built with trtllm-build, served by the Triton backend (`tensorrt` backend)."""
_TRITON_OTHER_BACKEND = rx(r"\b(?:vllm|python)\b")
"""Triton also serves vLLM and Python models: with one of those named, "Triton" says nothing of TensorRT."""
_PYTORCH_BACKEND = rx(r"\bpytorch[-_ ]backend\b|--backend[= ]+pytorch\b|\bbackend\s*=\s*[\"']?pytorch\b")
_VLLM_V0 = rx(r"\bvllm_use_v1\s*=\s*0\b|\bv0 engine\b|\bvllm[-_ ]?v0\b(?!\.\d)")
_VLLM_V1 = rx(r"\bvllm_use_v1\s*=\s*1\b|\bv1 engine\b|\bvllm[-_ ]?v1\b(?!\.\d)")
"""vLLM's engines: V0 (the default before 0.8, VLLM_USE_V1=0) and V1."""


def parse_backend(state: SlotState) -> None:
    """An execution backend named in the text (TensorRT-LLM's TensorRT engine or PyTorch backend, vLLM's V0 or
    V1 engine); the pipeline ignores a backend the engine does not offer."""
    text = state.text
    if _TENSORRT_ENGINE.search(text) or (TRITON.search(text) and not _TRITON_OTHER_BACKEND.search(text)):
        state.set("engine_backend", "tensorrt")
    elif _PYTORCH_BACKEND.search(text):
        state.set("engine_backend", "pytorch")
    elif _VLLM_V0.search(text):
        state.set("engine_backend", "v0")
    elif _VLLM_V1.search(text):
        state.set("engine_backend", "v1")


_PARALLEL_DEGREE = rx(r"(?:(?:--?|\b)(?:tp|tensor[-_\s]?parallel(?:[-_\s]?size)?)|张量并行(?:度)?)"
                      r"(?:\s+(?:over|across)(?:\s+all)?(?:\s+the)?(?:\s+of)?)?"
                      r"\s?[=:]?\s?(?P<n>\d{1,3})\b")


_TENSOR_PARALLEL = rx(r"\btensor[-_\s]?parallel\w*|张量并行")
TENSOR_PARALLEL_NOTE = "tensor-parallel-named"
"""Question note: the text asks for tensor parallelism, which a serving engine does and transformers'
device_map (a layer split) does not (bot.reply.defaults)."""


def parse_parallel_degree(state: SlotState) -> None:
    """"tp=4", "--tensor-parallel-size 4", "TP8": that many cards, when the text gives no count of its own
    (call after `parse_gpu_counts`, so an explicit count wins)."""
    if _TENSOR_PARALLEL.search(state.text) or _PARALLEL_DEGREE.search(state.text):
        state.notes.append(TENSOR_PARALLEL_NOTE)
    m = _PARALLEL_DEGREE.search(state.text)
    if m is None:
        return
    degree = int(m.group("n"))
    if degree > 0:
        state.values["tensor_parallel"] = degree
        if "gpu_count" not in state.values:
            state.set("gpu_count", degree)
    state.mask(m.start(), m.end())


def share_of(raw: str) -> float | None:
    """"0.8", ".95", "1", "80%" → 0.8, 0.95, 1.0, 0.8; None when it is no number or outside (0, 1]. The text
    slot and the `memory_fraction` flag read a share the same way."""
    raw = raw.replace(" ", "")
    try:
        value = float(raw.rstrip("%")) / (100 if raw.endswith("%") else 1)
    except ValueError:
        return None
    return value if 0 < value <= 1 else None


def parse_engine_settings(state: SlotState) -> None:
    """The serving engine's memory share and its request cap, as its flags write them."""
    m = _MEMORY_FRACTION.search(state.text)
    if m is not None:
        value = share_of(m.group("value"))
        if value is not None:
            state.set("memory_fraction", value)
        state.mask(m.start(), m.end())
    # the last one written: a question after a pasted command asks about the change ("想改成 -c 32768 -np 4")
    m = next(reversed(list(_MAX_MODEL_LEN.finditer(state.text))), None)
    if m is not None and int(m.group("n") or m.group("n2")) > 0:
        # The engine's own length flag: the context unless the requests' own lengths are written too (read after
        # this by the context slot: "--max-model-len 32768 … prompts around 6k tokens, answers around 700" holds
        # 40 sequences of ≈ 6.8k, not 40 of 32k; audit 25 HIGH 22), and the reply need not tell them to set it.
        state.values["engine_max_len"] = int(m.group("n") or m.group("n2"))
        state.notes.append("max-model-len-stated")
        state.mask(m.start(), m.end())
    slots = next(reversed(list(_PARALLEL_SLOTS.finditer(state.text))), None)
    if slots is not None and int(slots.group("n")) > 0:
        # llama-server's -c is the KV cells all -np slots share: "-c 32768 -np 4" is four sequences of 8,192, not
        # one (audit 28 HIGH 44)
        parallel = int(slots.group("n"))
        if "batch" not in state.values:
            state.set("batch", parallel)
        cells = state.values.get("engine_max_len")
        if isinstance(cells, int) and cells >= parallel and "context" not in state.values:
            state.set("context", cells // parallel)
            state.values.pop("engine_max_len", None)  # the slots' own length, said as the context
        state.mask(slots.start(), slots.end())
    m = _TENSOR_SPLIT.search(state.text)
    if m is not None:
        shares = [float(part) for part in m.group("shares").split(",")]
        if all(share > 0 for share in shares):
            state.set("layer_split", shares)
            if "gpu_count" not in state.values:
                state.set("gpu_count", len(shares))  # one share per card
        state.mask(m.start(), m.end())
    offload = _OFFLOAD_TO_RAM.search(state.text)
    if offload is not None and not _NO_OFFLOAD.search(state.text[max(0, offload.start() - 24): offload.end()]):
        state.set("offload_to_ram", True)
    parse_host_ram_size(state)
    parse_network(state)
    m = _GPU_LAYERS.search(state.text) or _GPU_LAYERS_WORDS.search(state.text)
    if m is not None:
        layers = int(m.groupdict().get("n0") or m.group("n"))
        state.set("gpu_layers", int(bounded(state, "gpu_layers", layers, MAX_GPU_LAYERS, lower=0)))
        state.mask(m.start(), m.end())
    m = _N_CPU_MOE.search(state.text)
    if m is not None:
        state.set("cpu_moe_layers", int(bounded(state, "cpu_moe_layers", int(m.group("n")), MAX_GPU_LAYERS,
                                                lower=0)))
        state.mask(m.start(), m.end())
    else:
        m = _CPU_MOE.search(state.text)
        if m is not None and _SOME_OF.search(state.text[max(0, m.start() - 20): m.start()]):
            state.set("offload_to_ram", True)  # "offload some experts to the CPU": how many is the reply's to choose
            state.mask(m.start(), m.end())
        elif m is not None:
            state.set("cpu_moe_layers", MAX_GPU_LAYERS)
            state.mask(m.start(), m.end())
    m = _PREFILL_CHUNK.search(state.text)
    if m is not None:
        if int(m.group("n")) > 0:
            state.set("prefill_chunk", int(bounded(state, "prefill_chunk", int(m.group("n")), MAX_PREFILL_CHUNK)))
        state.mask(m.start(), m.end())
    m = _MAX_NUM_SEQS.search(state.text)
    if m is not None:
        count = int(m.group("n"))
        if count > MAX_NUM_SEQS_LIMIT:
            count = MAX_NUM_SEQS_LIMIT
            state.clamped.append("max_num_seqs")
        if count > 0:
            state.set("max_num_seqs", count)
        state.mask(m.start(), m.end())


_CONTEXT_PARALLEL = rx(
    r"(?:context[- ]?parallel(?:ism)?|\bcp\b|sequence[- ]?parallel(?:ism)?\s*\(?(?:ulysses)?\)?|deepspeed[- ]ulysses|"
    r"\bulysses\b|ring[- ]?attention|上下文并行|序列并行)"
    r"(?:\s*[(（]?\s*cp\s*[)）]?)?(?:\s*(?:size|degree|of|=|:|为|是)?\s*(?P<num>\d{1,2})(?![\d.]))?")
"""Each sequence split over cards ("context parallel 8", "CP=4", "DeepSpeed-Ulysses", "ring attention",
"上下文并行")."""


def parse_context_parallel(state: SlotState) -> None:
    """`context_parallel`: the cards a sequence is split over, 0 when the technique is named with no degree (the
    reply then takes the cards of one machine)."""
    m = _CONTEXT_PARALLEL.search(state.text)
    if m is None:
        return
    degree = int(m.group("num")) if m.group("num") else 0
    if degree == 1:
        return
    state.set("context_parallel", degree)
    state.mask(m.start(), m.end())


_REPLICAS_OF_TP = rx(r"\btp\s*[=:]?\s*(?P<tp>\d{1,2})\s*[x×*]\s*(?P<n>\d{1,3})(?:\s+replicas?)?"
                     r"|(?P<n2>\d{1,3}|two|four)\s+(?:tp\s*[=:]?\s*|tensor[-\s]parallel\s+)(?P<tp2>\d{1,2})\s+replicas?"
                     r"|(?P<n3>\d{1,3}|two|four)\s+replicas?\s+(?:of|at|with)\s+tp\s*[=:]?\s*(?P<tp3>\d{1,2})")
"""Replicas of a tensor-parallel degree: "TP=2 x 2 replicas", "two TP=2 replicas", "2 replicas of TP 2"."""
_WEIGHED = rx(r"\bwould\b|\bbetter\b|\binstead\b|\brather\b|\bwhat\s+about\b|\bvs\.?\b|\bversus\b|"
              r"更好|还是|還是|会不会|會不會|换成|換成|改成")
_WORD_COUNTS = {"two": 2, "four": 4}


def parse_weighed_layout(state: SlotState) -> None:
    """A replica layout weighed in a question ("Would TP=2 x 2 replicas be better?"): kept apart from the cards
    and the tensor-parallel degree the job runs with, for the reply to size in a line of its own."""
    for m in _REPLICAS_OF_TP.finditer(state.text):
        start = max(state.text.rfind(mark, 0, m.start()) for mark in (".", "?", "!", "\n", "。", "？", "！"))
        end = min((i for i in (state.text.find(mark, m.end()) for mark in (".", "?", "!", "\n", "。", "？", "！"))
                   if i != -1), default=len(state.text))
        if not _WEIGHED.search(state.text[start + 1: end + 1]):
            continue
        tp = int(m.group("tp") or m.group("tp2") or m.group("tp3"))
        raw = m.group("n") or m.group("n2") or m.group("n3")
        replicas = _WORD_COUNTS.get(raw.lower()) or int(raw)
        if 1 <= tp <= 64 and 1 <= replicas <= 64:
            state.values["weighed_layout"] = (tp, replicas)
            state.mask(m.start(), m.end())
        return


def parse_runtime(state: SlotState) -> None:
    parse_weighed_layout(state)
    parse_context_parallel(state)
    parse_engine_settings(state)
    parse_backend(state)
    text = state.text
    m = _VERSION.search(text)
    if m is not None:
        state.set("engine_version", m.group("version"))
        state.mask(m.start("version"), m.end("version"))
    if not parse_ggml_cache_types(state):
        parse_kv_cache(state)
    m = _DP_ATTENTION.search(state.text)
    if m is not None:
        state.set("dp_attention", True)
        state.mask(m.start(), m.end())
    m = _NO_FLASH.search(state.text)
    if m is not None:
        state.set("flash_attention", False)
        state.mask(m.start(), m.end())
    elif _FLASH_ON.search(state.text):
        state.set("flash_attention", True)


__all__ = ["MAX_NUM_SEQS_LIMIT", "TENSOR_PARALLEL_NOTE", "kv_type_after_model", "parse_backend",
           "parse_context_parallel", "parse_engine_settings", "parse_parallel_degree", "parse_runtime",
           "parse_weighed_layout", "read_logged_kv_tokens", "read_logged_queue", "read_logged_version", "share_of"]
