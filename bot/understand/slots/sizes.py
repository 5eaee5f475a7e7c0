"""Numbers that size hardware and models: GPU memory without a card, GPU counts, parameter counts."""

from __future__ import annotations

import re

from bot.understand.mentions import Mention
from bot.understand.numbers import number, scaled_number
from bot.understand.question import MAX_GPU_COUNT, MAX_PARAMS_B
from bot.understand.slots.base import EN_COUNT_WORDS, SlotState, bounded, read_number, rx

# -- GPU counts -------------------------------------------------------------------------------------
_COUNT_NUMBER = (r"\d{1,3}(?:,\d{3})+(?![\d.])|\d+(?:\.\d+)?\s?(?:k|万|亿)(?![a-z0-9])|"
                 r"\d+(?:\.\d+)?e\d{1,3}(?![a-z0-9])|\d{1,12}|"
                 r"[一二两三四五六七八九十百千万]*[万千百][一二两三四五六七八九]?")
"""A card count as written for a cluster: 10,000, 16k, 1.5万, 10 亿, 1e9, 一万, 两千 (the plain digits and small
Chinese numerals follow in each pattern); an absurd one is read, then capped and said so."""
COUNT_UNITS = {"k": 1e3, "万": 1e4, "亿": 1e8}


def count_number(match: re.Match[str], group: str = "num") -> float | None:
    """The count a pattern matched, with its thousands ("16k", "1.5万"); see `read_number`."""
    raw = match.group(group)
    if raw is None:
        return None
    value = scaled_number(raw.replace(" ", ""), COUNT_UNITS)
    if value is None:
        return read_number(match, group)
    return -abs(value) if match.groupdict().get("neg") else value


COUNT_BEFORE = rx(
    r"(?:^|(?<=[^a-z0-9.]))(?P<neg>-\s?)?(?P<num>" + _COUNT_NUMBER + r"|[一二两三四五六七八九十单双]{1,3}|"
    + EN_COUNT_WORDS + r")"
    r"\s*(?:x|×|\*|张|块|个|台|卡|张卡|块卡|片|pcs)?\s*(?:nvidia|英伟达|geforce|tesla)?\s*$"
)
_COUNT_AFTER = rx(
    r"^\s*(?:\d{1,3}\s*(?:gb|gib|g)(?![a-z])\s*(?:的|版|版本)?\s*)?"  # "4090 24G 两张": the card's memory first
    r"(?:gpus?|cards?|显卡|卡)?\s*(?:[x×*]\s*(?P<num>" + _COUNT_NUMBER + r")(?![a-z0-9])"
    r"|(?P<num2>" + _COUNT_NUMBER + r"|[一二两三四五六七八九十]{1,3})\s*(?:张|块|个|台|卡|片))"
)
_COUNT_GENERIC = rx(
    r"(?:^|(?<=[^a-z0-9.]))(?P<neg>-\s?)?(?P<num>" + _COUNT_NUMBER + r"|[一二两三四五六七八九十]{1,3}|"
    + EN_COUNT_WORDS + r")"
    r"\s*(?:x\s*)?(?:gpus?|cards?|graphics\ cards|accelerators|张卡|块卡|张显卡|块显卡|个gpu|张gpu|块gpu|卡|显卡)"
    r"(?![a-z])"
)
_GENERATION_BEFORE = rx(r"(?<![a-z])(?:gaudi|tpu\s?v|ascend|昇腾|昇騰)\s?$")
"""A number that is an accelerator's generation ("Intel Gaudi 2 cards", "TPU v5 chips"), not how many (audit 35
HIGH 108: "Gaudi 2" doubled the cards and the price)."""
_LENGTH_BEFORE = rx(r"(?:上下文|context|ctx|长度|length|len|窗口|max[-_ ]?model[-_ ]?len)"
                    r"\s*(?:[:：=]|开到|设为|为|是|of)?\s*$")
