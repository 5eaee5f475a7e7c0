"""What the message asks for (recommend, check, compare, FAQ, card or model facts, help), decided last,
from cue phrases and from what the slots found."""

from __future__ import annotations

import re

from bot.understand.faq import FAQ_INTENT_SCORE, FAQ_MATCH_SCORE, faq_match
from bot.understand.mentions import Mention
from bot.understand.question import Intent
from bot.understand.slots.base import SlotState, rx
from bot.understand.slots.cues import ASKS_CONCURRENCY
from bot.understand.tokens import TOKEN
from bot.understand.vocab import Vocab
from knowledge.engines import load_engine_profiles

QUESTION_SHAPE = re.compile(
    r"^\s*(?:what|why|how|when|which|is|are|does|do|should|can)\b|什么|什麼|为什么|為什麼|怎么|怎麼|怎样|怎樣|如何|吗|嗎|[?？]\s*$",
    re.I,
)
"""A sentence shaped as a question, for telling a FAQ question from a bare topic word."""

# -- capacity and model comparison ------------------------------------------------------------------
CAPACITY = rx(
    r"\b(?:what|which)\s+(?:[\w.'-]+\s+){0,3}?(?:models?|llms?)\s+(?:can|could|will|would|fits?|runs?|should|"
    r"are\s+(?:possible|feasible))\b|"
    r"\b(?:what|which)\s+sizes?\s+(?:of\s+)?(?:an?\s+)?(?:models?|llms?)\b|"
    r"\b(?:biggest|largest|max(?:imum)?)\s+(?:(?!context|batch|tokens?|seq)[\w.'-]+\s+){0,2}?(?:models?|llms?)\b|"
    r"\bmax(?:imum)?\s+model\s+size\b|"
    r"\bbest\s+(?:[\w.'-]+\s+){0,2}?(?:models?|llms?)\s+(?:(?:that\s+)?(?:i|we|you)\s+(?:can|could)\s+)?"
    r"(?:run|use|fit|host|serve|load|for|on)\b|"
    r"\bhow\s+(?:big|large)\s+(?:of\s+)?an?\s+(?:[\w.'-]+\s+)?(?:models?|llms?)\b|"
    r"\bwhat\s+(?:can|could)\s+(?!(?:i|we|you)\s+do\b|cause|happen|make)(?:[\w.'-]+\s+){0,4}?"
    r"(?:run|fit|hold|handle|train|fine[-\ ]?tune|serve|host|load)\b|"
    r"\bwhat\s+(?:will|would|can|could)?\s*fits?\s+(?:on|in|into)\b|"
    r"(?:能|可以|可|能够|最多|最大)\s*(?:能|可以)?\s*(?:跑|运行|部署|推理|微调|训练|加载|装|放|带|支持)\s*"
    r"(?:得?动|得?了|得?下|起来)?\s*(?:什么|啥|哪些|哪个|多大|多少参数|多少b|几b|多少亿)"
    r"(?!\s*的?\s*(?:batch|上下文|context|并发|序列|精度|框架|引擎|速度|量化|长度))|"
    r"(?:跑|运行|部署|微调|训练|适合)\s*(?:得?动)?\s*(?:什么|啥|哪些|多大)\s*(?:样\s*)?(?:的\s*)?(?:模型|大模型|llm)|"
    r"什么(?:样的)?模型\s*(?:能|可以)|最大\s*(?:能|可以)?\s*(?:跑|运行|部署|微调|训练|放|装)\s*(?:得?动|得?下)?\s*的\s*模型|"
    r"(?:能|可以)\s*(?:跑|运行|部署)\s*(?:得?动)?\s*的\s*最(?:好|强)的?\s*[^\s，。？?]{0,4}模型"
)
MODEL_COMPARE = rx(
    r"\bvs\.?\b|\bversus\b|\bcompar\w*|\bdifference\w*|\bdiffer\b|\bbetter\b|\bor\b|\bwhich\b|\bthan\b|"
    r"对比|比较|区别|差别|差异|哪个|哪一个|还是|相比|比起|\bpk\b|比"
)
MODEL_COMPARE_STRONG = rx(r"\bvs\.?\b|\bversus\b|\bcompar\w*|对比|比较|相比|比起|\bpk\b|还是"
                          r"|\bwhich\s+(?:one\s+|model\s+)?(?:holds?|serves?|fits?|runs?|gives?|handles?|supports?|is)\b")
