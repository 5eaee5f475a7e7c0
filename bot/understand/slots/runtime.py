"""The runtime's own settings: engine version, KV-cache precision, attention implementation.

"transformers 4.38", "vllm 0.6", "vLLM v0.8.5" → `engine_version` (the engine's profile changes with it:
logits over every prompt token before transformers 4.45, eager attention before 4.36); "fp8 KV cache",
"kv_cache_dtype=fp8", "KV int8", "KV cache量化" → `kv_cache`; "no flash attention", "eager" →
`flash_attention` False; "gpu_memory_utilization 0.8", "--mem-fraction-static 0.85" → `memory_fraction` (the
serving engine's share); "max_num_seqs 64" (vLLM) or "--max_batch_size 64" (a TensorRT engine's build) →
`max_num_seqs`, the requests the engine is set up for. Each span is masked once read, so "fp8 KV cache" does
not also make the weights fp8 and "4.38" or "0.8" is never read as a size or a count. Runs before the number
slots.
"""

from __future__ import annotations

from bot.understand.question import MAX_GPU_LAYERS, MAX_PREFILL_CHUNK
from bot.understand.slots.base import SlotState, bounded, rx
from bot.understand.slots.engine import TRITON
from rules.constants import GPUS_PER_NODE

_ENGINE_NAMES = (r"transformers|vllm|sglang|lmdeploy|turbomind|tensorrt[-_ ]?llm|trt[-_ ]?llm|unsloth|llama[.-_ ]?cpp"
                 r"|ollama|deepspeed|llama[-_ ]?factory|torchtune")
_VERSION = rx(rf"(?P<engine>{_ENGINE_NAMES})\s*(?:version\s*|版本\s*)?v?"
              r"(?P<version>\d{1,2}(?:\.\d{1,4}){1,2})(?![\d.]*[bkmg])")
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
_LOGGED_KV_TOKENS = rx(r"maximum\s+number\s+of\s+tokens\s+that\s+can\s+be\s+stored\s+in\s+kv\s+cache\s*"
                       r"\((?P<n>\d{1,9})\)"
                       r"|gpu\s+kv\s+cache\s+size:\s*(?P<n2>\d{1,3}(?:,\d{3})+|\d{1,9})\s+tokens"
                       r"|kv\s+cache\s+is\s+allocated\.?\s*\#tokens:\s*(?P<n3>\d{1,9})"
                       r"|max\s+cached\s+tokens:\s*(?P<n4>\d{1,9})")
"""The tokens a pasted engine log says its KV cache holds: vLLM's start-up error or "GPU KV cache size: N tokens",
SGLang's "KV Cache is allocated. #tokens: N", LMDeploy TurboMind's "max cached tokens: N"."""
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


_SIZE = r"(?P<num{i}>\d{{1,5}}(?:\.\d+)?)\s*(?P<unit{i}>tib|tb|t|gib|gb|g)(?![a-z0-9])"
_HOST_RAM_SIZE = rx(
    _SIZE.format(i=1) + r"\s*(?:的\s*)?(?:of\s+)?(?:(?:system|cpu|host|main)\s+)?(?:(?:lp)?ddr\d\w*(?:[- ]\d{4})?\s*)?"
    r"(?:ram\b|内存(?!卡)|记忆体|memory\s+(?:on|in)\s+the\s+(?:host|server|machine|box))"
    r"|" + _SIZE.format(i=2) + r"\s*(?:of\s+)?(?:lp)?ddr\d(?![a-z0-9])"
    r"|(?:\bram|(?:system|host|cpu)\s+memory|(?<!显卡)(?<!gpu)内存|记忆体)\s*(?:[:：=]|is|of|有|为|是)?\s*"
    + _SIZE.format(i=3)
)
"""The machine's RAM as written ("256GB RAM", "64GB DDR5", "加 256G 内存", "RAM: 128GB"): what offloaded
weights, optimizer states or experts must fit in beside the cards."""
MAX_HOST_RAM_GB = 65536.0


def parse_host_ram_size(state: SlotState) -> None:
    """`host_ram_gb`: the RAM the machine has, when the text gives its size (read before any card memory)."""
    m = _HOST_RAM_SIZE.search(state.text)
    if m is None:
        return
    which = next(i for i in "123" if m.group(f"num{i}"))
    value = float(m.group(f"num{which}")) * (1024.0 if m.group(f"unit{which}").startswith("t") else 1.0)
    if value > 0:
        state.set("host_ram_gb", bounded(state, "host_ram_gb", value, MAX_HOST_RAM_GB))