"""A number right after a context word is a length, whatever follows it: "上下文8k gpu_memory_utilization要设多少"
(Slack, no punctuation) is 8k of context, not 8,000 GPUs (audit 25 HIGH 26)."""
# -- GPU memory without a card ----------------------------------------------------------------------
MAX_MEMORY_GB = 100_000.0
"""Bound on a stated memory size (`Question.memory_gb`)."""
_MEMORY = rx(
    r"(?:(?<![a-z0-9.-])(?P<count>\d{1,3}|[一二两三四五六七八九十]{1,2})\s*(?:x|×|\*|张|块|片)\s*(?:的\s*)?|"
    r"(?<![a-z0-9.-]))"
    r"(?P<num>\d{1,6}(?:\.\d+)?)\s*(?:个\s*)?(?:gib|gb|g)(?![a-z0-9])"
    r"(?:\s*[x×*]\s*(?P<count_after>\d{1,3})(?![a-z0-9]))?"
)
_MEMORY_NOT_AFTER = rx(
    r"\s*(?:的\s*)?(?:(?:of\s+)?(?:system\s+|cpu\s+|host\s+|ddr\d?\s+)?(?:ram\b|内存(?!卡))|(?:of\s+)?(?:lp)?ddr\d?x?\b|"
    r"(?:of\s+)?(?:system|cpu|host|disk|ssd|hdd|nvme|storage|data|datasets?|text|corpus|files?|weights?|"
    r"checkpoints?|downloads?|logs?|network|bandwidth|ethernet)(?![a-z])|"
    r"/\s*s|ps(?![a-z])|per\s+s|硬盘|磁盘|存储|固态|数据|语料|权重|文件|模型文件|带宽|每秒|网速|流量|网络)"
    r"|\s*(?:is\s+|are\s+|being\s+)?(?:used|in\s+use|occupied|allocated|reserved|taken|consumed)(?![a-z])"
    r"|\s*(?:已用|已占用|被占用|占用|已使用)"
)
"""What follows a size that is not a card's memory: system RAM, storage, data, a rate, or memory seen in use
("72GB used by vllm", "占用 20G")."""
_MEMORY_NOT_BEFORE = rx(
    r"(?:\bram|(?<!显卡)(?<!gpu)(?<!gpu\ )内存|system\s+memory|cpu\s+memory|host\s+memory|\bdisk|storage|"
    r"\bssd|\bhdd|硬盘|磁盘|存储|dataset|\bdata|数据集?|语料|\bweights?|checkpoints?|权重|\bfiles?|文件|"
    r"download\w*|下载|\bneeds?|\bneeded|requires?|required|\btakes?|\btook|consumes?|occup\w*|\buses?|"
    r"\bused|需要|占用?|消耗|吃掉?|用了|bandwidth|带宽)"
    r"\s*(?:is|are|was|of|about|around|roughly|approximately|at\s+least|only|just|~|约|大约|大概|至少|只有|有|是|为|"
    r"了|:|=)?\s*(?:about|around|~|约|大约|大概)?\s*$"
)
_UNIFIED_AFTER = rx(r"\s*(?:的\s*)?(?:(?:of\s+)?(?:unified\s+)?(?:ram|memory)\b|(?:统一)?内存(?!卡))")
_UNIFIED_BEFORE = rx(r"(?:\bram|(?:统一)?内存|\bunified\s+memory)\s*(?:is|of|:|=|是|为|有)?\s*$")
"""On a Mac the memory called RAM or 内存 is the unified memory the GPU shares: the size it states is the Mac's."""
_CARD_WORD_AFTER = rx(r"\s*(?:的\s*)?(?:vram\s+|显存\s*(?:的\s*)?)?(?:gpus?|cards?|graphics\ cards?|显卡|卡)(?![a-z])")


_THEM = r"(?:them|those|these|['’‘`]?em|dem)(?![a-z])"
"""The cards already named, as typed: "them", "those", "'em", "em" (Slack shorthand)."""
_COUNT_BARE = rx(
    r"(?:^|(?<=[^a-z0-9.]))(?P<num>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen)\s*"
    r"(?:of\s+" + _THEM + r"|[x×](?=\s*(?:instead|then|tho|though)?\s*[?？!.。]*\s*$))|"
    r"(?<![a-z0-9])[x×]\s?(?P<num2>\d{1,4})(?=\s*(?:instead|then|tho|though)?\s*[?？!.。]*\s*$)|"
    r"(?P<num3>\d{1,4}|[一二两三四五六七八九十]{1,3})\s*(?:张|块|台)(?!\s*(?:图|图片|照片|纸))|"
    r"(?<![a-z0-9])(?P<num4>(?:a\ )?(?:couple|pair)\ of)\s+" + _THEM
)
"""A count with no card in the text: a thread's follow-up about the cards already named ("what about two of
them?", "2 of 'em", "a couple of those", "2x?", "用两张呢")."""
COUNT_ONE = rx(r"单卡|单张|单块|单个?gpu|单个显卡|single[ -]gpu|one\ gpu|1\ gpu")
COUNT_TWO = rx(r"双卡|双gpu|dual[ -]gpu")

