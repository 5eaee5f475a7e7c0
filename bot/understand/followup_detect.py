"""Whether a thread's new message refines the thread's question or asks a new one.

"What about int4?", "够吗", "how fast then?", "which one is cheaper?" mean "the previous question, with this changed
or asked of it"; "tell me about the H100" after a sizing is a new question. This module only reads the two
messages and says which, with the cue phrases and slot sets that decide it, so the decision can be read and tested
on its own. Rewriting the thread's question once it is a follow-up is bot.understand.followup's job.
"""

from __future__ import annotations

import re

from bot.understand.intent import CAPACITY, FOLLOW_UP_MARKER
from bot.understand.question import Question
from bot.understand.thread_cards import asked_clouds, thread_cards
from bot.understand.tokens import fold

FOLLOW_UP_INTENTS = ("recommend", "check", "compare", "model_info", "gpu_info")
"""Intents a follow-up can refine; after help/faq/unknown a new message stands alone."""

_MAX_FOLLOW_UP_TOKENS = 12

_JOB_SIZE_SLOTS = frozenset({"tokens", "training_samples", "training_epochs", "context", "task", "hours"})
"""What a message sizing a training job's data states ("10 萬筆資料，每筆 1k token，一個 epoch"): the data, each
sample's length and a task it merely implies; after a fine-tune it is that fine-tune's data, not a new question."""


VERSUS_START = re.compile(
    r"^\s*(?:vs\.?\b|versus\b|compared?\s+(?:to|with)\b|against\b|对比|比较|相比|比起)|"
    r"^\s*(?:和|跟|与)[^，。,.?？]{1,40}比", re.A)
"""A follow-up that sets its model against the previous one: "vs llama 3 8b?", "和 Qwen2.5-7B 比呢"."""


def _hardware(question: Question) -> bool:
    return bool(question.gpu or question.memory_gb or question.compare_gpus)


def asks_capacity_of_previous(previous: Question, current: Question) -> bool:
    """"what can it run?" / "那能跑什么模型呢": a capacity phrase, no card of its own, after one with a card."""
    if not _hardware(previous) or _hardware(current) or current.model is not None or current.params_b is not None:
        return False
    folded = fold(current.text)
    words = len(re.findall(r"[a-z0-9.]+|[\u4e00-\u9fff]", folded, re.A))
    return words <= _MAX_FOLLOW_UP_TOKENS * 2 and CAPACITY.search(folded) is not None


CUES = ("asks_cost", "asks_time", "asks_token_cost", "asks_concurrency", "asks_latency", "asks_spot")
"""What a message asks for about the job rather than of it: a follow-up keeps the earlier ones and adds its own."""


def _asks_money_or_time(current: Question) -> bool:
    return any(getattr(current, cue) for cue in CUES) and current.model is None and current.params_b is None


_ABOUT_THE_SET_UP = re.compile(
    r"\bhow\s+fast\b|\bhow\s+quick(?:ly)?\b|\bwhat\s+speed\b|\bspeed\b|\btok(?:ens)?\s*/\s*s(?:ec)?\b|"
    r"\btokens?\s+(?:per|a)\s+second\b|\bthroughput\b|多快|速度|每秒多少|吞吐|"
    r"\bhow\s+much\s+(?:memory|vram|gpu\s+memory)\b|\bmemory\s+(?:needed|use|usage)\b|"
    r"显存要?多少|要?多少显存|显存占用|"
    r"\b(?:is|would)\s+(?:that|it|this)\s+(?:be\s+)?enough\b|\benough\s*\?|够吗|够不够|够用吗|"
    r"\bhow\s+many\s+(?:cards?|gpus?)\b|要?几张|几张卡|几块|"
    r"^\s*(?:why|why\s+so|为什么|为啥|為什麼)\s*[?？!.。]*\s*$", re.A)
"""A question about the figures of the set-up just sized, with nothing else in it: its speed ("how fast then?",
"速度呢"), its memory ("how much memory then?", "显存要多少"), whether it is enough ("够吗"), its card count ("那要
几张"), or why ("why?"). The reply to the set-up answers each (audit 31 HIGH 75: the help card or a FAQ)."""
_SPEED_OF_A_CARD = re.compile(r"\bhow\s+fast\b|\bhow\s+quick(?:ly)?\b|\bspeed\b|\btok(?:ens)?\s*/\s*s\b|多快|速度",
                              re.A)
"""A card's speed asked after a job was sized ("how fast on an H100?", "H100 上多快"): the job's speed on it."""