"""Cues strong enough to spend a fuzzy lookup on a misspelt second model ("qwen 14b vs lama2 13b")."""
# -- intents ----------------------------------------------------------------------------------------
_HELP = rx(
    r"^\s*(?:help|/?gpu\ help|usage|h|commands?|menu|start|hi|hello|hey|yo|\?+|？+|what\ can\ you\ do|"
    r"what\ do\ you\ do|who\ are\ you|how\ do\ i\ use\ (?:you|this|this\ bot)|how\ does\ this\ work|"
    r"你好|您好|帮助|帮忙|怎么用|如何使用|使用说明|说明|菜单|你能做什么|你可以做什么|你会什么|能做什么|你是谁|"
    r"有什么功能|功能)\s*[!！?？.。~]*\s*$"
)
_COMPARE = rx(
    r"\bvs\.?\b|\bversus\b|\bcompar\w*|\bdifference\w*|\bdiffer\b|\bbetter\b|\bor\b|\bwhich\ one\b|"
    r"对比|比较|区别|差别|差异|哪个好|哪个更|哪一个|还是|相比|比起|\bpk\b"
)
_NOT_A_SPEED = (r"(?!\s+(?:tok(?:en)?s?\s*(?:/|per|a)\s*(?:s|sec|second)\b|t/s\b|tps\b|it/s\b"
                r"|(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|images?|pictures?|frames?)\b))")
""""How many tok/s" asks a speed, not a count of cards: on a card named it is a check of that card (audit 18 H-3);
so do "how many seconds per image", "how many hours" and "how many images a minute" (audit 22 M-2)."""
_CARDS_COUNTED_ZH = (r"(?<!出)(?<!画)(?<!生成)(?<!产出)(?:多少|几)张(?!\s*(?:图|照片|画|相片|海报|头像))")
"""张 counts cards ("要几张卡", "多少张") and images too: "每小时能出多少张", "出几张图" ask images, not cards
(audit 33 HIGH 94: an A10 named for SDXL's hourly output was dropped from a recommendation)."""
_RECOMMEND = rx(
    r"\b(?:what|which)\b(?:\s+[\w.'-]+){0,3}?\s+(?:gpus?|cards?|graphics\ cards?|hardware|instances?|setup|"
    r"config\w*|accelerators?|machines?|servers?)\b|\bhow\ many\b" + _NOT_A_SPEED
    + r"|\bhow\ much\s+(?:vram|memory|gpu|video\ memory)|\brecommend\w*|\bsuggest\w*|\badvi[cs]e\b|"
    r"\bbest\s+(?:gpu|card|option|choice)\b|"
    r"\bcheapest\b|\bneed(?:ed|s)?\b|\brequire\w*|\bwhat\s+do\s+i\s+need\b|\bsize\b|\bsizing\b|"
    r"用什么|什么(?:卡|显卡|gpu|配置|型号)|选哪|选什么|哪款|哪个|哪张|哪种|哪些|多少(?:显存|块|卡|gpu|内存|资源)|"
    + _CARDS_COUNTED_ZH + r"|几块|几卡|几台|多少台|(?<!出)(?<!生成)需要多少(?!钱)|(?<!出)(?<!生成)要多少(?!钱)|推荐|"
    r"多大(?:的)?显存|显存(?:要|需要)?多少|怎么选|选择|配置|需要什么"
)
_MEMORY_ASKED = rx(
    r"\bhow\ much\s+(?:vram|memory|gpu\ memory|video\ memory)|\bmemory\ (?:needed|required|usage)\b|"
    r"多少显存|多大(?:的)?显存|显存(?:要|需要|占用)?多少"
)
"""A question about the memory itself: on named cards it is answered with whether they hold it."""
_COUNT_ASKED = rx(r"\bhow\ many\b" + _NOT_A_SPEED + r"|多少(?:块|卡)|" + _CARDS_COUNTED_ZH + r"|几块|几卡")