_NETWORK = rx(
    r"(?<![\d.])(?P<num>\d{1,4})\s*(?:g|gb|gbit|gbps|gb/s|gbit/s|gbe)(?![a-z0-9])\s*(?:/s)?\s*(?:的\s*)?"
    r"(?P<what>ethernet|以太网|乙太网|(?:infiniband|ib|roce)(?![a-z])|网络|网卡|nics?\b|networking|interconnect|links?\b)"
    r"|(?<![\d.])(?P<num2>\d{1,4})\s*gbe(?![a-z0-9])"
    r"|(?:ethernet|以太网|乙太网|infiniband|roce|网络|网卡|interconnect)\s*(?:is|of|at|只有|为|是)?\s*(?:only\s+)?"
    r"(?P<num3>\d{1,4})\s*(?:g|gb|gbit|gbps|gb/s|gbe)(?![a-z0-9])"
)
"""The network between the machines as written ("25GbE", "节点间只有25G以太网", "200Gb InfiniBand"): one NIC per
machine unless said per GPU."""
_PER_GPU = rx(r"per\s+(?:gpu|card)|each\s+(?:gpu|card)|每卡|每张卡|每个\s*gpu")
MAX_NETWORK_GBIT = 3200.0


def parse_network(state: SlotState) -> None:
    """`inter_node_gbps`: GB/s one-direction per card to the other machines, from the network the text states."""
    m = _NETWORK.search(state.text)
    if m is None:
        return
    gbit = float(m.group("num") or m.group("num2") or m.group("num3"))
    if gbit <= 0:
        return
    per_gpu = _PER_GPU.search(state.text[m.end(): m.end() + 16]) is not None
    per_card = bounded(state, "inter_node_gbps", gbit, MAX_NETWORK_GBIT) / 8 / (1 if per_gpu else GPUS_PER_NODE)
    state.set("inter_node_gbps", round(per_card, 4))
    state.mask(m.start(), m.end())


_LOGGED_QUEUE = rx(r"running:\s*(?P<run>\d{1,6})\s*reqs?.{0,60}?pending:\s*(?P<pend>\d{1,6})\s*reqs?.{0,40}?"
                   r"gpu\s+kv\s+cache\s+usage:\s*(?P<use>\d{1,3}(?:\.\d+)?)\s*%")
"""vLLM's periodic metrics line: the requests running and waiting, and how full the KV cache is."""


def read_logged_queue(state: SlotState) -> None:
    """The last metrics line a pasted vLLM log shows: [running, pending, KV-cache use %]."""
    found = list(_LOGGED_QUEUE.finditer(state.folded))
    if found:
        last = found[-1]
        state.values["logged_queue"] = [float(last.group("run")), float(last.group("pend")),
                                        float(last.group("use"))]


_LOGGED_VERSION = rx(r"vllm\s+api\s+server\s+version\s+v?(?P<v>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?)|"
                   r"initializing\s+a\s+v[01]\s+llm\s+engine\s+\(v(?P<v2>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?)")
"""The release a pasted vLLM start-up log names ("vLLM API server version 0.8.5", "Initializing a V1 LLM engine
(v0.8.5)"): the profile the reply sizes with, where its defaults changed between releases (audit 38 HIGH-116)."""


def read_logged_version(state: SlotState) -> None:
    """The vLLM release a pasted start-up log states, read before log lines are masked from the other slots."""
    m = _LOGGED_VERSION.search(state.folded)
    if m is not None:
        state.set("engine_version", m.group("v") or m.group("v2"))


def read_logged_kv_tokens(state: SlotState) -> None:
    """The KV-cache tokens a pasted engine log states, read before log lines are masked from the other slots
    (their numbers are the log's, not the question's)."""
    m = _LOGGED_KV_TOKENS.search(state.folded)
    if m is not None:
        tokens = int(next(g for g in m.group("n", "n2", "n3", "n4") if g).replace(",", ""))
        if tokens > 0:
            state.values["logged_kv_tokens"] = tokens


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