# -- parameter counts -------------------------------------------------------------------------------
_PARAMS_EN = rx(
    r"(?<![a-z0-9.])(?P<num>\d+(?:,\d{3})*(?!\d)(?:\.\d+)?(?:\s*(?:\^|\*\*)\s*\d+|e\+?\d+)?)\s?"
    r"(?P<unit>b|bn|billion|m|mn|million|t|tn|trillion|quadrillion|quintillion)(?![a-z0-9])"
    r"(?P<params>\s*(?:-\s*)?(?:parameters?|params?|参数|model|模型|llm))?"
)
_PARAMS_RAW = rx(
    r"(?<![a-z0-9.])(?P<num>\d+(?:,\d{3})*(?!\d)(?:\.\d+)?(?:\s*(?:\^|\*\*)\s*\d+|e\+?\d+)?)\s*(?:个)?\s*"
    r"(?:parameters?|params?|参数)"
)
_PARAMS_ZH = rx(r"(?P<num>\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)?\s{0,3}(?P<unit>万亿|亿)")
"""Bounded space before the unit: an unbounded one made every start of a long masked (blank) stretch scan it
to its end."""


_MACHINES_BEFORE = rx(
    r"(?:^|(?<=[^a-z0-9.]))(?P<num>\d{1,4}|[一二两三四五六七八九十]{1,3}|" + EN_COUNT_WORDS + r")\s*"
    r"(?:台(?:机器|服务器|主机)?(?:\s*[x×*])?|个?节点(?:\s*[x×*])?"
    r"|(?:nodes?|machines?|servers?|hosts?|boxes|pods?)\s*(?:of|with|each\s+with|x|×)?"
    r"|[x×*])\s*(?:each\s+with\s+|,\s*each\s+(?:with\s+)?|每台|每个节点)?\s*$"
)
"""Machines written before the cards each holds: "两台8卡H20", "2 nodes of 8x H20", "2x8 H100" (16 cards)."""
_MACHINES_AFTER = rx(r"^\s*(?:gpus?\s+)?(?:nodes?|machines?|servers?|hosts?|boxes|pods?|服务器|机器|节点)(?![a-z])")
"""A machine word after the card: "two 8xH100 servers" (the number before the per-machine count is the machines)."""
_GRID_BEFORE = rx(r"(?:^|(?<=[^a-z0-9.]))(?P<num>\d{1,4})\s*[x×*]\s*(?P<per>\d{1,3})\s*(?:[x×*]\s*)?$")
"""Machines by cards, written as one product before the card: "2x8 H100", "4×8×A100"."""
_BARE_BEFORE = rx(r"(?:^|(?<=[^a-z0-9.]))(?P<num>\d{1,4}|" + EN_COUNT_WORDS + r")\s+$")


def _machines(text: str, count_start: int, card_end: int, next_start: int) -> tuple[int, int]:
    """(machines, where their number starts) for a per-machine card count starting at `count_start`; (1, the
    count's start) when the text names no machines."""
    before = text[max(0, count_start - 24): count_start]
    m = _MACHINES_BEFORE.search(before)
    if m is None and _MACHINES_AFTER.search(text[card_end: min(next_start, card_end + 16)]):
        m = _BARE_BEFORE.search(before)
    value = read_number(m) if m is not None else None
    if m is None or value is None or not 1 <= value <= MAX_GPU_COUNT:
        return 1, count_start
    return int(value), count_start - len(before) + m.start()


def _count_value(state: SlotState, match: re.Match[str], group: str = "num") -> int | None:
    value = count_number(match, group)
    if value is None:
        return None
    return int(bounded(state, "gpu_count", value, MAX_GPU_COUNT))