def capacity_of_the_set_up(current: Question) -> bool:
    """"how many users at 32k?": a concurrency question naming no model and no hardware, so the thread's set-up's."""
    return (current.asks_concurrency and current.model is None and current.params_b is None
            and not _hardware(current))


def about_the_set_up(current: Question) -> bool:
    """A message that asks only about the figures of the set-up just sized (`_ABOUT_THE_SET_UP`)."""
    return (not current.stated and current.model is None and current.params_b is None
            and _ABOUT_THE_SET_UP.search(fold(current.text)) is not None)


_WHY = re.compile(r"\bwhy\b|\bwhat\s+(?:is|are)\b|\bwhat's\b|\bexplain\b|为什么|为何|是什么|什么是", re.A)
"""A question about a topic (why, what is), which a slot word in it does not make a follow-up."""


def _restates_a_slot(current: Question, words: int) -> bool:
    """A short message that states a slot of a job but names no model ("how long for 200M tokens and what does
    it cost", "what about full fine-tune on 8 of them with ZeRO-3") refines the thread's job, even when it reads
    like a FAQ; a why- or what-is question does not."""
    return (bool(current.stated) and current.model is None and current.params_b is None
            and words <= _MAX_FOLLOW_UP_TOKENS and _WHY.search(fold(current.text)) is None)


_WHICH_OF_THEM = re.compile(
    r"\bwhich\s+(?:one|card|gpu|option|of\s+(?:them|these|those|the\s+(?:two|three|cards|gpus|options)))\b|"
    r"^\s*which\s+(?:is|would|will|should|do|does|gets?|costs?|comes?|works?)\b|"
    r"哪(?:个|個|张|張|一个|一個|一张|一張)", re.A)
"""A question that chooses among what the thread has discussed: "which one is cheaper in total?", "哪个更快"."""


def chooses_among_thread_cards(previous: Question, current: Question) -> bool:
    """"which one is cheaper in total?" after the same job was sized on an L4 and then an H100: a comparison of
    the thread's cards, not a new recommendation with no card ("兩張卡哪個比較划算": the two cards discussed)."""
    the_cards = _names_the_thread_cards(previous, current)
    stated = set(current.stated) - ({"gpu_count"} if the_cards else set())
    return (bool(previous.thread_gpus) and previous.gpu is not None
            and _a_choice(previous, current, stated, not _hardware(current) or the_cards))


def _a_choice(previous: Question, current: Question, stated: set[str], no_new_hardware: bool) -> bool:
    """A message that chooses among what a sized thread discussed: a choosing word ("which", "哪个"), no model or
    new hardware of its own, nothing stated beyond the money and hours a choice may name."""
    return (previous.intent in ("check", "recommend") and no_new_hardware and current.model is None
            and current.params_b is None and stated <= _CHOOSING_SLOTS
            and _WHICH_OF_THEM.search(fold(current.text)) is not None)


_THE_CARDS = re.compile(
    r"(?:这|這|那)?(?:两|兩|三)\s*(?:张|張|块|塊|个|個|款|种|種)?\s*(?:卡|显卡|顯卡|gpu)|"
    r"(?:the|these|those)\s+(?:two|three)\s+(?:cards?|gpus?|options?)|both\s+(?:cards?|gpus?)", re.A)
"""The cards a thread has discussed, counted ("兩張卡哪個比較划算", "which of the two cards"): not a card count."""


def _names_the_thread_cards(previous: Question, current: Question) -> bool:
    return (current.gpu is None and current.memory_gb is None and current.gpu_count is not None
            and current.gpu_count == len(thread_cards(previous))
            and _THE_CARDS.search(fold(current.text)) is not None)


def chooses_among_thread_clouds(previous: Question, current: Question) -> bool:
    """"哪个更便宜" after the same set-up was priced on AWS and then on Alibaba Cloud: the clouds compared, each
    pricing the job (audit 29 HIGH 50: the thread was dropped for a generic size chart)."""
    return (previous.cloud is not None and len(asked_clouds(previous)) >= 2
            and _a_choice(previous, current, set(current.stated), not _hardware(current)))


_CHOOSING_SLOTS = frozenset({"budget", "currency", "cloud", "hours"})
"""What a choice among the thread's cards may state ("which one is cheaper on AWS?"); "which quantisation is
better?" states a precision and is another question."""