_CHECK = rx(
    r"\benough\b|\bfits?\b|\bsufficient\b|\bhandle\b|\bpossible\b|\bable\ to\b|\bfeasible\b|\bwork\b|"
    r"^\s*(?:can|could|will|would|is|are|does|do|should)\b|\b(?:can|could)\s+(?:i|we|it|they|you|this|that|a|an|"
    r"the|my|one|two)\b|\bwill\s+(?:it|this|that|they)\b|"
    r"够吗|够不够|够用|足够|行不行|行吗|可以吗|可不可以|能不能|能否|是否|吗\s*[?？!]*\s*$|"
    r"能[^，。,.?？!]{0,40}吗|可以[^，。,.?？!]{0,40}吗|撑得住|带得动|带得起|跑得动|跑得了|放得下|装得下"
)
_GPU_INFO = rx(
    r"\btell\s+me\s+about\b|\bspecs?\b|\bspecifications?\b|\bbandwidth\b|\bhow\s+much\s+(?:memory|vram)\b|"
    r"\bvram\s+(?:of|on|does)\b|\bmemory\s+(?:of|on|does|size)\b|\btflops\b|\bflops\b|\btdp\b|\bpower\b|"
    r"\bwhat\s+is\b|\bwhat's\b|\bwhats\b|\binfo\b|\bdetails?\b|\bhow\s+fast\b|\bcompute\b|\bprice\b|\bcost\b|"
    r"\bhow\s+good\b|\bperformance\b|\brent(?:s|ing|al)?\b|\bper\s+hour\b|\bhourly\b|\ban\s+hour\b|\bper\s+month\b|"
    r"\bmonthly\b|每小时|每月|月租|时租|按小时|"
    r"显存(?:是)?多大|多大显存|显存(?:是)?多少|显存容量|带宽|算力|规格|参数|性能|功耗|价格|多少钱|介绍|是什么|"
    r"怎么样|多大|如何|几\s*g"
)
_MODEL_INFO = rx(
    r"\bhow\s+many\s+(?:parameters|params|layers|heads|experts)\b|\bhow\s+(?:big|large)\b|\bsize\s+of\b|"
    r"\bparam(?:eter)?s?\s+(?:count|of)\b|\btell\s+me\s+about\b|\bwhat\s+is\b|\bwhat's\b|\bwhats\b|"
    r"\barchitecture\b|\bcontext\s+(?:length|window)\s+of\b|\bmax(?:imum)?\s+context\b|\bwho\s+made\b|"
    r"\binfo\b|\bdetails?\b|"
    r"多少参数|参数量|参数规模|多少亿|多大|多少层|架构|结构|介绍|是什么|上下文(?:长度)?(?:是)?多少|多长"
)
_MODEL_INFO_STRONG = rx(
    r"\bhow\s+many\s+(?:parameters|params|layers|heads|experts)\b|\bhow\s+(?:big|large)\s+(?:is|are)\b|"
    r"\bparam(?:eter)?\s+count\b|参数量|多少参数|多少个参数|多少层|参数规模"
)
_FAQ_STRONG = rx(
    r"\bwhy\b|\bhow\s+(?:do|does|can|should|to|is|are|would)\b|\bexplain\b|\bwhen\s+should\b|"
    r"\bwhat\s+happens\b|\bdifference\s+between\b|\bwhat\s+(?:is|are)\s+(?!the\s+(?:best|cheapest|right|"
    r"recommended|minimum)|a\s+good)|\bwhat\s+does\b|\bshould\s+i\b|\bis\s+it\s+(?:better|worth)\b|"
    r"为什么|为何|怎么办|如何|怎么|怎样|什么是|是什么|原理|区别|有哪些|要注意|注意什么|哪些因素|影响"
)
_DOMAIN = rx(
    r"\bgpus?\b|\bvram\b|\bmemory\b|\bmodels?\b|\bllms?\b|\bcuda\b|\bnvidia\b|\bcards?\b|\bparameters?\b|"
    r"\bparams?\b|\btokens?\b|\bbatch\b|\bcontext\b|\bquanti|\bcloud\b|\binstance\b|\bcompute\b|\baccelerator|"
    r"显卡|显存|模型|大模型|算力|卡|参数|服务器|云|实例|上下文|并发|训练|推理|微调|部署|量化"
)
_RESERVING = r"(?:vllm|sglang|lmdeploy|turbomind|tensorrt[-_\ ]?llm|trt[-_\ ]?llm)"
_ADVERBS = r"(?:\s+(?:always|just|still|immediately|instantly|already))*"
_TAKES = (r"(?:takes?|took|uses?|used|eats?|ate|grabs?|grabbed|occup(?:y|ies|ied)|fills?|filled|allocates?|"
          r"allocated|reserves?|reserved|hogs?|hogged|consumes?|consumed|claims?|claimed)")