HOW_MANY_CARDS = rx(
    r"\bhow\s+many\b(?!\s+(?:parameters|params|layers|heads|experts|tokens?|hours|days|weeks|users|requests|"
    r"samples|epochs|steps|images|sequences)\b)|几张|几块|几台|多少张|多少块|多少台|多少卡"
)
"""The count is what is asked: "is an H20 good for DeepSeek-V3? how many?" names the card, not one of it."""


_SUBSET_BEFORE = rx(r"(?<![\w.])(?P<num>\d{1,3})\s+(?:of|out\s+of)\s+(?:the|our|my|its|his|her|their)?\s*"
                    r"(?P<all>\d{1,3})\s*(?:x\s*)?$")
"""A part of the cards named ("4 of the 8 H200s", "2 out of our 4 A100s"): the cards the job runs on."""


def _before_card(text: str, mention: Mention, mentions: list[Mention]) -> tuple[int, re.Match[str] | None]:
    """(where the text a count may take before a card starts, the count written there): up to 24 characters,
    not reaching back past the previous mention."""
    previous_end = max((m.end for m in mentions if m.end <= mention.start), default=0)
    start = max(previous_end, mention.start - 24)
    return start, COUNT_BEFORE.search(text[start: mention.start])


def counts_before(text: str, gpus: list[Mention], mentions: list[Mention]) -> dict[str, int]:
    """The count written just before each card named ("4x L40S vs 2x H100" → {l40s: 4, h100: 2}): a
    comparison of set-ups, each at its own count (read from the unmasked text)."""
    counts: dict[str, int] = {}
    for mention in gpus:
        _, m = _before_card(text, mention, mentions)
        value = count_number(m) if m is not None and not m.group("neg") else None
        if value is not None and 1 <= value <= MAX_GPU_COUNT and mention.entry_id not in counts:
            counts[mention.entry_id] = int(value)
    return counts


def _take_count(state: SlotState, value: float, begin: int, end: int) -> None:
    """Set the card count (bounded) from the text between `begin` and `end`, which no later slot reads again."""
    state.set("gpu_count", int(bounded(state, "gpu_count", value, MAX_GPU_COUNT)))
    state.mask(begin, end)


_TABLE_ROW = re.compile(r"\s*\|")
"""A line of a pasted table (nvidia-smi's device rows begin "|   0  NVIDIA …")."""


_SMI_DEVICE_ROW = re.compile(r"^\s*\|\s+(?P<index>\d{1,3})\s+(?:nvidia|tesla|geforce|quadro)\b", re.I | re.M)
"""A device row of a pasted nvidia-smi table ("|   3  NVIDIA H100 80GB HBM3   On |"): one card, by its index."""


def smi_card_count(text: str, gpus: list[Mention]) -> int | None:
    """The cards a pasted nvidia-smi table lists (its device rows' distinct indices), when every card mentioned
    in those rows is the same one: the machine the question is about (audit 26 HIGH 34: a table of 4 H100s
    beside "would TP=2 x 2 replicas be better?" was sized as 2 cards)."""
    rows = list(_SMI_DEVICE_ROW.finditer(text))
    if not rows:
        return None
    ends = [text.find("\n", row.end()) for row in rows]
    named = {m.entry_id for m in gpus for row, end in zip(rows, ends, strict=True)
             if row.start() <= m.start < (end if end != -1 else len(text))}
    return len({row.group("index") for row in rows}) if len(named) == 1 else None


_LLAMA_DEVICE_BUFFER = re.compile(
    r"\b(?:cuda|rocm|vulkan|sycl)(?P<index>\d{1,2})\s+(?:model|kv|compute)\s+buffer\s+size", re.I)
"""A llama.cpp load log's buffer line on one device ("CUDA0 model buffer size = 17130.56 MiB")."""


def logged_device_count(text: str, gpus: list[Mention]) -> int | None:
    """The cards a pasted llama.cpp load log put buffers on, when a card is named: the machine the log ran on
    (audit 29 HIGH 56: a log of one 3090 with 13 layers on the CPU was answered for two 3090s and never said what
    would fit the one it has)."""
    indices = {m.group("index") for m in _LLAMA_DEVICE_BUFFER.finditer(text)}
    return len(indices) if indices and gpus and indices == {str(i) for i in range(len(indices))} else None


