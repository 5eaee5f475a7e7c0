"""Question understanding: any text (English, Simplified/Traditional Chinese, mixes, Slack markup) → `Question`.

How it works, in order:

1. Slack markup is stripped, control characters dropped, the text NFKC-normalised (full-width letters and
   punctuation become ASCII), lower-cased and folded to Simplified Chinese character by character, so every
   pattern below is written once, in lower-case English and Simplified Chinese. Offsets are kept, so the
   words a slot was read from can be quoted back.
2. Model and GPU mentions are found by walking token spans (ASCII words, single CJK characters) against a
   dictionary of every name, alias and Hugging Face id, normalised the same way. The walk is pruned by a set
   of key prefixes, so it costs a few hash probes per token however large the knowledge base grows, and it
   only ever accepts exact hits: "qwen2.5 7b" is the key `qwen2.57b`, never `qwen2.572b`. Only when no
   model is named exactly are a few plausible spans (name-like words, with their size) sent to the fuzzy
   `NameIndex.lookup`; a fuzzy hit whose size differs from the one written is refused, and weak or tied
   hits become "did you mean" suggestions.
3. Numbers next to their cue words become slots (context, batch/concurrency, GPU count, generated tokens,
   a bare parameter count), each read from text with the model/GPU names masked out, so "Phi-3-mini-128k"
   is not a context length and "A100 80GB" is not a count. Out-of-range values are clamped to the bounds in
   `bot.question` and listed in `Question.clamped`.
4. Keywords give task, precision/quantisation, engine, cloud, budget and training options.
5. The intent is decided last, from cue phrases and what was found (see `_intent`).

Choices worth knowing:
- A bare "量化" / "quantized" with no bit width reads as int8 (the conservative figure: it needs more
  memory than int4) and adds the note `quant-bits-assumed`.
- P-tuning / prefix tuning / adapters are sized as LoRA (note `ptuning-as-lora`).
- "fine-tune" without LoRA/QLoRA is a full fine-tune (task train).
- A task is implied as inference when the text runs/serves/chats, names a serving engine, or gives
  concurrency or a context length without any training word.
- A GPU named without its memory ("A100", "V100", "H100") resolves to the knowledge base's entry for that
  bare alias and sets `gpu_defaulted`, so the reply can say which variant it assumed.
- k after a context length is 1024 (32k → 32768); after a user count it is 1000.
- Only the first `MAX_PARSE_CHARS` characters are read (the text itself is kept whole).
- GPU memory stated without a card ("is 24GB enough", "16G显存", "2张24G的卡") is `memory_gb`, as written
  (80G = 80 GB = 80), per card when a count goes with it ("2x 24GB" is two 24 GB cards). It is read only
  when no card is named (a card's own size, "A100 80GB", picks the card's variant instead), never from a
  model size (13B) or a context (32k), and not when the number is system RAM, disk, data, weights, a
  bandwidth (GB/s), or what something needs ("it needs 26GB": that is a requirement, not what one has).
- A capacity question ("what can a 4090 run", "3060能跑什么模型", "能微调多大的模型") needs a card or a memory
  size in the text and no model or size named: intent gpu_info with `asks_capacity`.
- Two or more models named with a comparison cue (vs, or, compare, 哪个, 还是, 比) are `compare_models`, in
  the order written; `model` is the first. When only one is named exactly, one more fuzzy lookup is tried for
  a misspelt second. `compare_models` is not a `stated` slot (the reply shows the models side by side).
"""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz, process

from bot.lang import detect_lang, has_cjk, to_simplified
from bot.numbers import EN_NUMBERS, number
from bot.question import MAX_BATCH, MAX_CONTEXT, MAX_GPU_COUNT, MAX_PARAMS_B, Intent, Question
from knowledge.base import KnowledgeBase
from knowledge.lookup import CONFIDENT_SCORE, SUGGEST_SCORE, split_checkpoint_suffixes

log = logging.getLogger(__name__)

MAX_PARSE_CHARS = 4000
"""Longer messages are read up to here: no real question is longer, and parsing stays bounded."""

MAX_SPAN_TOKENS = 10
"""Longest name span walked (CJK characters are one token each: 通义千问7B is five)."""

FUZZY_MAX_CANDIDATES = 4
FUZZY_TIE_MARGIN = 3.0
"""Two fuzzy candidates this close (and of the same size) are a tie: suggest both, pick neither."""

_QUESTION_SHAPE = re.compile(
    r"^\s*(?:what|why|how|when|which|is|are|does|do|should|can)\b|什么|什麼|为什么|為什麼|怎么|怎麼|怎样|怎樣|如何|吗|嗎|[?？]\s*$",
    re.I,
)
"""A sentence shaped as a question, for telling a FAQ question from a bare topic word."""

FAQ_MATCH_SCORE = 70.0
"""A FAQ entry scoring at least this is attached as `faq_hint`."""
FAQ_INTENT_SCORE = 86.0
"""Without any model/GPU/size named, a FAQ question this close is intent faq even without a cue word."""

SLOT_ORDER = (
    "model", "params_b", "task", "precision", "quant", "engine", "context", "batch", "gen_tokens",
    "gpu", "gpu_count", "memory_gb", "compare_gpus", "cloud", "budget", "zero_stage", "gradient_checkpointing",
    "lora_rank", "optimizer",
)

# --------------------------------------------------------------------------------------------------
# Slack markup
# --------------------------------------------------------------------------------------------------

_SLACK_TAG = re.compile(r"<([^<>]*)>")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")


def _slack_tag(match: re.Match[str]) -> str:
    inner = match.group(1)
    target, _, label = inner.partition("|")
    if target.startswith("@"):  # user mention
        return ""
    if target.startswith("!"):  # <!here>, <!channel>, <!subteam^ID|@team>, <!date^…|fallback>
        return label if target.startswith("!date") else ""
    if target.startswith("#"):  # channel link
        return f"#{label}" if label else ""
    if label:
        return label
    return target[len("mailto:"):] if target.startswith("mailto:") else target