_TAKING = r"(?:taking|using|eating|grabbing|occupying|filling|allocating|reserving|hogging|consuming|claiming)"
_TAKING_ALONE = r"(?:taking|eating|grabbing|occupying|filling|hogging|consuming|claiming)"
"""The same without "is" ("why is vllm taking 90%"); "using" is left out: "with vLLM using 90%" states a setting."""
_HOLDS_THE_CARD = rx(
    # "vLLM takes all my GPU memory", "it's using 90% of the VRAM" (not "with vLLM using 90% of it", a setting)
    r"\b(?:it|" + _RESERVING + r")(?:" + _ADVERBS + r"\s+" + _TAKES + r"|(?:'s|\s+(?:is|was|keeps))" + _ADVERBS
    + r"\s+" + _TAKING + r"|" + _ADVERBS + r"\s+" + _TAKING_ALONE + r")\s+(?:up\s+)?"
    r"(?:all|almost\ all|nearly\ all|most|the\ (?:whole|entire|full)|(?:[89]\d|100)\s*(?:%|percent))"
    r"(?:\s+of)?(?:\s+(?:my|the|our|its|each|every|one|a))?\s*(?:gpu'?s?\s+|card'?s?\s+|video\s+)?"
    r"(?:memory|vram)\b|"
    r"(?:\d+(?:\.\d+)?\s*gi?b|memory|vram)\s+(?:(?:is|being)\s+)?(?:used|taken|occupied|allocated|reserved|"
    r"grabbed|held)\s+by\s+(?:the\s+)?" + _RESERVING + r"|"
    r"显存\s*(?:都|全|就|直接|几乎|基本)?\s*(?:被)?\s*(?:占满|吃满|用满|占光|吃光|用光|打满|拉满|全占|满了)|"
    r"(?:占满|吃满|用满|占光|吃光|用光)\s*(?:了)?\s*(?:我的|我)?\s*(?:整张卡的?|所有的?|全部的?)?\s*显存|"
    r"显存\s*(?:占用|使用|用了|占了)\s*(?:率)?\s*(?:到|达到|高达|有|是|就|了)*\s*(?:[89]\d|100)\s*%|"
    r"(?:占|用|吃)\s*(?:了|掉)?\s*(?:[89]\d|100)\s*%\s*(?:的)?\s*显存|"
    r"(?:占|用|吃)\s*(?:了|掉)\s*\d+(?:\.\d+)?\s*g(?:i?b)?\s*(?:的)?\s*显存"
)
"""A serving engine seen holding the card ("vLLM takes all my GPU memory", "vllm 显存占用 90%", "72GB used by
vllm"): the engine's up-front reservation, which nvidia-smi shows, not a job to size."""
_OUT_OF_MEMORY = rx(r"\boom\b|out\s+of\s+memory|显存不(?:够|足)|爆显存|溢出")


def holds_the_card(engine: str | None, folded: str, *, fraction_stated: bool = False) -> bool:
    """The text says an engine that reserves memory up front (vLLM, SGLang, LMDeploy, TensorRT-LLM) takes (most of)
    the card: a question about that reservation, unless it states a share to size with or reports running out."""
    profile = load_engine_profiles().get(engine or "")
    if profile is None or profile.reservation.kind not in ("fraction_of_total", "fraction_of_free"):
        return False
    return not fraction_stated and not _OUT_OF_MEMORY.search(folded) and _HOLDS_THE_CARD.search(folded) is not None


_WHAT = r"(?:what|wat|wut|wot|whut|what'?s|wats|wuts)"
_ABOUT = r"(?:about|abt|['’]?bout)"
_FILLER = r"(?:(?:ok(?:ay)?|k+|alright|so|hmm*|um+|cool|right|yeah|yes|nice|thx|thanks|great)\b[\s,.!…-]*)*"
"""Words a chat reply starts with before the follow-up itself: "ok n for 20 ppl", "cool, what about int4". They are
no cue on their own: "ok, what GPU for qwen2.5-72b?" is a new question."""
FOLLOW_UP_MARKER = rx(
    r"^\s*" + _FILLER + r"(?:" + _WHAT + r"\s+(?:" + _ABOUT + r"|if)\b|how\s+" + _ABOUT + r"\b|hbu\b|"
    r"and\b|plus\b|(?:nd|n)(?=\s)|&|w/|with\b|on\s+(?:an?\s+)?|using\b|instead\b|also\b|"
    r"same\b|now\b|then\b|but\b|or\b|换成|换|改成|改为|改用|那|那么|如果|要是|用|再|还有|加上|"
    r"同样|如果是|假如)|(?:呢|咋样|instead|then|too|tho|though)\s*[?？!。.]*\s*$"
)
"""A message that reads as "the previous question, but …": "what about 2 of them", "wat abt int8", "how bout",
"n for 20 ppl", "& 32k ctx", "w/ 8k ctx", "int8 tho?", "换成两张呢", "用int4咋样"."""