_SMI_MEMORY = re.compile(r"(?P<used>\d{1,7})\s*mib\s*/\s*(?P<total>\d{1,7})\s*mib", re.I)
SMI_BUSY_MIB = 1024
"""Memory a card of a pasted table already uses beyond which it is taken by another job (an idle card shows a few
MiB, its driver's)."""


def smi_busy_cards(text: str) -> dict[int, int]:
    """The cards of a pasted nvidia-smi table that another job already uses, by index, with the MiB in use (the
    memory column of the line after each device row): sized as free, they would not hold what the reply says
    (audit 29 HIGH 51: two of four L40S held 38 GB of another process)."""
    busy: dict[int, int] = {}
    for row in _SMI_DEVICE_ROW.finditer(text):
        window = text[row.end(): row.end() + 400]
        memory = _SMI_MEMORY.search(window)
        if memory is not None and int(memory.group("used")) > SMI_BUSY_MIB:
            busy[int(row.group("index"))] = int(memory.group("used"))
    return busy


_ALL_CARDS = rx(r"\b(?:using|use|on|with|across|onto|to)\s+all\s+(?P<n>\d{1,2})\s+(?:of\s+(?:the|its|our|my)\s+)?"
                r"(?:[a-z0-9-]+\s+)?(?:gpus?|cards?)\b"
                r"|(?:全部|所有|全都?用上?)\s*(?P<n2>\d{1,2})\s*(?:张|块)|(?P<n3>\d{1,2})\s*(?:张|块)(?:卡)?\s*全(?:部)?(?:都)?用")
"""All the cards of the box, weighed beside the part a job runs on ("would using all 4 GPUs be the better fix?")."""


_WHAT_ABOUT_COUNT = rx(r"(?P<n>[两兩二三四八]|\d{1,2})\s*(?:张|張|块|塊)\s*(?:卡)?\s*(?:的话|的話)?\s*呢"
                      r"|\b(?:what|how)\s+about\s+(?:with\s+)?(?P<n2>two|three|four|eight|\d{1,2})"
                      r"(?:\s+(?:of\s+them|cards?|gpus?))?\s*\?"
                      r"|\b(?:and|or)\s+(?:on\s+|with\s+)?(?P<n3>two|three|four|eight|\d{1,2})\s+(?:of\s+them|cards?|gpus?)\s*\?")
"""A second count asked after the first question in the same message ("…用 4090 跑 int4 能跑吗？两张呢？", "…on a 4090?
what about two?"): weighed beside the card asked about, where it had gone unanswered (audit 38 M-147)."""
OTHER_COUNT_ASKED_NOTE = "other-count-asked"
"""Question note: `other_gpu_count` is a count asked about beside the first, not all the cards of a box."""


def parse_other_count(state: SlotState) -> None:
    """`other_gpu_count`: all the cards of the box, weighed beside the part asked about (audit 28 M-49), or a
    second count asked after the question ("两张呢？"); masked."""
    m = _ALL_CARDS.search(state.text)
    count = state.values.get("gpu_count")
    asked = _WHAT_ABOUT_COUNT.search(state.text) if m is None else None
    if asked is not None and not re.search(r"[?？吗嗎]", state.text[: asked.start()]):
        asked = None  # "what about two?" alone is a follow-up changing the thread's count, not a second count
    if asked is not None:
        other = number(asked.group("n") or asked.group("n2") or asked.group("n3"))
        if other is not None and (count or 1) < other <= MAX_GPU_COUNT:
            if count is None:
                state.values["gpu_count"] = 1  # the first question's one card, said as asked in the read-back
            state.set("other_gpu_count", int(other))
            state.notes.append(OTHER_COUNT_ASKED_NOTE)
            state.mask(asked.start(), asked.end())
        return
    if m is None or not isinstance(count, int):
        return
    other = int(m.group("n") or m.group("n2") or m.group("n3"))
    if count < other <= MAX_GPU_COUNT:
        state.set("other_gpu_count", other)
        state.mask(m.start(), m.end())


_BARE_COUNT_FOLLOW_UP = rx(r"\s*(?:(?:what|how)\s+about\s+(?:with\s+|on\s+)?(?P<n>two|three|four|six|eight|\d{1,2})"
                           r"|and\s+(?:with|on)\s+(?P<n2>two|three|four|six|eight|\d{1,2}))\s*[?？.!]*\s*")