_AGAINST_THAT = re.compile(
    r"\b(?:that|this|it|those|these)\s+(?:one\s+|setup\s+|set-up\s+)?(?:or|vs\.?|versus)\b|"
    r"\b(?:or|vs\.?|versus|than|against|with)\s+(?:that|this|it)\b|"
    r"(?:那个|那個|这个|這個|前者|上面的|上面那个|上面那個)\s*(?:和|跟|与|與|还是|還是|或|比)", re.A)
"""A new card set against the thread's set-up: "which is cheaper overall, that or one L40S?", "那个和 4 张 L40S
哪个便宜"."""


def against_previous_setup(previous: Question, current: Question) -> bool:
    """A card named with "that or …": the previous set-up compared with it, not replaced by it."""
    return (previous.gpu is not None and current.gpu is not None and current.gpu != previous.gpu
            and previous.intent in ("check", "recommend") and current.model is None and current.params_b is None
            and _AGAINST_THAT.search(fold(current.text)) is not None)


def is_follow_up(previous: Question | None, current: Question) -> bool:
    """Whether `current` refines `previous` rather than asking something new."""
    if previous is None or previous.intent not in FOLLOW_UP_INTENTS:
        return False
    if (asks_capacity_of_previous(previous, current) or chooses_among_thread_cards(previous, current)
            or chooses_among_thread_clouds(previous, current) or against_previous_setup(previous, current)):
        return True
    folded = fold(current.text)
    words = len(re.findall(r"[a-z0-9.]+|[\u4e00-\u9fff]", folded, re.A))
    if not current.stated and _asks_money_or_time(current) and words <= _MAX_FOLLOW_UP_TOKENS:
        return True  # "how much would that cost?", "要多久": the same job, its bill or its time
    if (current.asks_max_context and set(current.stated) <= {"task"} and current.model is None
            and current.params_b is None and words <= _MAX_FOLLOW_UP_TOKENS):
        return True  # "what's the longest context I can fit then?" (audit 30 HIGH 62: the generic chart)
    if about_the_set_up(current) and words <= _MAX_FOLLOW_UP_TOKENS:
        return True  # "how fast then?", "显存要多少", "够吗": the thread's set-up (audit 31 HIGH 75: help card)
    if current.intent in ("help", "unknown") and not current.stated:
        return False
    if current.intent == "faq" and current.intent_explicit:
        return _restates_a_slot(current, words)
    if not current.stated:
        return False
    if not _hardware(previous) and not _hardware(current) and CAPACITY.search(folded):
        return False  # "what models can I run?" after a model question: there is no card to size
    if FOLLOW_UP_MARKER.search(folded) and words <= _MAX_FOLLOW_UP_TOKENS * 2:
        return True
    if (current.model is not None and previous.model is not None and VERSUS_START.search(folded)
            and words <= _MAX_FOLLOW_UP_TOKENS * 2):
        return True
    if (current.intent == "compare" and len(current.compare_gpus) >= 2 and current.model is None
            and current.params_b is None and previous.model is not None and words <= _MAX_FOLLOW_UP_TOKENS * 2):
        return True  # "L20 和 A100 哪个更便宜" in a sized thread: those cards for its job (audit 30 HIGH 61, THJ)
    if (current.intent == "gpu_info" and current.model is None and current.params_b is None
            and previous.model is not None and _SPEED_OF_A_CARD.search(folded) and words <= _MAX_FOLLOW_UP_TOKENS):
        return True  # "how fast on an H100?" after a sizing: the job's speed there, not the card's specs (HIGH 75)
    if (capacity_of_the_set_up(current) and previous.intent in ("check", "recommend")
            and bool(previous.model or previous.params_b) and words <= _MAX_FOLLOW_UP_TOKENS * 2):
        return True  # "how many users at 32k?": that set-up's capacity (audit 33 HIGH 91: the generic chart)
    if (current.model is None and current.params_b is None and not _hardware(current)
            and set(current.stated) <= _JOB_SIZE_SLOTS and previous.task not in (None, "inference")
            and bool(previous.model or previous.params_b) and words <= _MAX_FOLLOW_UP_TOKENS * 2):
        return True  # "要多久？10 萬筆資料，每筆 1k token，一個 epoch": the thread's fine-tune over that data (HIGH 90)
    if current.intent_explicit and current.intent != previous.intent:
        return False  # "tell me about the H100" after a sizing question is a new question
    names_workload = current.model is not None or current.params_b is not None
    # a short message that names no model and only restates slots: "32k context?", "int4", "8卡"
    return not names_workload and words <= _MAX_FOLLOW_UP_TOKENS and current.intent in ("recommend", "check",
                                                                                        "gpu_info")