PLURAL_AFTER = re.compile(r"s\b")
SEVERAL_BEFORE = re.compile(r"(?:\b(?:multiple|several|some|a\s+few|many|more)\s+|多张|多块|多卡|几张|几块)\s*$")


def gpu_plural(folded: str, mention: Mention) -> bool:
    """"H100s", "4090s", "several A100": more than one card of a count the text does not give."""
    written = folded[mention.start: mention.end]
    return (PLURAL_AFTER.match(folded, mention.end) is not None or re.search(r"\ds$", written) is not None
            or SEVERAL_BEFORE.search(folded[max(0, mention.start - 16): mention.start]) is not None)


_OFF_TOPIC = re.compile(
    r"\b(?:haikus?|poems?|poetry|sonnets?|limericks?|jokes?|lyrics|rap\s+song|bedtime\s+story|stocks|"
    r"stock\s+(?:market|to\s+buy|tips?|price|pick)|crypto(?:currency)?|bitcoin|weather|recipes?|horoscope)\b|"
    r"写(?:一)?首诗|作诗|诗歌|笑话|讲个故事|股票|股价|炒股|买股|天气|菜谱|星座",
    re.A | re.I,
)
"""Requests no GPU sizing answers (a poem, a stock tip): declined with the help text, whatever card they name."""


_CLAUSE_BREAK = re.compile(r"[?？，,。；;]|\s(?:and|but|also)\s|另外|还有|並且|并且|而且")
"""Where a why-clause ends and another question may begin."""


def sizing_asked_after(text: str, start: int) -> bool:
    """A sizing question in a clause after a why-question ("why is KV usage so high, and how many concurrent users
    can this card hold at 16k?"): the why alone is the FAQ's; with this the cards named are checked as well."""
    brk = _CLAUSE_BREAK.search(text, start)
    rest = text[brk.end():] if brk is not None else ""
    return bool(rest) and any(p.search(rest) is not None for p in (_COUNT_ASKED, _CHECK, ASKS_CONCURRENCY))


_SLOW = re.compile(r"\b(?:slow|sluggish|laggy|crawl\w*|takes?\s+forever|oom\w*|out\s+of\s+memory|crash\w*)\b"
                   r"|慢|卡顿|卡頓|爆显存|爆顯存", re.I)
"""A job on a named card said to be slow or to fail: asked why, the answer is that job sized on that card."""

SERVICE_NOTE = "service-named"
"""The model is run as a service (bot.understand.slots.cues.SERVICE_NAMED): sized on a serving engine."""

PLURAL_CARDS_NOTE = "plural-cards"
"""The card is named in the plural with no count ("on H100s?"): how many of them is asked, also in a thread's
follow-up, where a card named alone asks whether the job fits it (audit 32 M-100)."""

WHY_SLOW_NOTE = "why-slow"
"""The asker runs the job already and finds it slow: on a desktop card too small for the model, what runs it is a
GGUF with layers in system RAM (bot.reply.defaults)."""


def asks_why_slow(text: str) -> bool:
    """"why is Qwen2.5-32B so slow on my 4070 Ti?", "为什么在我的 4060 上这么慢": a running job found slow."""
    why = re.search(r"\bwhy\b|为什么|为何|為什麼|為何", text, re.A)
    slow = _SLOW.search(text)
    return why is not None and slow is not None and re.search(r"oom|out\s+of\s+memory|crash|爆", slow.group(0),
                                                              re.I) is None