def strip_slack_markup(text: str) -> str:
    """`<@U123>` mentions removed, `<url|label>` → label, `<url>` → url, `&amp; &lt; &gt;` unescaped."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = _SLACK_TAG.sub(_slack_tag, text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return re.sub(r"[ \t]{2,}", " ", text).strip()


# --------------------------------------------------------------------------------------------------
# Names: tokens, keys, and the per-knowledge-base vocabulary
# --------------------------------------------------------------------------------------------------

_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[a-z0-9]+(?:\.[a-z0-9]+)*|[{_CJK_CLASS}]", re.A)
_MEMORY_TOKEN = re.compile(r"(\d+)gb")
_COUNT_GLUED = re.compile(r"(\d{1,4})[x×]([a-z].*)", re.A)
_SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)([bm])(?![a-z])", re.A)
_HAS_DIGIT = re.compile(r"\d")


def _fold(text: str) -> str:
    """NFKC, lower case, Traditional → Simplified, keeping one output character per input character."""
    text = unicodedata.normalize("NFKC", text)
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    return to_simplified(lowered)


def _canon(token: str) -> str:
    """Memory sizes are written 80G, 80GB or 80 GB: all read as 80g."""
    if token == "gb":
        return "g"
    match = _MEMORY_TOKEN.fullmatch(token)
    return f"{match.group(1)}g" if match else token


@dataclass(frozen=True)
class _Token:
    key: str
    start: int
    end: int


def _tokens(folded: str) -> list[_Token]:
    out: list[_Token] = []
    for match in _TOKEN.finditer(folded):
        word, start = match.group(), match.start()
        glued = _COUNT_GLUED.fullmatch(word)
        if glued and not _SIZE.fullmatch(glued.group(2)):  # 8xH100 → 8x | h100 (but mixtral 8x7b stays)
            cut = start + len(glued.group(1)) + 1
            out.append(_Token(word[: len(glued.group(1)) + 1], start, cut))
            out.append(_Token(_canon(glued.group(2)), cut, match.end()))
            continue
        out.append(_Token(_canon(word), start, match.end()))
    return out


def name_key(name: str) -> str:
    """The key a name is stored and looked up under: its tokens, canonicalised and concatenated."""
    return "".join(t.key for t in _tokens(_fold(name)))


@dataclass
class _Vocab:
    models: dict[str, str] = field(default_factory=dict)
    gpus: dict[str, str] = field(default_factory=dict)
    prefixes: set[str] = field(default_factory=set)
    bare_gpus: set[str] = field(default_factory=set)
    """GPU keys that name a family with several variants (A100 → the 40/80 GB cards): a default is assumed."""
    faq_ids: list[str] = field(default_factory=list)
    faq_texts: list[str] = field(default_factory=list)
    faq_keywords: list[tuple[str, re.Pattern[str]]] = field(default_factory=list)


_VOCAB_CACHE: dict[int, tuple[KnowledgeBase, _Vocab]] = {}


def _add_key(table: dict[str, str], prefixes: set[str], key: str, entry_id: str) -> None:
    if not key or (key.replace(".", "").isdigit() and len(key) < 3):
        return
    table.setdefault(key, entry_id)
    for end in range(1, len(key) + 1):
        prefixes.add(key[:end])


def _vocab(kb: KnowledgeBase) -> _Vocab:
    cached = _VOCAB_CACHE.get(id(kb))
    if cached is not None and cached[0] is kb:
        return cached[1]
    vocab = _Vocab()
    for model in kb.models.values():
        for name in (model.id, model.name, *model.aliases, *model.hf_ids):
            _add_key(vocab.models, vocab.prefixes, name_key(name), model.id)
            tail = name.rsplit("/", 1)[1] if "/" in name else ""
            if len(tail) >= 4 and re.search(r"[A-Za-z].*\d|\d.*[A-Za-z]", tail):
                # a Hugging Face id is also written without its organisation ("ViT-B/16" is not one)
                _add_key(vocab.models, vocab.prefixes, name_key(tail), model.id)
    gpu_tokens: list[tuple[str, list[str]]] = []
    for gpu in kb.gpus.values():
        for name in (gpu.id, gpu.name, *gpu.aliases):
            tokens = [t.key for t in _tokens(_fold(name))]
            _add_key(vocab.gpus, vocab.prefixes, "".join(tokens), gpu.id)
            gpu_tokens.append((gpu.id, tokens))
    for gpu_id, tokens in gpu_tokens:
        for cut in range(1, len(tokens)):
            owner = vocab.gpus.get("".join(tokens[:cut]))
            if owner is not None and owner != gpu_id:
                vocab.bare_gpus.add("".join(tokens[:cut]))
    for entry in kb.faq.values():
        for question in (*entry.questions.en, *entry.questions.zh):
            vocab.faq_ids.append(entry.id)
            vocab.faq_texts.append(_faq_text(question))
        for keyword in dict.fromkeys(entry.keywords):
            folded = _fold(keyword).strip()
            if len(folded) >= 2:
                # word boundaries only where the keyword itself starts or ends with a Latin letter or digit:
                # "监控" must match in "怎么监控gpu利用率", "nvlink" must not match inside "nvlinks2"
                head = r"(?<![a-z0-9])" if folded[0].isascii() and folded[0].isalnum() else ""
                tail = r"(?![a-z0-9])" if folded[-1].isascii() and folded[-1].isalnum() else ""
                bounded = f"{head}{re.escape(folded)}{tail}"
                vocab.faq_keywords.append((entry.id, re.compile(bounded, re.A)))
    if len(_VOCAB_CACHE) > 8:
        _VOCAB_CACHE.clear()
    _VOCAB_CACHE[id(kb)] = (kb, vocab)
    return vocab


_FAQ_PUNCT = re.compile(r"[^\w\s.]+")


def _faq_text(text: str) -> str:
    return re.sub(r"\s+", " ", _FAQ_PUNCT.sub(" ", _fold(text))).strip()


@dataclass
class _Mention:
    kind: str  # "model" | "gpu"
    entry_id: str
    key: str
    start: int
    end: int
    score: float = 100.0


_NOT_A_NAME_START = frozenset((
    "a", "an", "i", "in", "on", "of", "to", "or", "at", "by", "is", "it", "the", "for", "and", "with", "as",
    "be", "my", "we",
))


def _find_mentions(tokens: list[_Token], vocab: _Vocab) -> list[_Mention]:
    """Exact name hits, longest first from the left, never overlapping."""
    found: list[_Mention] = []
    i = 0
    n = len(tokens)
    while i < n:
        best: _Mention | None = None
        key = ""
        if tokens[i].key in _NOT_A_NAME_START and i + 1 < n and tokens[i + 1].start > tokens[i].end:
            i += 1  # "a 10^30 …" is not an A10, "on 100 GPUs" not an O100
            continue
        for j in range(i, min(n, i + MAX_SPAN_TOKENS)):
            key += tokens[j].key
            hit: _Mention | None = None
            if key in vocab.gpus:
                hit = _Mention("gpu", vocab.gpus[key], key, tokens[i].start, tokens[j].end)
            elif key in vocab.models:
                hit = _Mention("model", vocab.models[key], key, tokens[i].start, tokens[j].end)
            elif key.endswith("s") and key[:-1] in vocab.gpus:  # "two 4090s", "H100s"
                hit = _Mention("gpu", vocab.gpus[key[:-1]], key[:-1], tokens[i].start, tokens[j].end)
            if hit is not None:
                best = hit
            if key not in vocab.prefixes:
                break
        if best is None:
            i += 1
            continue
        found.append(best)
        while i < n and tokens[i].start < best.end:
            i += 1
    return [_memory_first(m, tokens, vocab) for m in found]


_MEMORY_FIRST = re.compile(r"\d+g", re.A)


def _memory_first(mention: _Mention, tokens: list[_Token], vocab: _Vocab) -> _Mention:
    """"80GB A100", "80G的A100": the memory written before the card picks the variant."""
    if mention.kind != "gpu":
        return mention
    before = [t for t in tokens if t.end <= mention.start][-2:]
    if before and before[-1].key == "的":
        before = before[:-1]
    if not before or not _MEMORY_FIRST.fullmatch(before[-1].key) or mention.start - before[-1].end > 3:
        return mention
    key = mention.key + before[-1].key
    if key not in vocab.gpus:
        return mention
    return _Mention("gpu", vocab.gpus[key], key, before[-1].start, mention.end)


# --------------------------------------------------------------------------------------------------
# Patterns (on folded text: lower case, Simplified)
# --------------------------------------------------------------------------------------------------

def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.A | re.X)


_NUM = r"(?P<neg>(?<![a-z0-9.])-\s?)?(?P<num>\d[\d,]*(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)"
_EN_COUNT_WORDS = "|".join(sorted((re.escape(w) for w in EN_NUMBERS), key=len, reverse=True))

# -- context, generated tokens, batch ---------------------------------------------------------------
_CTX_UNIT = r"\s*(?P<unit>k|m|万|千)?(?![a-z0-9])"
_CONTEXT_CUE_FIRST = _rx(
    r"(?:context(?:[ _-]?(?:length|window|size|len))?|ctx|上下文(?:长度|窗口)?|序列长度|序列|"
    r"seq(?:uence)?(?:[ _-]?(?:len(?:gth)?))?|max[_ ]?(?:model|seq)[_ ]?len|prompts?(?:[ _-]length)?|"
    r"输入长度|输入)\s*(?:of|is|=|:|为|是|达到|到|约|大约|about|around|up\ to|~)?\s*(?:about|around|~)?\s*"
    + _NUM + _CTX_UNIT
)
_CONTEXT_CUE_AFTER = _rx(
    _NUM + _CTX_UNIT + r"\s*(?:-\s*)?(?:tokens?\s*)?(?:of\s+)?"
    r"(?:context|ctx|的?上下文|长上下文|的?序列|sequence|seq\b|prompts?)"
)
_TOKENS_BARE = _rx(_NUM + _CTX_UNIT + r"\s*(?:-\s*)?tokens?(?![a-z])(?!\s*/\s*s)(?!\s*per)")
_K_BARE = _rx(
    r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>k)(?![a-z0-9])"
    r"(?!\s*(?:concurrent|simultaneous|parallel|users?|requests?|sessions?|people|steps?|samples?|"
    r"images?|rows?|examples?|documents?|qps|rps|个|人|用户|条|张|步|样本))"
)
_GEN_TOKENS = _rx(
    r"(?:generat(?:e|ing|ion)|output(?:s|ting)?|max[_ ]new[_ ]tokens|生成|输出|回复)\s*(?:of|=|:|为|约|up\ to)?\s*"
    + _NUM + _CTX_UNIT + r"\s*(?:new\s+)?(?:tokens?|个\s*token)?"
    r"|" + r"(?P<num2>\d+)\s*(?P<unit2>k)?\s*(?:output|generated|new)\s+tokens?"
)
_BATCH = [
    _rx(r"(?:batch(?:[ _-]?size)?|\bbs|micro[ _-]?batch(?:[ _-]?size)?|concurrency|concurrent\ requests|"
        r"并发(?:数|量|度|请求数?)?|批(?:次)?大小|批量(?:大小)?|batch大小)\s*(?:of|is|=|:|为|是|达到|约)?\s*" + _NUM
        + r"\s*(?P<unit>k)?(?![a-z0-9])"),
    _rx(_NUM + r"\s*(?P<unit>k)?\s*(?:concurrent|simultaneous|parallel)?\s*"
        r"(?:users?|requests?|sessions?|streams?|clients?|people|customers?)(?![a-z])"),
    _rx(_NUM + r"\s*(?P<unit>k)?\s*(?:concurrent|simultaneous|parallel)(?![a-z])"),
    _rx(_NUM + r"\s*(?:路|个|人|用户)?\s*并发"),
    _rx(_NUM + r"\s*(?:个)?(?:人|用户|请求)\s*同时"),
    _rx(r"同时\s*(?:有|服务|支持)?\s*" + _NUM + r"\s*(?:个)?(?:人|用户|请求|路)"),
]

# -- GPU counts -------------------------------------------------------------------------------------
_COUNT_BEFORE = _rx(
    r"(?:^|(?<=[^a-z0-9.]))(?P<neg>-\s?)?(?P<num>\d{1,12}|[一二两三四五六七八九十单双]{1,3}|" + _EN_COUNT_WORDS + r")"
    r"\s*(?:x|×|\*|张|块|个|台|卡|张卡|块卡|片|pcs)?\s*(?:nvidia|英伟达|geforce|tesla)?\s*$"
)
_COUNT_AFTER = _rx(
    r"^\s*(?:gpus?|cards?|显卡|卡)?\s*(?:[x×*]\s*(?P<num>\d{1,12})(?![a-z0-9])"
    r"|(?P<num2>\d{1,12}|[一二两三四五六七八九十]{1,3})\s*(?:张|块|个|台|卡|片))"
)
_COUNT_GENERIC = _rx(
    r"(?:^|(?<=[^a-z0-9.]))(?P<neg>-\s?)?(?P<num>\d{1,12}|[一二两三四五六七八九十]{1,3}|" + _EN_COUNT_WORDS + r")"
    r"\s*(?:x\s*)?(?:gpus?|cards?|graphics\ cards|accelerators|张卡|块卡|张显卡|块显卡|个gpu|张gpu|块gpu|卡|显卡)"
    r"(?![a-z])"
)
# -- GPU memory without a card ----------------------------------------------------------------------
MAX_MEMORY_GB = 100_000.0
"""Bound on a stated memory size (`Question.memory_gb`)."""
_MEMORY = _rx(
    r"(?:(?<![a-z0-9.-])(?P<count>\d{1,3}|[一二两三四五六七八九十]{1,2})\s*(?:x|×|\*|张|块|片)\s*(?:的\s*)?|"
    r"(?<![a-z0-9.-]))"
    r"(?P<num>\d{1,6}(?:\.\d+)?)\s*(?:个\s*)?(?:gib|gb|g)(?![a-z0-9])"
    r"(?:\s*[x×*]\s*(?P<count_after>\d{1,3})(?![a-z0-9]))?"
)
_MEMORY_NOT_AFTER = _rx(
    r"\s*(?:的\s*)?(?:(?:of\s+)?(?:system\s+|cpu\s+|host\s+|ddr\d?\s+)?(?:ram\b|内存(?!卡))|"
    r"(?:of\s+)?(?:system|cpu|host|disk|ssd|hdd|nvme|storage|data|datasets?|text|corpus|files?|weights?|"
    r"checkpoints?|downloads?|logs?|network|bandwidth|ethernet)(?![a-z])|"
    r"/\s*s|ps(?![a-z])|per\s+s|硬盘|磁盘|存储|固态|数据|语料|权重|文件|模型文件|带宽|每秒|网速|流量|网络)"
)
_MEMORY_NOT_BEFORE = _rx(
    r"(?:\bram|(?<!显卡)(?<!gpu)(?<!gpu\ )内存|system\s+memory|cpu\s+memory|host\s+memory|\bdisk|storage|"
    r"\bssd|\bhdd|硬盘|磁盘|存储|dataset|\bdata|数据集?|语料|\bweights?|checkpoints?|权重|\bfiles?|文件|"
    r"download\w*|下载|\bneeds?|\bneeded|requires?|required|\btakes?|\btook|consumes?|occup\w*|\buses?|"
    r"\bused|需要|占用?|消耗|吃掉?|用了|bandwidth|带宽)"
    r"\s*(?:is|are|was|of|about|around|roughly|approximately|at\s+least|only|just|~|约|大约|大概|至少|只有|有|是|为|"
    r"了|:|=)?\s*(?:about|around|~|约|大约|大概)?\s*$"
)
_CARD_WORD_AFTER = _rx(r"\s*(?:的\s*)?(?:vram\s+|显存\s*(?:的\s*)?)?(?:gpus?|cards?|graphics\ cards?|显卡|卡)(?![a-z])")

# -- capacity and model comparison ------------------------------------------------------------------
_CAPACITY = _rx(
    r"\b(?:what|which)\s+(?:[\w.'-]+\s+){0,3}?(?:models?|llms?)\s+(?:can|could|will|would|fits?|runs?|should|"
    r"are\s+(?:possible|feasible))\b|"
    r"\b(?:what|which)\s+sizes?\s+(?:of\s+)?(?:an?\s+)?(?:models?|llms?)\b|"
    r"\b(?:biggest|largest|max(?:imum)?)\s+(?:(?!context|batch|tokens?|seq)[\w.'-]+\s+){0,2}?(?:models?|llms?)\b|"
    r"\bmax(?:imum)?\s+model\s+size\b|"
    r"\bhow\s+(?:big|large)\s+(?:of\s+)?an?\s+(?:[\w.'-]+\s+)?(?:models?|llms?)\b|"
    r"\bwhat\s+(?:can|could)\s+(?!(?:i|we|you)\s+do\b|cause|happen|make)(?:[\w.'-]+\s+){0,4}?"
    r"(?:run|fit|hold|handle|train|fine[-\ ]?tune|serve|host|load)\b|"
    r"\bwhat\s+(?:will|would|can|could)?\s*fits?\s+(?:on|in|into)\b|"
    r"(?:能|可以|可|能够|最多|最大)\s*(?:能|可以)?\s*(?:跑|运行|部署|推理|微调|训练|加载|装|放|带|支持)\s*"
    r"(?:得?动|得?了|得?下|起来)?\s*(?:什么|啥|哪些|哪个|多大|多少参数|多少b|几b|多少亿)"
    r"(?!\s*的?\s*(?:batch|上下文|context|并发|序列|精度|框架|引擎|速度|量化|长度))|"
    r"(?:跑|运行|部署|微调|训练|适合)\s*(?:得?动)?\s*(?:什么|啥|哪些|多大)\s*(?:样\s*)?(?:的\s*)?(?:模型|大模型|llm)|"
    r"什么(?:样的)?模型\s*(?:能|可以)|最大\s*(?:能|可以)?\s*(?:跑|运行|部署|微调|训练|放|装)\s*(?:得?动|得?下)?\s*的\s*模型"
)
_MODEL_COMPARE = _rx(
    r"\bvs\.?\b|\bversus\b|\bcompar\w*|\bdifference\w*|\bdiffer\b|\bbetter\b|\bor\b|\bwhich\b|\bthan\b|"
    r"对比|比较|区别|差别|差异|哪个|哪一个|还是|相比|比起|\bpk\b|比"
)
_MODEL_COMPARE_STRONG = _rx(r"\bvs\.?\b|\bversus\b|\bcompar\w*|对比|比较|相比|比起|\bpk\b|还是")
"""Cues strong enough to spend a fuzzy lookup on a misspelt second model ("qwen 14b vs lama2 13b")."""

_COUNT_ONE = _rx(r"单卡|单张|单块|单个?gpu|单个显卡|single[ -]gpu|one\ gpu|1\ gpu")
_COUNT_TWO = _rx(r"双卡|双gpu|dual[ -]gpu")

# -- parameter counts -------------------------------------------------------------------------------
_PARAMS_EN = _rx(
    r"(?<![a-z0-9.])(?P<num>\d[\d,]*(?:\.\d+)?(?:\s*(?:\^|\*\*)\s*\d+|e\+?\d+)?)\s?"
    r"(?P<unit>b|bn|billion|m|mn|million|t|tn|trillion)(?![a-z0-9])"
    r"(?P<params>\s*(?:-\s*)?(?:parameters?|params?|参数|model|模型|llm))?"
)
_PARAMS_RAW = _rx(
    r"(?<![a-z0-9.])(?P<num>\d[\d,]*(?:\.\d+)?(?:\s*(?:\^|\*\*)\s*\d+|e\+?\d+)?)\s*(?:个)?\s*"
    r"(?:parameters?|params?|参数)"
)
_PARAMS_ZH = _rx(r"(?P<num>\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)?\s*(?P<unit>万亿|亿)")

# -- task -------------------------------------------------------------------------------------------
_QLORA = _rx(r"\bq[-_ ]?lora\b")
_LORA = _rx(r"\blora\b|\bpeft\b|低秩")
_PTUNING = _rx(r"\bp[-_ ]?tuning(?:[-_ ]?v2)?\b|\bprefix[-_ ]tuning\b|\bprompt[-_ ]tuning\b|\badapters?\b|\bfreeze\b")
_FULL_TRAIN = _rx(
    r"\bfine[-_ ]?tun\w*|\bfinetun\w*|\bsft\b|\btrain(?:ing|s)?\b|\bpre[-_ ]?train(?:ing)?\b|\bfrom\ scratch\b|"
    r"\bfull[-_ ]?(?:parameter|param)\b|微调|精调|全参|全量|预训练|训练|继续训练|二次训练|炼丹|\brlhf\b|\bdpo\b"
)
_INFERENCE = _rx(
    r"\binfer\w*|\bserv(?:e|es|ed|ing)\b|\bdeploy\w*|\brun(?:s|ning)?\b|\bgenerat\w*|\bchat(?:bot|ting)?\b|"
    r"\bhost(?:ing)?\b|\bpredict\w*|\bload\b|推理|部署|上线|跑|运行|服务(?!器)|生成|对话|调用|加载|问答|"
    r"\btokens?/s\b|\bthroughput\b|\blatency\b|吞吐|延迟"
)

# -- precision / quantisation -----------------------------------------------------------------------
_OPTIMIZER_8BIT = _rx(
    r"\b8[-_ ]?bit\s+adam\w*|\b(?:paged[-_ ]?)?adamw?[-_ ]?8[-_ ]?bit\b|\badamw?[-_ ]?bnb[-_ ]?8bit\b"
)
_OPTIMIZER_SGD = _rx(r"\bsgd\b")
_OPTIMIZER_ADAM = _rx(r"\badamw?\b")
_GGUF_LEVEL = _rx(r"(?<![a-z0-9])(?:gguf[-_ ]?)?(?P<q>q[2-8])(?:_(?P<rest>k_[sml]|k|0|1))?(?![a-z0-9])")
_PRECISIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fp32", _rx(r"\b(?:fp32|float32|f32|tf32)\b|单精度|全精度|32位浮点")),
    ("bf16", _rx(r"\b(?:bf16|bfloat16)\b")),
    ("fp16", _rx(r"\b(?:fp16|float16|f16|half(?:[-_ ]precision)?)\b|半精度|16位浮点")),
    ("fp8", _rx(r"\b(?:fp8|float8|e4m3|e5m2|w8a8[-_ ]?fp8)\b|8位浮点")),
    ("int8", _rx(r"\b(?:int8|8[-_ ]?bits?|w8a8|w8a16|load[-_]in[-_]8bit|llm\.int8)\b|8位|八位|8比特|8\s?bit")),
    ("int4", _rx(r"\b(?:int4|4[-_ ]?bits?|w4a16|w4a8|nf4|fp4|load[-_]in[-_]4bit)\b|4位|四位|4比特|4\s?bit")),
)
_GPTQ = _rx(r"\bgptq\b")
_AWQ = _rx(r"\bawq\b")
_NF4 = _rx(r"\bnf4\b|\bbnb\b|\bbitsandbytes\b|load[-_]in[-_]4bit")
_BNB8 = _rx(r"load[-_]in[-_]8bit|llm\.int8")
_BARE_QUANT = _rx(r"量化|\bquanti[sz](?:ed|ation|e)\b|\bquant\b")

# -- engine, cloud, budget, training options ---------------------------------------------------------
_ENGINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("vllm", _rx(r"\bvllm\b")),
    ("llama.cpp", _rx(r"\bllama[.-_ ]?cpp\b|\bollama\b|\bgguf\b|\blm[-_ ]?studio\b|\bllamafile\b")),
    ("transformers", _rx(r"\btransformers\b|(?<![-\w/.])hf(?![-\w/.])|\bhugging\s?face\s+(?:pipeline|generate)")),
)
_CLOUDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("alibaba", _rx(r"阿里云|阿里|\baliyun\b|\balibaba\b|\balicloud\b|\bpai[-_ ]?eas\b")),
    ("aws", _rx(r"\baws\b|\bamazon\b|亚马逊|\bec2\b|\bsagemaker\b")),
    ("azure", _rx(r"\bazure\b|微软云")),
    ("gcp", _rx(r"\bgcp\b|\bgoogle\s+cloud\b|谷歌云|\bgoogle\s+compute\b|\bvertex\b")),
)
_BUDGET = _rx(
    r"\bcheap\w*|\bbudget\b|\bcost[-_ ]?effective\b|\baffordabl\w*|\blowest[-_ ]cost\b|\bleast\ expensive\b|"
    r"\binexpensive\b|\bsave\ money\b|\bbang\ for\ (?:the|my|your)\ buck\b|\blow[-_ ]cost\b|"
    r"性价比|预算有限|预算不多|预算少|便宜|省钱|成本最低|最低成本|低成本|划算|经济实惠|实惠|穷"
)
_ZERO = _rx(r"\bzero[-_ ]?(?:stage[-_ ]?)?(?P<stage>[0-3])\b|\bfsdp\b")
_CHECKPOINTING_OFF = _rx(
    r"(?:without|no|disable\w*|不(?:开|用|使用)?)\s*(?:gradient|activation)?[-_ ]?(?:checkpoint\w*|重计算)"
)
_CHECKPOINTING_ON = _rx(r"\b(?:gradient|activation)[-_ ]?checkpoint\w*|重计算|梯度检查点|\bcheckpointing\b")
_LORA_RANK = _rx(r"\b(?:lora[-_ ]?)?rank\s*(?:=|:|of|is)?\s*(?P<num>\d{1,5})\b|\br\s*=\s*(?P<num2>\d{1,5})\b")

# -- intents ----------------------------------------------------------------------------------------
_HELP = _rx(
    r"^\s*(?:help|/?gpu\ help|usage|h|commands?|menu|start|hi|hello|hey|yo|\?+|？+|what\ can\ you\ do|"
    r"what\ do\ you\ do|who\ are\ you|how\ do\ i\ use\ (?:you|this|this\ bot)|how\ does\ this\ work|"
    r"你好|您好|帮助|帮忙|怎么用|如何使用|使用说明|说明|菜单|你能做什么|你可以做什么|你会什么|能做什么|你是谁|"
    r"有什么功能|功能)\s*[!！?？.。~]*\s*$"
)
_COMPARE = _rx(
    r"\bvs\.?\b|\bversus\b|\bcompar\w*|\bdifference\w*|\bdiffer\b|\bbetter\b|\bor\b|\bwhich\ one\b|"
    r"对比|比较|区别|差别|差异|哪个好|哪个更|哪一个|还是|相比|比起|\bpk\b"
)
_RECOMMEND = _rx(
    r"\b(?:what|which)\b(?:\s+[\w.'-]+){0,3}?\s+(?:gpus?|cards?|graphics\ cards?|hardware|instances?|setup|"
    r"config\w*|accelerators?|machines?|servers?)\b|\bhow\ many\b|\bhow\ much\s+(?:vram|memory|gpu|"
    r"video\ memory)|\brecommend\w*|\bsuggest\w*|\badvi[cs]e\b|\bbest\s+(?:gpu|card|option|choice)\b|"
    r"\bcheapest\b|\bneed(?:ed|s)?\b|\brequire\w*|\bwhat\s+do\s+i\s+need\b|\bsize\b|\bsizing\b|"
    r"用什么|什么(?:卡|显卡|gpu|配置|型号)|选哪|选什么|哪款|哪个|哪张|哪种|哪些|多少(?:显存|张|块|卡|gpu|内存|资源)|"
    r"几张|几块|几卡|需要多少|要多少|推荐|多大(?:的)?显存|显存(?:要|需要)?多少|怎么选|选择|配置|需要什么"
)
_CHECK = _rx(
    r"\benough\b|\bfits?\b|\bsufficient\b|\bhandle\b|\bpossible\b|\bable\ to\b|\bfeasible\b|\bwork\b|"
    r"^\s*(?:can|could|will|would|is|are|does|do|should)\b|\b(?:can|could)\s+(?:i|we|it|they|you|this|that|a|an|"
    r"the|my|one|two)\b|\bwill\s+(?:it|this|that|they)\b|"
    r"够吗|够不够|够用|足够|行不行|行吗|可以吗|可不可以|能不能|能否|是否|吗\s*[?？!]*\s*$|"
    r"能[^，。,.?？!]{0,40}吗|可以[^，。,.?？!]{0,40}吗|撑得住|带得动|带得起|跑得动|跑得了|放得下|装得下"
)
_GPU_INFO = _rx(
    r"\btell\s+me\s+about\b|\bspecs?\b|\bspecifications?\b|\bbandwidth\b|\bhow\s+much\s+(?:memory|vram)\b|"
    r"\bvram\s+(?:of|on|does)\b|\bmemory\s+(?:of|on|does|size)\b|\btflops\b|\bflops\b|\btdp\b|\bpower\b|"
    r"\bwhat\s+is\b|\bwhat's\b|\bwhats\b|\binfo\b|\bdetails?\b|\bhow\s+fast\b|\bcompute\b|\bprice\b|\bcost\b|"
    r"\bhow\s+good\b|\bperformance\b|"
    r"显存(?:是)?多大|多大显存|显存(?:是)?多少|显存容量|带宽|算力|规格|参数|性能|功耗|价格|多少钱|介绍|是什么|"
    r"怎么样|多大|如何|几\s*g"
)
_MODEL_INFO = _rx(
    r"\bhow\s+many\s+(?:parameters|params|layers|heads|experts)\b|\bhow\s+(?:big|large)\b|\bsize\s+of\b|"
    r"\bparam(?:eter)?s?\s+(?:count|of)\b|\btell\s+me\s+about\b|\bwhat\s+is\b|\bwhat's\b|\bwhats\b|"
    r"\barchitecture\b|\bcontext\s+(?:length|window)\s+of\b|\bmax(?:imum)?\s+context\b|\bwho\s+made\b|"
    r"\binfo\b|\bdetails?\b|"
    r"多少参数|参数量|参数规模|多少亿|多大|多少层|架构|结构|介绍|是什么|上下文(?:长度)?(?:是)?多少|多长"
)
_MODEL_INFO_STRONG = _rx(
    r"\bhow\s+many\s+(?:parameters|params|layers|heads|experts)\b|\bhow\s+(?:big|large)\s+(?:is|are)\b|"
    r"\bparam(?:eter)?\s+count\b|参数量|多少参数|多少个参数|多少层|参数规模"
)
_FAQ_STRONG = _rx(
    r"\bwhy\b|\bhow\s+(?:do|does|can|should|to|is|are|would)\b|\bexplain\b|\bwhen\s+should\b|"
    r"\bwhat\s+happens\b|\bdifference\s+between\b|\bwhat\s+(?:is|are)\s+(?!the\s+(?:best|cheapest|right|"
    r"recommended|minimum)|a\s+good)|\bwhat\s+does\b|\bshould\s+i\b|\bis\s+it\s+(?:better|worth)\b|"
    r"为什么|为何|怎么办|如何|怎么|怎样|什么是|是什么|原理|区别|有哪些|要注意|注意什么|哪些因素|影响"
)
_DOMAIN = _rx(
    r"\bgpus?\b|\bvram\b|\bmemory\b|\bmodels?\b|\bllms?\b|\bcuda\b|\bnvidia\b|\bcards?\b|\bparameters?\b|"
    r"\bparams?\b|\btokens?\b|\bbatch\b|\bcontext\b|\bquanti|\bcloud\b|\binstance\b|\bcompute\b|\baccelerator|"
    r"显卡|显存|模型|大模型|算力|卡|参数|服务器|云|实例|上下文|并发|训练|推理|微调|部署|量化"
)
_FOLLOW_UP_MARKER = _rx(
    r"^\s*(?:what\s+about|how\s+about|and\b|what\s+if|with\b|on\s+(?:an?\s+)?|using\b|instead\b|also\b|"
    r"same\b|now\b|then\b|ok\b|okay\b|but\b|or\b|换成|换|改成|改为|改用|那|那么|如果|要是|用|再|还有|加上|"
    r"同样|如果是|假如)|(?:呢|instead|then|too)\s*[?？!。.]*\s*$"
)


# --------------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------------

@dataclass
class _State:
    original: str
    folded: str
    masked: list[str]
    values: dict[str, Any] = field(default_factory=dict)
    stated: list[str] = field(default_factory=list)
    clamped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def set(self, slot: str, value: Any) -> None:
        if slot in self.values:
            return
        self.values[slot] = value
        if slot not in self.stated:
            self.stated.append(slot)

    def mask(self, start: int, end: int) -> None:
        for k in range(max(0, start), min(end, len(self.masked))):
            self.masked[k] = " "

    @property
    def text(self) -> str:
        return "".join(self.masked)


def _bounded(state: _State, slot: str, value: float, upper: float, lower: float = 1.0) -> float:
    if value > upper:
        state.clamped.append(slot)
        return upper
    if value < lower:
        state.clamped.append(slot)
        return lower
    return value


def _num(match: re.Match[str], group: str = "num") -> float | None:
    raw = match.group(group)
    if raw is None:
        return None
    value = number(raw)
    if value is None:
        return None
    neg = match.groupdict().get("neg")
    return -abs(value) if neg else value


def _parse_context(state: _State) -> None:
    for gen in _GEN_TOKENS.finditer(state.text):
        raw = gen.group("num") if gen.group("num") is not None else gen.group("num2")
        unit = gen.group("unit") if gen.group("num") is not None else gen.group("unit2")
        tokens = number(raw) if raw else None
        if tokens is None:
            continue
        tokens *= _context_unit(unit)
        state.set("gen_tokens", int(_bounded(state, "gen_tokens", tokens, MAX_CONTEXT)))
        state.mask(gen.start(), gen.end())
        break
    for pattern in (_CONTEXT_CUE_FIRST, _CONTEXT_CUE_AFTER, _TOKENS_BARE, _K_BARE):
        m = pattern.search(state.text)
        if m is None:
            continue
        value = _num(m)
        if value is None:
            continue
        value *= _context_unit(m.group("unit"))
        state.set("context", int(_bounded(state, "context", value, MAX_CONTEXT)))
        state.mask(m.start(), m.end())
        return


def _context_unit(unit: str | None) -> float:
    return {"k": 1024.0, "m": 1024.0 * 1024.0, "万": 10_000.0, "千": 1000.0}.get(unit or "", 1.0)


def _parse_batch(state: _State) -> None:
    for pattern in _BATCH:
        m = pattern.search(state.text)
        if m is None:
            continue
        value = _num(m)
        if value is None:
            continue
        if m.groupdict().get("unit") == "k":
            value *= 1000
        state.set("batch", int(_bounded(state, "batch", value, MAX_BATCH)))
        state.mask(m.start(), m.end())
        return


def _count_value(state: _State, match: re.Match[str], group: str = "num") -> int | None:
    value = _num(match, group)
    if value is None:
        return None
    return int(_bounded(state, "gpu_count", value, MAX_GPU_COUNT))


def _parse_gpu_counts(state: _State, gpus: list[_Mention], mentions: list[_Mention]) -> None:
    text = state.text
    for mention in gpus:
        previous_end = max((m.end for m in mentions if m.end <= mention.start), default=0)
        before = text[max(previous_end, mention.start - 24): mention.start]
        m = _COUNT_BEFORE.search(before)
        if m is not None:
            value = _count_value(state, m)
            if value is not None:
                state.set("gpu_count", value)
                state.mask(mention.start - len(before) + m.start(), mention.start)
                return
        next_start = min((x.start for x in mentions if x.start >= mention.end), default=len(text))
        after = text[mention.end: min(next_start, mention.end + 16)]
        m = _COUNT_AFTER.search(after)
        if m is not None:
            value = _count_value(state, m, "num" if m.group("num") is not None else "num2")
            if value is not None:
                state.set("gpu_count", value)
                state.mask(mention.end, mention.end + m.end())
                return
    m = _COUNT_GENERIC.search(text)
    if m is not None:
        value = _count_value(state, m)
        if value is not None:
            state.set("gpu_count", value)
            state.mask(m.start(), m.end())
            return
    if _COUNT_ONE.search(text):
        state.set("gpu_count", 1)
    elif _COUNT_TWO.search(text):
        state.set("gpu_count", 2)


def _parse_memory(state: _State) -> None:
    """"24GB", "48 GB of VRAM", "16G显存", "2x 24GB", "两张24G的卡": memory without a card (see the module notes)."""
    text = state.text
    for m in _MEMORY.finditer(text):
        if _MEMORY_NOT_AFTER.match(text, m.end()) or _MEMORY_NOT_BEFORE.search(text[max(0, m.start() - 20): m.start()]):
            continue
        value = number(m.group("num"))
        if value is None or value <= 0:
            continue
        if value > MAX_MEMORY_GB:
            state.clamped.append("memory_gb")
            value = MAX_MEMORY_GB
        state.set("memory_gb", value)
        start, end = m.start(), m.end()
        raw_count = m.group("count") or m.group("count_after")
        if raw_count is None:
            card = _CARD_WORD_AFTER.match(text, end)
            before = _COUNT_BEFORE.search(text[max(0, start - 16): start]) if card else None
            if card is not None and before is not None:
                raw_count = before.group("num")
                start = max(0, m.start() - 16) + before.start("num")
        if raw_count is not None:
            count = number(raw_count)
            if count is not None:
                state.set("gpu_count", int(_bounded(state, "gpu_count", count, MAX_GPU_COUNT)))
        state.mask(start, end)
        return


def _parse_params(state: _State) -> None:
    text = state.text
    m = _PARAMS_ZH.search(text)
    if m is not None:
        base = number(m.group("num")) if m.group("num") else 1.0
        if base is not None:
            value = base * (1000.0 if m.group("unit") == "万亿" else 0.1)
            _set_params(state, value)
            state.mask(m.start(), m.end())
            return
    for en in _PARAMS_EN.finditer(text):
        unit = en.group("unit")
        if unit in ("t", "tn") and not en.group("params"):
            continue  # "4T" alone is more likely a card or a typo than a trillion parameters
        size = number(en.group("num"))
        if size is None:
            continue
        scale = {"b": 1.0, "bn": 1.0, "billion": 1.0, "m": 1e-3, "mn": 1e-3, "million": 1e-3}.get(unit, 1000.0)
        _set_params(state, size * scale)
        state.mask(en.start(), en.end())
        return
    raw = _PARAMS_RAW.search(text)
    if raw is not None:
        count = number(raw.group("num"))
        if count is not None and count > 0:
            _set_params(state, count / 1e9 if count >= 1e5 else count)
            state.mask(raw.start(), raw.end())


def _set_params(state: _State, value: float) -> None:
    if value <= 0:
        return
    if value > MAX_PARAMS_B:
        state.clamped.append("params_b")
        value = MAX_PARAMS_B
    state.set("params_b", round(value, 6))


def _first(patterns: tuple[tuple[str, re.Pattern[str]], ...], text: str) -> str | None:
    best: tuple[int, str] | None = None
    for label, pattern in patterns:
        m = pattern.search(text)
        if m is not None and (best is None or m.start() < best[0]):
            best = (m.start(), label)
    return None if best is None else best[1]


_SUFFIX_QUANT = {"gptq": ("int4", "gptq"), "gptq-int8": ("int8", "gptq"), "awq": ("int4", "awq"),
                 "int4": ("int4", None), "int8": ("int8", None), "fp8": ("fp8", None), "gguf": (None, None)}


def _parse_precision(state: _State, suffix_quant: str | None) -> None:
    text = state.text
    m = _OPTIMIZER_8BIT.search(text)
    if m is not None:
        state.set("optimizer", "adamw-8bit")
        state.mask(m.start(), m.end())
        text = state.text
    elif _OPTIMIZER_SGD.search(text):
        state.set("optimizer", "sgd")
    elif _OPTIMIZER_ADAM.search(text):
        state.set("optimizer", "adamw")

    quant: str | None = None
    precision: str | None = None
    gguf = _GGUF_LEVEL.search(text)
    if gguf is not None:
        level = int(gguf.group("q")[1])
        rest = gguf.group("rest") or ("k_m" if level in (3, 4, 5) else "0" if level == 8 else "k")
        quant = f"gguf-q{level}_{rest}"
        precision = "int8" if level >= 6 else "int4"
    if _GPTQ.search(text):
        quant = "gptq"
    elif _AWQ.search(text):
        quant = "awq"
    elif _BNB8.search(text):
        quant = "bnb-int8"
    elif _NF4.search(text) and not re.search(r"8[-_ ]?bit|int8", text):
        quant = "nf4"
    explicit = _first(_PRECISIONS, text)
    if explicit is not None:
        precision = explicit
    if suffix_quant in _SUFFIX_QUANT:
        suffix_precision, suffix_label = _SUFFIX_QUANT[suffix_quant]
        precision = precision or suffix_precision
        quant = quant or suffix_label
    if quant in ("gptq", "awq", "nf4") and precision is None:
        precision = "int4"
    if quant == "bnb-int8":
        precision = "int8"
    if quant == "nf4" and precision == "int8":
        quant = "bnb-int8"
    if precision is None and _BARE_QUANT.search(text):
        precision = "int8"
        state.notes.append("quant-bits-assumed")
    if precision is not None:
        state.set("precision", precision)
    if quant is not None:
        state.set("quant", quant)
    engine = _first(_ENGINES, text)
    if engine is None and quant is not None and quant.startswith("gguf"):
        engine = "llama.cpp"
    if engine is not None:
        state.set("engine", engine)


def _parse_task(state: _State) -> None:
    text = state.text
    if _QLORA.search(text):
        state.set("task", "qlora")
    elif _LORA.search(text):
        state.set("task", "lora")
    elif _PTUNING.search(text):
        state.set("task", "lora")
        state.notes.append("ptuning-as-lora")
    elif _FULL_TRAIN.search(text):
        state.set("task", "train")
    elif _INFERENCE.search(text):
        state.set("task", "inference")


def _parse_options(state: _State) -> None:
    text = state.text
    cloud = _first(_CLOUDS, text)
    if cloud is not None:
        state.set("cloud", cloud)
    if _BUDGET.search(text):
        state.set("budget", True)
    m = _ZERO.search(text)
    if m is not None:
        state.set("zero_stage", int(m.group("stage")) if m.group("stage") else 3)
    if _CHECKPOINTING_OFF.search(text):
        state.set("gradient_checkpointing", False)
    elif _CHECKPOINTING_ON.search(text):
        state.set("gradient_checkpointing", True)
    m = _LORA_RANK.search(text)
    if m is not None:
        rank = int(m.group("num") or m.group("num2"))
        if rank > 0:
            state.set("lora_rank", min(rank, 4096))


def _sizes(text: str) -> set[str]:
    return {f"{float(a):g}{b}" for a, b in _SIZE.findall(text)}


_FUZZY_STOPWORDS = frozenset((
    "what", "which", "how", "many", "much", "does", "need", "needed", "needs", "with", "from", "that", "this",
    "have", "about", "would", "could", "should", "will", "can", "for", "the", "and", "run", "running",
    "serve", "serving", "deploy", "train", "training", "tune", "tuning", "fine", "finetune", "model",
    "models", "gpu", "gpus", "card", "cards", "memory", "vram", "context", "batch", "users", "user",
    "concurrent", "inference", "cheap", "cheapest", "budget", "please", "thanks", "help", "hello", "enough",
    "big", "large", "small", "size", "parameters", "params", "tokens", "token", "quantized", "quantised",
    "quantization", "compare", "versus", "better", "best", "faster", "speed", "fast", "slow", "cost", "price",
    "cloud", "instance", "into", "using", "used", "there", "their", "they", "them", "then", "than", "when",
    "where", "why", "who", "whom", "want", "wants", "wanted", "like", "know", "tell", "show", "give", "make",
    "also", "just", "only", "some", "any", "every", "each", "other", "another", "more", "most", "less",
    "least", "very", "really", "again", "still", "even", "single", "multiple", "dual", "both", "all", "none",
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "full", "half",
    "precision", "lora", "qlora", "sft", "vllm", "llama.cpp", "ollama", "gguf", "transformers", "hf", "awq",
    "gptq", "bnb", "int4", "int8", "fp16", "bf16", "fp8", "fp32", "nf4", "deepspeed", "zero", "fsdp",
    "checkpointing", "gradient", "optimizer", "adam", "adamw", "sgd", "rank", "aws", "azure", "gcp",
    "alibaba", "aliyun", "chinese", "english", "question", "answer", "work", "works", "fit", "fits", "handle",
    "possible",
))
_WORDLIKE = re.compile(r"[a-z]", re.A)


def _fuzzy_candidates(tokens: list[_Token], taken: list[_Mention], folded: str) -> list[tuple[str, int, int]]:
    """Name-like spans worth a fuzzy lookup: an unknown word, optionally followed by a version and a size."""
    free = [t for t in tokens if not any(m.start <= t.start < m.end for m in taken)]
    candidates: list[tuple[str, int, int]] = []
    seen: set[str] = set()
    for idx, token in enumerate(free):
        if not _WORDLIKE.match(token.key) or token.key in _FUZZY_STOPWORDS or not 3 <= len(token.key) <= 40:
            continue
        if not _WORDLIKE.search(token.key) or has_cjk(token.key):
            continue
        span = [token]
        for nxt in free[idx + 1: idx + 4]:
            if nxt.start - span[-1].end > 2 or has_cjk(nxt.key) or nxt.key in _FUZZY_STOPWORDS:
                break
            span.append(nxt)
            if _SIZE.fullmatch(nxt.key) or re.fullmatch(r"\d+x\d+b", nxt.key):
                break
        # prefer the span that reaches a size; fall back to the word alone
        for end in range(len(span), 0, -1):
            piece = span[:end]
            text = folded[piece[0].start: piece[-1].end]
            key = "".join(p.key for p in piece)
            if key in seen:
                continue
            seen.add(key)
            candidates.append((text, piece[0].start, piece[-1].end))
            break
    candidates.sort(key=lambda c: (not _SIZE.search(c[0]), -len(c[0])))
    return candidates[:FUZZY_MAX_CANDIDATES]


@dataclass
class _ModelFind:
    model: str | None = None
    text: str | None = None
    score: float | None = None
    start: int = 0
    end: int = 0
    suggestions: list[str] = field(default_factory=list)
    quant: str | None = None


def _fuzzy_model(kb: KnowledgeBase, tokens: list[_Token], taken: list[_Mention], folded: str,
                 original: str) -> _ModelFind:
    found = _ModelFind()
    for text, start, end in _fuzzy_candidates(tokens, taken, folded):
        try:
            result = kb.model_index.lookup(text)
        except Exception:  # pragma: no cover - the index must never take the parser down
            log.exception("model lookup failed for %r", text)
            continue
        ranked = [m for m in ([result.best] if result.best else []) + list(result.alternatives) if m]
        wanted = _sizes(name_key_sized(text))
        fitting = []
        for match in ranked:
            if match.score < SUGGEST_SCORE:
                continue
            entry = kb.models.get(match.id)
            have = _sizes(name_key_sized(match.matched)) | _sizes(name_key_sized(match.id))
            if wanted and have and not (wanted & have):
                continue  # "qwen2.5 7b" must never become qwen2.5-72b
            if wanted and not have and entry is not None and not any(
                abs(entry.params_b - float(w[:-1]) * (1 if w.endswith("b") else 1e-3)) <= 0.15 * entry.params_b
                for w in wanted
            ):
                continue
            fitting.append(match)
        if not fitting:
            continue
        top = fitting[0]
        single_word = " " not in text.strip() and not _HAS_DIGIT.search(text)
        tie = len(fitting) > 1 and fitting[1].score >= top.score - FUZZY_TIE_MARGIN and fitting[1].id != top.id
        if top.score >= CONFIDENT_SCORE and not tie:
            found.model, found.score = top.id, float(top.score)
            found.text, found.start, found.end = original[start:end], start, end
            found.quant = result.quant
            found.suggestions = []
            return found
        threshold = 75.0 if single_word else SUGGEST_SCORE
        for match in fitting:
            if match.score >= threshold and match.id not in found.suggestions:
                found.suggestions.append(match.id)
        if found.suggestions and found.text is None:
            found.text = original[start:end]
    found.suggestions = found.suggestions[:5]
    return found


def name_key_sized(text: str) -> str:
    """Folded text with separators kept as spaces, for reading sizes out of a name."""
    return " ".join(t.key for t in _tokens(_fold(text)))


def _faq_match(vocab: _Vocab, folded: str) -> tuple[str | None, float]:
    """Best FAQ entry for the text: fuzzy resemblance to one of its questions, plus its keywords found."""
    if not vocab.faq_texts:
        return None, 0.0
    query = _faq_text(folded)
    if not query:
        return None, 0.0
    # token_sort_ratio, not token_set_ratio: a three-word follow-up is a subset of many questions
    scorer = fuzz.ratio if has_cjk(query) else fuzz.token_sort_ratio
    scores: dict[str, float] = {}
    for _text, score, index in process.extract(query, vocab.faq_texts, scorer=scorer, limit=12, score_cutoff=30):
        entry_id = vocab.faq_ids[index]
        scores[entry_id] = max(scores.get(entry_id, 0.0), float(score))
    hits: dict[str, set[str]] = {}
    for entry_id, keyword in vocab.faq_keywords:
        if keyword.search(folded):
            hits.setdefault(entry_id, set()).add(keyword.pattern)
    best_id: str | None = None
    best = 0.0
    for entry_id in set(scores) | set(hits):
        fuzzy = scores.get(entry_id, 0.0)
        keyword_hits = len(hits.get(entry_id, ()))
        combined = max(fuzzy, 55.0 + 12.0 * keyword_hits if keyword_hits else 0.0) + 6.0 * keyword_hits
        if combined > best:
            best_id, best = entry_id, combined
    return best_id, min(100.0, best)


def _intent(state: _State, folded: str, has_model: bool, gpus: list[str], vocab: _Vocab,
            suggestions: list[str], *, capacity: bool = False,
            models_compared: bool = False) -> tuple[Intent, bool, str | None]:
    """(intent, whether a cue word stated it, faq id). Order matters; see the comments.

    Memory stated without a card (`memory_gb`) stands in for a card: "is 24GB enough for X" is a check.
    """
    text = state.text  # names masked: cue words only
    stripped = folded.strip()
    memory = "memory_gb" in state.values
    hardware = bool(gpus) or memory
    entity = has_model or hardware or "params_b" in state.values
    if not stripped or (_HELP.match(stripped) and not entity):
        return "help", bool(stripped), None

    faq_id, faq_score = (None, 0.0)
    strong_faq = _FAQ_STRONG.search(text) is not None
    recommend = _RECOMMEND.search(text) is not None
    check = _CHECK.search(text) is not None

    if len(set(gpus)) >= 2:  # two cards named: a comparison, whether or not it says "vs"
        return "compare", _COMPARE.search(text) is not None, None

    # Why-questions are FAQ even about a named model ("why does llama 70b need several GPUs?").
    if re.search(r"\bwhy\b|为什么|为何|怎么办", text, re.A):
        faq_id, faq_score = _faq_match(vocab, folded)
        return "faq", True, faq_id if faq_score >= FAQ_MATCH_SCORE else None

    if capacity:  # "what can a 4090 run?", "16G显存能跑什么模型": the card (or memory) is asked about
        return "gpu_info", True, None
    if models_compared:  # "qwen 14b vs llama 2 13b", "Qwen2.5-7B和Llama-3-8B哪个省显存"
        return "compare", True, None

    if not entity:
        faq_id, faq_score = _faq_match(vocab, folded)
        # a short follow-up ("and for training?", "32k context?") is never a FAQ by resemblance alone
        resembles = faq_score >= FAQ_INTENT_SCORE and len(_TOKEN.findall(folded)) >= 4
        # a question about a FAQ topic with nothing to size ("what's NVLink?", "怎么监控GPU利用率")
        asked = faq_score >= FAQ_MATCH_SCORE and not state.stated and _QUESTION_SHAPE.search(text) is not None
        if strong_faq or resembles or asked:
            return "faq", True, faq_id if faq_score >= FAQ_MATCH_SCORE else None

    workload = has_model or "params_b" in state.values or "task" in state.values
    if hardware and not has_model and "params_b" not in state.values:
        if _GPU_INFO.search(text) and not recommend and "task" not in state.values:
            return "gpu_info", True, None
        if _GPU_INFO.search(text) and not workload:
            return "gpu_info", True, None
        others = state.stated[1:] if gpus else [s for s in state.stated if s not in ("memory_gb", "gpu_count")]
        if not workload and not others and not recommend and not check:
            return "gpu_info", False, None  # just a card's name: "H100?" (or a memory size: "24GB?")
    if (has_model and not gpus and "task" not in state.values and not (set(state.stated) - {"model"})
            and (_MODEL_INFO_STRONG.search(text) or (_MODEL_INFO.search(text) and not recommend))):
        return "model_info", True, None

    if hardware and workload:
        if recommend and not re.search(r"\bneed\b.*\benough\b", text):
            return "recommend", True, None
        if check:
            return "check", True, None
        return "check", False, None  # "chatglm6b fp16 on an rtx 3090?", "deploy deepseek-v3 on 8x H200"
    if memory and check and not gpus:
        return "check", True, None  # "is 24GB enough?": the model is still to be asked
    if recommend or check:
        return "recommend", True, None
    if entity or suggestions or state.stated or _DOMAIN.search(text):
        return "recommend", False, None
    return "unknown", False, None


def _imply_task(state: _State, intent: Intent) -> None:
    if "task" in state.values or intent not in ("recommend", "check", "compare"):
        return
    if any(slot in state.values for slot in ("batch", "context", "engine", "gen_tokens")):
        state.set("task", "inference")
        state.notes.append("task-implied")


def parse(text: str, kb: KnowledgeBase) -> Question:
    """Understand `text`. Never raises: on an internal error the question comes back as intent unknown."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    try:
        return _parse(text, kb)
    except Exception:  # pragma: no cover - defensive: a bug here must not take a reply down
        log.exception("parse failed for %r", text[:200])
        try:
            return Question(text=text, intent="unknown", lang=detect_lang(text[:MAX_PARSE_CHARS]))
        except Exception:
            return Question(text=text, intent="unknown")