"""A count alone as a follow-up ("what about two?", "and with 4?"): the thread's card, that many."""


def parse_gpu_counts(state: SlotState, gpus: list[Mention], mentions: list[Mention]) -> None:
    """The cards as the text counts them, else as a pasted nvidia-smi table lists them (an excerpt of its rows
    beside "8 卡" is not the machine)."""
    _written_gpu_count(state, gpus, mentions)
    bare = _BARE_COUNT_FOLLOW_UP.fullmatch(state.text) if not gpus and "gpu_count" not in state.values else None
    if bare is not None:
        # "what about two?" after a question on a card: that many of it (audit 40 HIGH-127: the help page)
        count = number(bare.group("n") or bare.group("n2"))
        if count is not None and 1 < count <= MAX_GPU_COUNT:
            state.set("gpu_count", int(count))
    if "gpu_count" not in state.values:
        listed = smi_card_count(state.folded, gpus)  # as written: a pasted table's lines are masked as log lines
        if listed is not None:
            state.set("gpu_count", listed)
            busy = smi_busy_cards(state.folded)
            if busy:
                state.values["smi_busy"] = busy
        logged = logged_device_count(state.folded, gpus) if listed is None else None
        if logged is not None:
            state.set("gpu_count", logged)


def _written_gpu_count(state: SlotState, gpus: list[Mention], mentions: list[Mention]) -> None:
    text = state.text
    asks_count = HOW_MANY_CARDS.search(text) is not None
    for mention in gpus:
        if _TABLE_ROW.match(text, text.rfind("\n", 0, mention.start) + 1):
            continue  # a pasted nvidia-smi row ("|   0  NVIDIA A100…"): its number is the card's index, not a count
        start, m = _before_card(text, mention, mentions)
        if m is not None and asks_count and m.group("num") in ("a", "an"):
            return
        subset = _SUBSET_BEFORE.search(text[max(0, mention.start - 40): mention.start])
        if subset is not None:
            # "on 4 of the 8 H200s in our box": the cards the job runs on, not the box (audit 27 HIGH 41)
            state.set("gpu_count", int(subset.group("num")))
            state.mask(mention.start - (len(text[max(0, mention.start - 40): mention.start]) - subset.start()),
                       mention.start)
            return
        next_start = min((x.start for x in mentions if x.start >= mention.end), default=len(text))
        grid = _GRID_BEFORE.search(text[start: mention.start]) if m is None else None
        if grid is not None:
            _take_count(state, int(grid.group("num")) * int(grid.group("per")), start + grid.start(), mention.start)
            return
        if m is not None:
            machines, first = _machines(text, start + m.start(), mention.end, next_start)
            per_machine = count_number(m)
            if machines > 1 and per_machine is not None and not m.group("neg"):
                _take_count(state, machines * per_machine, first, mention.start)
                return
            value = _count_value(state, m)
            if value is not None:
                state.set("gpu_count", value)
                state.mask(start + m.start(), mention.start)
                return
        after = text[mention.end: min(next_start, mention.end + 16)]
        m = _COUNT_AFTER.search(after)
        if m is not None:
            value = _count_value(state, m, "num" if m.group("num") is not None else "num2")
            if value is not None:
                state.set("gpu_count", value)
                state.mask(mention.end, mention.end + m.end())
                return
    m = next((g for g in _COUNT_GENERIC.finditer(text)
              if not _LENGTH_BEFORE.search(text[max(0, g.start() - 12): g.start()])
              and not _GENERATION_BEFORE.search(text[max(0, g.start() - 12): g.start()])), None)
    if m is not None:
        value = _count_value(state, m)
        if value is not None:
            state.set("gpu_count", value)
            state.mask(m.start(), m.end())
            return
    if not gpus:
        m = _COUNT_BARE.search(text)
        if m is not None:
            group = next(g for g in ("num", "num2", "num3", "num4") if m.group(g) is not None)
            value = _count_value(state, m, group)
            if value is not None:
                state.set("gpu_count", value)
                state.mask(m.start(), m.end())
                return
    if COUNT_ONE.search(text):
        state.set("gpu_count", 1)
    elif COUNT_TWO.search(text):
        state.set("gpu_count", 2)