def decide_intent(state: SlotState, folded: str, has_model: bool, gpus: list[str], vocab: Vocab,
            suggestions: list[str], *, capacity: bool = False, models_compared: bool = False,
            plural_gpus: bool = False) -> tuple[Intent, bool, str | None]:
    """(intent, whether a cue word stated it, faq id). Order matters; see the comments.

    Memory stated without a card (`memory_gb`) stands in for a card: "is 24GB enough for X" is a check.
    A card named in the plural with no count ("on H100s", "several A100s") asks how many: a recommendation
    on that card, not a check of one.
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

    if not has_model and "params_b" not in state.values and _OFF_TOPIC.search(text):
        # "a haiku about H100s", "nvidia or amd stock?": a card's name is no sizing question
        return "unknown", True, None

    if len(set(gpus)) >= 2:  # two cards named: a comparison, whether or not it says "vs"
        return "compare", _COMPARE.search(text) is not None, None

    # Why-questions are FAQ even about a named model ("why does llama 70b need several GPUs?"), and so is an engine
    # seen holding the card ("vllm跑7B显存占用90%正常吗"): its reservation answers it, not a sizing.
    why = re.search(r"\bwhy\b|为什么|为何|怎么办", text, re.A)
    if why or holds_the_card(state.values.get("engine"), folded, fraction_stated="memory_fraction" in state.values):
        faq_id, faq_score = faq_match(vocab, folded)
        hint = faq_id if faq_score >= FAQ_MATCH_SCORE else None
        if why and has_model and hardware and (sizing_asked_after(text, why.end()) or _SLOW.search(text)
                                               or hint is None):
            # "why is the KV usage so high, and how many users can this card hold?"; "why is Qwen2.5-32B so slow on
            # my 4070 Ti?" (audit 30 HIGH 64: the help card): the job on that card is the answer
            return "check", True, hint
        return "faq", True, hint

    if capacity:  # "what can a 4090 run?", "16G显存能跑什么模型": the card (or memory) is asked about
        return "gpu_info", True, None
    if models_compared:  # "qwen 14b vs llama 2 13b", "Qwen2.5-7B和Llama-3-8B哪个省显存"
        return "compare", True, None

    if not entity:
        faq_id, faq_score = faq_match(vocab, folded)
        # a short follow-up ("and for training?", "32k context?") is never a FAQ by resemblance alone
        resembles = faq_score >= FAQ_INTENT_SCORE and len(TOKEN.findall(folded)) >= 4
        # a question about a FAQ topic with nothing to size ("what's NVLink?", "怎么监控GPU利用率")
        asked = faq_score >= FAQ_MATCH_SCORE and not state.stated and QUESTION_SHAPE.search(text) is not None
        if strong_faq or resembles or asked:
            return "faq", True, faq_id if faq_score >= FAQ_MATCH_SCORE else None

    # A name that looked like a model but matched none ("stable diffusion 3.5 large on a 3090") is still a job
    # on that card: the reply says it does not know the model, not the card's specs.
    workload = has_model or "params_b" in state.values or "task" in state.values or bool(suggestions)
    if hardware and not has_model and "params_b" not in state.values:
        if _GPU_INFO.search(text) and not recommend and "task" not in state.values:
            return "gpu_info", True, None
        if _GPU_INFO.search(text) and not workload:
            return "gpu_info", True, None
        if not workload and not recommend and not check and {"cloud", "hours"} & set(state.stated):
            return "gpu_info", True, None  # "A100 monthly on Lambda": a card's rental, nothing to size
        others = state.stated[1:] if gpus else [s for s in state.stated if s not in ("memory_gb", "gpu_count")]
        if not workload and not others and not recommend and not check:
            return "gpu_info", False, None  # just a card's name: "H100?" (or a memory size: "24GB?")
    if (has_model and not gpus and "task" not in state.values and not (set(state.stated) - {"model"})
            and (_MODEL_INFO_STRONG.search(text) or (_MODEL_INFO.search(text) and not recommend))):
        return "model_info", True, None

    if hardware and workload:
        if plural_gpus:
            return "recommend", True, None
        # "how much memory …? is one RTX 6000 Ada enough?": asked both about cards counted, the check answers
        # both (its reply has the memory too); a recommendation alone would drop the yes/no. "… how many?"
        # leaves the count open: a recommendation.
        if gpus and _MEMORY_ASKED.search(text) and not _COUNT_ASKED.search(text):
            # "how much VRAM does Llama 3.1 70B need on 2x RTX 4090?": the memory, on those cards, and whether
            # they hold it (a recommendation would give 69 GiB a card on 24 GB cards without a "no")
            return "check", True, None
        if recommend and not (check and "gpu_count" in state.values) and not re.search(
                r"\bneed\b.*\benough\b", text):
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


def imply_task(state: SlotState, intent: Intent) -> None:
    if "task" in state.values or intent not in ("recommend", "check", "compare"):
        return
    profile = load_engine_profiles().get(str(state.values.get("engine") or ""))
    if profile is not None and profile.role == "training" and profile.training is not None:
        # "unsloth llama 3 8b on a 4090": a fine-tuning framework means its own kind of fine-tune
        state.set("task", profile.training.fine_tune_method or "train")
        state.notes.append("task-implied")
    elif any(slot in state.values for slot in ("batch", "context", "engine", "gen_tokens")):
        state.set("task", "inference")
        state.notes.append("task-implied")