def _parse(text: str, kb: KnowledgeBase) -> Question:
    clean = strip_slack_markup(text[: MAX_PARSE_CHARS * 2])[:MAX_PARSE_CHARS]
    clean = _CONTROL.sub(" ", clean)
    clean = html.unescape(clean) if "&" in clean else clean
    original = unicodedata.normalize("NFKC", clean)
    folded = _fold(original)
    if len(folded) != len(original):  # pragma: no cover - _fold keeps lengths; belt and braces
        original = folded
    lang = detect_lang(original)
    vocab = _vocab(kb)
    state = _State(original=original, folded=folded, masked=list(folded))

    tokens = _tokens(folded)
    mentions = _find_mentions(tokens, vocab)
    models = [m for m in mentions if m.kind == "model"]
    gpus = [m for m in mentions if m.kind == "gpu"]

    found = _ModelFind()
    named: list[_Mention] = []  # every model named, in order, for a comparison
    if models:
        # the first model named, unless a later mention spells it out in full ("Qwen/Qwen2.5-7B": "qwen"
        # alone would be an alias of something shorter)
        named = [m for m in models if not any(
            other.start > m.start and other.key.startswith(m.key) and len(other.key) > len(m.key)
            for other in models)]
        chosen = named[0]
        found.model, found.score = chosen.entry_id, 100.0
        found.text, found.start, found.end = original[chosen.start: chosen.end], chosen.start, chosen.end
        _base, found.quant, _variant = split_checkpoint_suffixes(found.text)
    for m in mentions:
        state.mask(m.start, m.end)
    if found.model is None:
        found = _fuzzy_model(kb, tokens, mentions, folded, original)
        if found.model is not None:
            state.mask(found.start, found.end)
            named = [_Mention("model", found.model, "", found.start, found.end, found.score or 0.0)]
    if len(named) == 1 and _MODEL_COMPARE_STRONG.search(state.text):
        # "qwen 14b vs lama2 13b": one more (confident) fuzzy look for a second model to compare
        extra = _fuzzy_model(kb, tokens, [*mentions, *named], folded, original)
        if extra.model is not None and extra.model != named[0].entry_id:
            state.mask(extra.start, extra.end)
            named.append(_Mention("model", extra.model, "", extra.start, extra.end, extra.score or 0.0))
            named.sort(key=lambda m: m.start)
    model_ids = list(dict.fromkeys(m.entry_id for m in named))
    if model_ids and found.model != model_ids[0]:  # the fuzzy second was written first
        first = named[0]
        found = _ModelFind(model=first.entry_id, text=original[first.start: first.end], score=first.score,
                           start=first.start, end=first.end)

    if found.model is not None:
        state.set("model", found.model)
    gpu_ids: list[str] = []
    for mention in gpus:
        if mention.entry_id not in gpu_ids:
            gpu_ids.append(mention.entry_id)

    # numbers next to their cues, in an order that lets the more specific readings claim their text first
    if not gpus:
        _parse_memory(state)
    _parse_gpu_counts(state, gpus, mentions)
    _parse_context(state)
    _parse_batch(state)
    if found.model is None:
        _parse_params(state)
    _parse_precision(state, found.quant)
    _parse_task(state)
    _parse_options(state)
    capacity = (bool(gpu_ids) or "memory_gb" in state.values) and found.model is None \
        and "params_b" not in state.values and _CAPACITY.search(state.text) is not None
    models_compared = len(model_ids) >= 2 and _MODEL_COMPARE.search(state.text) is not None
    intent, explicit, faq_hint = _intent(state, folded, found.model is not None, gpu_ids, vocab,
                                         found.suggestions, capacity=capacity, models_compared=models_compared)
    if intent == "compare" and len(gpu_ids) >= 2:
        state.set("compare_gpus", gpu_ids)
    elif gpu_ids:
        state.set("gpu", gpu_ids[0])
    if intent == "faq" and faq_hint is None and vocab.faq_texts:
        faq_hint, score = _faq_match(vocab, folded)
        faq_hint = faq_hint if score >= FAQ_MATCH_SCORE else None
    _imply_task(state, intent)
    if "quant-bits-assumed" in state.notes and intent not in ("recommend", "check", "compare"):
        state.notes.remove("quant-bits-assumed")  # "what is quantization?" states no precision
        state.values.pop("precision", None)
        state.stated.remove("precision")

    gpu_mention = next((m for m in gpus if m.entry_id == state.values.get("gpu")), None)
    defaulted = any(m.key in vocab.bare_gpus for m in gpus)
    values = state.values
    stated = [slot for slot in SLOT_ORDER if slot in state.stated]
    return Question(
        text=text,
        intent=intent,
        lang=lang,
        model=values.get("model"),
        model_text=found.text,
        model_score=found.score if found.model is not None else None,
        model_suggestions=found.suggestions,
        params_b=values.get("params_b"),
        task=values.get("task"),
        precision=values.get("precision"),
        quant=values.get("quant"),
        engine=values.get("engine"),
        context=values.get("context"),
        batch=values.get("batch"),
        gen_tokens=values.get("gen_tokens"),
        zero_stage=values.get("zero_stage"),
        gradient_checkpointing=values.get("gradient_checkpointing"),
        lora_rank=values.get("lora_rank"),
        optimizer=values.get("optimizer"),
        gpu=values.get("gpu"),
        gpu_text=original[gpu_mention.start: gpu_mention.end] if gpu_mention else None,
        gpu_count=values.get("gpu_count"),
        compare_gpus=values.get("compare_gpus", []),
        memory_gb=values.get("memory_gb"),
        compare_models=model_ids if intent == "compare" and len(model_ids) >= 2 else [],
        asks_capacity=capacity and intent == "gpu_info",
        cloud=values.get("cloud"),
        budget=bool(values.get("budget", False)),
        stated=stated,
        clamped=sorted(set(state.clamped), key=state.clamped.index),
        faq_hint=faq_hint,
        gpu_defaulted=defaulted,
        intent_explicit=explicit,
        notes=state.notes,
    )