_NEGATIVE_MEMORY = rx(r"(?<![a-z0-9.])-\s?(?P<num>\d{1,6}(?:\.\d+)?)\s*(?:gib|gb|g)(?![a-z0-9])")


def parse_memory(state: SlotState) -> None:
    """"24GB", "48 GB of VRAM", "16G显存", "2x 24GB", "两张24G的卡": memory without a card (see the module notes)."""
    text = state.text
    mac = bool(state.values.get("unified_memory"))
    negative = _NEGATIVE_MEMORY.search(text)
    if negative is not None:
        # "-5 GB of VRAM": no card has it; said as a bound rather than dropped silently (audit 31 LOW-150)
        state.clamped.append("memory_gb")
        state.clamped_asked.setdefault("memory_gb", -float(negative.group("num")))
        state.mask(negative.start(), negative.end())
    for m in _MEMORY.finditer(text):
        if mac and (_UNIFIED_AFTER.match(text, m.end()) or _UNIFIED_BEFORE.search(text[max(0, m.start() - 12):
                                                                                       m.start()])):
            pass  # a Mac's RAM is its unified memory: "mac mini m4 16g 内存", "with 16 GB of RAM" (audit 25 HIGH 23)
        elif _MEMORY_NOT_AFTER.match(text, m.end()) or _MEMORY_NOT_BEFORE.search(text[max(0, m.start() - 20):
                                                                                      m.start()]):
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
            before = COUNT_BEFORE.search(text[max(0, start - 16): start]) if card else None
            if card is not None and before is not None:
                raw_count = before.group("num")
                start = max(0, m.start() - 16) + before.start("num")
        if raw_count is not None:
            count = number(raw_count)
            if count is not None:
                state.set("gpu_count", int(bounded(state, "gpu_count", count, MAX_GPU_COUNT)))
        state.mask(start, end)
        return


_ACTIVE = rx(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*b(?:illion)?\s*(?:params?\s+|parameters?\s+)?"
             r"(?:active|activated)(?:\s+(?:params?|parameters?))?(?![a-z])"
             r"|\b(?:active|activated)\s+(?:params?|parameters?)\s*(?:of|is|are|=|:)?\s*(?P<num2>\d+(?:\.\d+)?)\s*b\b"
             r"|(?:激活|啟用|激活参数|激活參數)\s*(?:参数|參數)?\s*(?:为|是|約|约)?\s*(?P<num3>\d+(?:\.\d+)?)\s*b"
             r"|(?P<num4>\d+(?:\.\d+)?)\s*b\s*(?:的)?\s*(?:激活|啟用)")
"""The parameters a mixture-of-experts model runs per token, stated beside its size ("a 314B MoE with 86B active",
"激活参数 22B"): read before the size, so the size parser does not take them for the model's size (audit 34
HIGH 101: a 314B MoE was timed as dense, 3.6× too slow)."""


def parse_active_params(state: SlotState) -> None:
    m = _ACTIVE.search(state.text)
    if m is None:
        return
    value = number(m.group("num") or m.group("num2") or m.group("num3") or m.group("num4") or "")
    if value is None or value <= 0:
        return
    state.set("active_params_b", value)
    state.mask(m.start(), m.end())


def parse_params(state: SlotState) -> None:
    parse_active_params(state)
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
        scale = {"b": 1.0, "bn": 1.0, "billion": 1.0, "m": 1e-3, "mn": 1e-3, "million": 1e-3,
                 "quadrillion": 1e6, "quintillion": 1e9}.get(unit, 1000.0)
        _set_params(state, size * scale)
        state.values["params_span"] = (en.start(), en.end())  # popped by the parser: where a name may precede it
        state.mask(en.start(), en.end())
        return
    raw = _PARAMS_RAW.search(text)
    if raw is not None:
        count = number(raw.group("num"))
        if count is not None and count > 0:
            _set_params(state, count / 1e9 if count >= 1e5 else count)
            state.mask(raw.start(), raw.end())


def _set_params(state: SlotState, value: float) -> None:
    if value <= 0:
        return
    if value > MAX_PARAMS_B:
        state.clamped.append("params_b")
        value = MAX_PARAMS_B
    state.set("params_b", round(value, 6))

