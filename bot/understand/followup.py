"""Follow-up questions in a thread: "what about int4?", "and for training?", "用两张卡呢", "换成4090呢".

A follow-up restates one or two slots and means "the previous question, with these changed". `follow_up`
merges: the previous question's slots, with those the current text stated replaced, and the previous intent
kept unless the current text states one with a cue phrase (`Question.intent_explicit`).

Memory, capacity and model comparisons:
- A card and a memory size replace each other: "what about 48GB?" after "on a 4090" drops the card (and the
  card count, unless restated: a bare memory figure is the memory one has); "on a 4090?" drops the memory.
  After "what GPU for X?" a memory size, like a card, turns the question into a check.
- After a capacity question ("what can a 3090 run?") a new card or memory keeps asking the capacity; naming a
  model ("and qwen-14b?") turns it into a check of that model on the card. A capacity phrase without any
  card ("what can it run?", "那能跑什么模型呢") after a question with a card or memory asks that card's
  capacity, dropping the model.
- After a model comparison a new model is added to it only with an "and"-style cue ("and mistral 7b?",
  "还有 gemma-7b 呢", "…too", "加上…"); without one ("what about mistral 7b?") the new model replaces the
  comparison, which becomes a question about that model alone. A follow-up that itself compares models
  replaces the list. "vs X?" / "和X比呢" after a one-model question starts a comparison of the two.
- A follow-up that turns a served model into a fine-tune, or back ("and LoRA fine-tuning it?"), drops what only
  the other kind of job has: users, server flags and an FP8 serving format; micro-batch, optimizer and data.
"""

from __future__ import annotations

import re

from bot.understand.intent import CAPACITY, FOLLOW_UP_MARKER, PLURAL_CARDS_NOTE
from bot.understand.lang import has_cjk, script_neutral
from bot.understand.question import Lang, Question
from bot.understand.slots.base import first_label
from bot.understand.slots.money import CLOUDS
from bot.understand.tokens import fold
from knowledge.base import KnowledgeBase
from knowledge.engines import load_engine_profiles

_ENGLISH_WORDS = re.compile(
    r"\b(?:what|about|how|and|with|on|for|use|using|instead|if|can|will|is|are|then|same|now|also|but|the|a|an|"
    r"wat|wut|whats|bout|abt|them|em|those|these|ppl|people|folks|peeps|once|tho|though|"
    r"context|users?|cards?|gpus?|training|inference|serving|fine-?tun\w*)\b",
    re.A | re.I,
)

# Slots that travel together: replacing the first replaces (or clears) the others.
_LINKED: dict[str, tuple[str, ...]] = {
    "model": ("model_text", "model_score", "model_suggestions", "params_b"),
    "params_b": ("model", "model_text", "model_score", "model_suggestions"),
    "gpu": ("gpu_text", "gpu_defaulted", "compare_gpus", "memory_gb", "gpu_set", "instance"),
    "gpu_set": ("gpu_text", "gpu_defaulted", "compare_gpus", "memory_gb", "instance"),
    "compare_gpus": ("gpu", "gpu_text", "gpu_defaulted", "memory_gb", "gpu_set", "instance"),
    "memory_gb": ("gpu", "gpu_text", "gpu_defaulted", "compare_gpus", "gpu_count", "gpu_set", "instance"),
    "instance": ("gpu", "gpu_text", "gpu_defaulted", "compare_gpus", "memory_gb", "gpu_count", "gpu_set"),
    "precision": ("quant",),
    "engine": ("engine_version", "engine_backend"),
}

_SERVING_SLOTS = ("batch", "users", "gen_tokens", "output_tokens", "kv_cache", "memory_fraction", "max_num_seqs",
                  "prefill_chunk", "gpu_layers", "cpu_moe_layers", "qps", "tokens_per_s_per_user",
                  "output_tokens_per_s", "prompt_tokens_per_s", "ttft_s", "asks_concurrency", "asks_token_cost",
                  "texts_per_request")
"""What only a served model has: its users and their requests and the server's flags."""
_SERVING_PRECISIONS = ("fp8", "mxfp4")
"""Weight formats a server runs that a fine-tune does not train on (an INT8 or 4-bit base is LoRA's and
QLoRA's own, and stays)."""
_TRAINING_SLOTS = ("batch", "zero_stage", "gradient_checkpointing", "lora_rank", "optimizer", "paged_optimizer",
                   "activation_offloading", "optimizer_in_backward", "chunked_loss", "offload", "train_embeddings",
                   "preference_pairs", "tokens", "training_samples", "training_steps", "training_epochs",
                   "sample_tokens")
"""What only a training job has: its micro-batch, parallelism, optimizer and data."""

_FOLLOW_UP_INTENTS = ("recommend", "check", "compare", "model_info", "gpu_info")
"""Intents a follow-up can refine; after help/faq/unknown a new message stands alone."""

_MAX_FOLLOW_UP_TOKENS = 12

_JOB_SIZE_SLOTS = frozenset({"tokens", "training_samples", "training_epochs", "context", "task", "hours"})
"""What a message sizing a training job's data states ("10 萬筆資料，每筆 1k token，一個 epoch"): the data, each
sample's length and a task it merely implies; after a fine-tune it is that fine-tune's data, not a new question."""

_ADD_CUE = re.compile(
    r"^\s*(?:and|n(?=\s)|&|also|plus|add(?:ing)?|including|还有|加上|再加上?|以及|和|跟|与|另外)|"
    r"(?:\btoo|\bas\s+well|\balso)\s*[?？!。.]*\s*$|也",
    re.A,
)
"""A new model in a follow-up joins the previous comparison only after one of these."""
_VERSUS_START = re.compile(
    r"^\s*(?:vs\.?\b|versus\b|compared?\s+(?:to|with)\b|against\b|对比|比较|相比|比起)|"
    r"^\s*(?:和|跟|与)[^，。,.?？]{1,40}比", re.A)
"""A follow-up that sets its model against the previous one: "vs llama 3 8b?", "和 Qwen2.5-7B 比呢"."""


def _hardware(question: Question) -> bool:
    return bool(question.gpu or question.memory_gb or question.compare_gpus)


def _asks_capacity_of_previous(previous: Question, current: Question) -> bool:
    """"what can it run?" / "那能跑什么模型呢": a capacity phrase, no card of its own, after one with a card."""
    if not _hardware(previous) or _hardware(current) or current.model is not None or current.params_b is not None:
        return False
    folded = fold(current.text)
    words = len(re.findall(r"[a-z0-9.]+|[\u4e00-\u9fff]", folded, re.A))
    return words <= _MAX_FOLLOW_UP_TOKENS * 2 and CAPACITY.search(folded) is not None


_CUES = ("asks_cost", "asks_time", "asks_token_cost", "asks_concurrency", "asks_latency", "asks_spot")
"""What a message asks for about the job rather than of it: a follow-up keeps the earlier ones and adds its own."""


def _asks_money_or_time(current: Question) -> bool:
    return any(getattr(current, cue) for cue in _CUES) and current.model is None and current.params_b is None


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
_COUNT_OF_CARDS = re.compile(r"\bhow\s+many\s+(?:cards?|gpus?)\b|几张|几块", re.A)


def _capacity_of_the_set_up(current: Question) -> bool:
    """"how many users at 32k?": a concurrency question naming no model and no hardware, so the thread's set-up's."""
    return (current.asks_concurrency and current.model is None and current.params_b is None
            and not _hardware(current))


def _about_the_set_up(current: Question) -> bool:
    """A message that asks only about the figures of the set-up just sized (`_ABOUT_THE_SET_UP`)."""
    return (not current.stated and current.model is None and current.params_b is None
            and _ABOUT_THE_SET_UP.search(fold(current.text)) is not None)


_WHY = re.compile(r"\bwhy\b|\bwhat\s+(?:is|are)\b|\bwhat's\b|\bexplain\b|为什么|为何|是什么|什么是", re.A)
"""A question about a topic (why, what is), which a slot word in it does not make a follow-up."""
_FULL_TRAINING = re.compile(r"\bfull\b|from\s+scratch|pre-?train|全参|全量|预训练|从头", re.A)
"""Words that make "train" a full fine-tune or pre-training; without them "训练" after a LoRA is that LoRA."""


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


def _chooses_among_thread_cards(previous: Question, current: Question) -> bool:
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
            and current.gpu_count == len(_thread_cards(previous))
            and _THE_CARDS.search(fold(current.text)) is not None)


def _chooses_among_thread_clouds(previous: Question, current: Question) -> bool:
    """"哪个更便宜" after the same set-up was priced on AWS and then on Alibaba Cloud: the clouds compared, each
    pricing the job (audit 29 HIGH 50: the thread was dropped for a generic size chart)."""
    return (previous.cloud is not None and len(_asked_clouds(previous)) >= 2
            and _a_choice(previous, current, set(current.stated), not _hardware(current)))


def _named_a_cloud(previous: Question) -> bool:
    """Whether the thread's last message named a cloud ("阿里云呢", "and on AWS?"): it moved between clouds last."""
    return first_label(CLOUDS, fold(previous.text)) is not None


def _asked_clouds(previous: Question) -> list[str]:
    """The clouds the thread has priced on, in the order asked, the previous message's last."""
    asked = [c for c in previous.asked_clouds if c != previous.cloud]
    return [*asked, previous.cloud] if previous.cloud else asked


_CHOOSING_SLOTS = frozenset({"budget", "currency", "cloud", "hours"})
"""What a choice among the thread's cards may state ("which one is cheaper on AWS?"); "which quantisation is
better?" states a precision and is another question."""


_AGAINST_THAT = re.compile(
    r"\b(?:that|this|it|those|these)\s+(?:one\s+|setup\s+|set-up\s+)?(?:or|vs\.?|versus)\b|"
    r"\b(?:or|vs\.?|versus|than|against|with)\s+(?:that|this|it)\b|"
    r"(?:那个|那個|这个|這個|前者|上面的|上面那个|上面那個)\s*(?:和|跟|与|與|还是|還是|或|比)", re.A)
"""A new card set against the thread's set-up: "which is cheaper overall, that or one L40S?", "那个和 4 张 L40S
哪个便宜"."""


def _against_previous_setup(previous: Question, current: Question) -> bool:
    """A card named with "that or …": the previous set-up compared with it, not replaced by it."""
    return (previous.gpu is not None and current.gpu is not None and current.gpu != previous.gpu
            and previous.intent in ("check", "recommend") and current.model is None and current.params_b is None
            and _AGAINST_THAT.search(fold(current.text)) is not None)


def is_follow_up(previous: Question | None, current: Question) -> bool:
    """Whether `current` refines `previous` rather than asking something new."""
    if previous is None or previous.intent not in _FOLLOW_UP_INTENTS:
        return False
    if (_asks_capacity_of_previous(previous, current) or _chooses_among_thread_cards(previous, current)
            or _chooses_among_thread_clouds(previous, current) or _against_previous_setup(previous, current)):
        return True
    folded = fold(current.text)
    words = len(re.findall(r"[a-z0-9.]+|[\u4e00-\u9fff]", folded, re.A))
    if not current.stated and _asks_money_or_time(current) and words <= _MAX_FOLLOW_UP_TOKENS:
        return True  # "how much would that cost?", "要多久": the same job, its bill or its time
    if (current.asks_max_context and set(current.stated) <= {"task"} and current.model is None
            and current.params_b is None and words <= _MAX_FOLLOW_UP_TOKENS):
        return True  # "what's the longest context I can fit then?" (audit 30 HIGH 62: the generic chart)
    if _about_the_set_up(current) and words <= _MAX_FOLLOW_UP_TOKENS:
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
    if (current.model is not None and previous.model is not None and _VERSUS_START.search(folded)
            and words <= _MAX_FOLLOW_UP_TOKENS * 2):
        return True
    if (current.intent == "compare" and len(current.compare_gpus) >= 2 and current.model is None
            and current.params_b is None and previous.model is not None and words <= _MAX_FOLLOW_UP_TOKENS * 2):
        return True  # "L20 和 A100 哪个更便宜" in a sized thread: those cards for its job (audit 30 HIGH 61, THJ)
    if (current.intent == "gpu_info" and current.model is None and current.params_b is None
            and previous.model is not None and _SPEED_OF_A_CARD.search(folded) and words <= _MAX_FOLLOW_UP_TOKENS):
        return True  # "how fast on an H100?" after a sizing: the job's speed there, not the card's specs (HIGH 75)
    if (_capacity_of_the_set_up(current) and previous.intent in ("check", "recommend")
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


SIBLING_SIZE_SHARE = 0.12
"""A size said in a follow-up ("what about 70B?") names the previous model's family member within this share of
it (Llama 3.1 8B → Llama 3.1 70B's 70.6B), rather than a generic model of that size."""


def family_sibling(kb: KnowledgeBase, model_id: str | None, params_b: float | None) -> str | None:
    """The model of `model_id`'s family and kind closest to `params_b` billion parameters, if one is that size."""
    base = kb.models.get(model_id or "")
    if base is None or not params_b:
        return None
    near = [m for m in kb.models.values() if m.family == base.family and m.arch == base.arch
            and m.modality == base.modality and abs(m.params_b - params_b) <= SIBLING_SIZE_SHARE * params_b]
    return min(near, key=lambda m: (abs(m.params_b - params_b), m.id)).id if near else None


GPUS_PER_MACHINE = 8
"""Cards a training or serving machine holds (an HGX board, the 8-GPU cloud instances): a follow-up's machines are
this many of the thread's cards each, or the thread's own count when it was fewer."""


def follow_up(previous: Question | None, current: Question, kb: KnowledgeBase | None = None) -> Question:
    """`previous` with the slots `current` stated replaced, when `current` is a follow-up; else `current`. With
    the knowledge base, a bare size ("what about 70B?") becomes the previous model's family member of that size."""
    if previous is None or not is_follow_up(previous, current):
        if (previous is not None and previous.lang == "zh-Hant" and current.lang == "zh-Hans"
                and script_neutral(current.text)):
            # a new question in a Traditional thread written alike in both scripts keeps the thread's script (audit
            # 31 LOW-159: its help card came in Simplified)
            return current.model_copy(update={"lang": "zh-Hant"})
        return current
    sibling = family_sibling(kb, previous.model, current.params_b) if (
        kb is not None and current.model is None and "params_b" in current.stated) else None
    if sibling is not None:
        current = current.model_copy(update={
            "model": sibling, "params_b": None,
            "stated": ["model" if s == "params_b" else s for s in current.stated]})
    if _asks_capacity_of_previous(previous, current):
        return _capacity_of_previous(previous, current)
    update: dict[str, object] = {}
    stated = list(previous.stated)
    if current.machines and previous.gpu_count and "gpu_count" not in current.stated:
        # "what if we use 2 nodes?" after one node of 8: the thread's cards a machine, times the machines
        per_machine = min(previous.gpu_count, GPUS_PER_MACHINE)
        current = current.model_copy(update={"gpu_count": current.machines * per_machine,
                                             "stated": [*current.stated, "gpu_count"]})
    for slot in current.stated:
        if slot == "task" and "task-implied" in current.notes and previous.task is not None:
            continue  # "32k context?" after "…for training" keeps the training
        if (slot == "task" and current.task == "train" and previous.task in ("lora", "qlora")
                and _FULL_TRAINING.search(fold(current.text)) is None):
            continue  # "训练2亿token要多久" after a LoRA question: that LoRA's training, not a full fine-tune
        update[slot] = getattr(current, slot)
        for linked in _LINKED.get(slot, ()):
            if linked not in current.stated:
                update[linked] = getattr(current, linked)
        if slot not in stated:
            stated.append(slot)
    for slot, linked_slots in _LINKED.items():
        if slot in current.stated:
            stated = [s for s in stated if s in current.stated or s not in linked_slots]
    if previous.audio_hours and "hours" in current.stated and "audio_hours" not in current.stated:
        # "and for 5,000 hours?" after a transcription job: more audio, not hours of rent
        update.update(audio_hours=current.hours, hours=previous.hours)
        stated = [s for s in stated if s != "hours" or "hours" in previous.stated]
    reset = _other_kind_of_job(previous, current)
    update.update(reset)
    stated = [s for s in stated if s not in reset]
    update["stated"] = stated
    update.update({cue: getattr(previous, cue) or getattr(current, cue) for cue in _CUES})
    update["asks_running_cost"] = current.asks_running_cost  # "which is cheaper to run 24/7?": this message's
    update["asks_max_context"] = current.asks_max_context  # "the longest context then?": this message's question
    update["text"] = current.text
    update["clamped"] = sorted(set(previous.clamped) - set(current.stated) | set(current.clamped))
    update["notes"] = [n for n in dict.fromkeys([*previous.notes, *current.notes])
                       if n != "task-implied" or "task" not in update]
    # "换成 L40S 呢？每月多少钱" after a sizing: the card's price asked is that job's on it, not the card's specs
    price_of_the_job = (current.intent == "gpu_info" and not current.asks_capacity
                        and previous.intent in ("recommend", "check") and bool(previous.model or previous.params_b)
                        and not ({"model", "params_b"} & set(current.stated)))
    # "够吗", "显存要多少" after a check are that check; "那要几张" asks for the count, a recommendation
    same_set_up = ((_about_the_set_up(current) or _capacity_of_the_set_up(current))
                   and previous.intent in ("check", "recommend")
                   and _COUNT_OF_CARDS.search(fold(current.text)) is None)
    if same_set_up:
        intent = previous.intent
    elif current.intent_explicit and current.intent in _FOLLOW_UP_INTENTS and not price_of_the_job:
        intent = current.intent
    elif (previous.intent == "recommend" and "gpu" in current.stated and "gpu_count" not in current.stated
          and ((previous.gpu is not None and previous.gpu_count is None) or PLURAL_CARDS_NOTE in current.notes)):
        # "… on H100s?" … "and on L40S instead?": how many of those, as the thread asked; "and at 64 users on
        # H100s?" after a recommendation: how many H100s
        intent = "recommend"
    elif previous.intent == "recommend" and ("gpu" in current.stated or "memory_gb" in current.stated):
        intent = "check"  # "what GPU for X?" … "on an L40S?" / "with 24GB?" asks whether that will do
    else:
        intent = previous.intent
    names_workload = "model" in current.stated or "params_b" in current.stated
    if previous.asks_capacity and names_workload:
        # "what can a 3090 run?" … "and qwen-14b?": that model on the card
        update["asks_capacity"] = False
        intent = "check" if intent == "gpu_info" else intent
    folded = fold(current.text)
    if len(current.compare_models) >= 2:
        update["compare_models"] = list(current.compare_models)
        intent = "compare"
    elif previous.compare_models and "model" in current.stated and current.model is not None:
        if _ADD_CUE.search(folded):
            # "and mistral 7b?" after "qwen 14b vs llama 2 13b": one more model in the comparison
            update["compare_models"] = list(dict.fromkeys([*previous.compare_models, current.model]))
            for slot in ("model", *_LINKED["model"]):
                update[slot] = getattr(previous, slot)
            stated = [s for s in stated if s != "params_b"]
            if "model" not in stated:
                stated.insert(0, "model")
            update["stated"] = stated
            intent = "compare"
        else:
            update["compare_models"] = []  # "what about mistral 7b?": that model instead of the comparison
    elif (current.model is not None and previous.model is not None and current.model != previous.model
          and _VERSUS_START.search(folded)):
        # "vs llama 3 8b?" after a question about qwen-14b: compare the two
        update["compare_models"] = [previous.model, current.model]
        for slot in ("model", *_LINKED["model"]):
            update[slot] = getattr(previous, slot)
        intent = "compare"
    elif "params_b" in current.stated and previous.compare_models:
        update["compare_models"] = []  # "what about a 70B model?": a size instead of the comparison
    if intent == "compare" and "gpu" in current.stated and previous.compare_gpus and current.gpu:
        # "and an L40S?" after "A10 vs A100": add the card to the comparison
        update["compare_gpus"] = [*previous.compare_gpus, current.gpu] if current.gpu not in \
            previous.compare_gpus else list(previous.compare_gpus)
        update["gpu"] = None
        update["stated"] = [s for s in stated if s != "gpu"] + (
            ["compare_gpus"] if "compare_gpus" not in stated else [])
    if intent == "compare" and not update.get("compare_gpus", previous.compare_gpus) and len(
            update.get("compare_models", previous.compare_models)) < 2:  # type: ignore[arg-type]
        intent = "check" if update.get("gpu", previous.gpu) or update.get("memory_gb", previous.memory_gb) \
            else "recommend"  # "A10 vs A100" … "what about 48GB?", "what about mistral 7b?": nothing to compare
    update["thread_gpus"] = _thread_gpus(previous, current)
    update["thread_clouds"] = _thread_clouds(previous)
    update["asked_clouds"] = _asked_clouds(previous)
    among_clouds = _chooses_among_thread_clouds(previous, current)
    among_cards = _chooses_among_thread_cards(previous, current) and not (
        among_clouds and _named_a_cloud(previous) and not _cards_apart(previous))
    if among_clouds and not among_cards:
        # the same job priced on each cloud the thread named, the latest first; when the thread moved between
        # clouds last ("在 AWS 上…" / "阿里云呢" / "哪个更便宜"), the clouds are the choice, not the cards before them
        # (audit 30 HIGH 70: the remembered recommendation had turned it into a card comparison on one cloud)
        clouds = _asked_clouds(previous)
        update.update(cloud=clouds[-1], other_clouds=[c for c in reversed(clouds[:-1])], asks_cost=True,
                      chooses_thread_clouds=True)
    if among_cards:
        intent = "compare"
        update.update(_compare_cards(_thread_cards(previous), previous, stated))
        update["compare_as_sized"] = True
    elif _against_previous_setup(previous, current):
        intent = "compare"
        assert previous.gpu is not None and current.gpu is not None
        update.update(_compare_cards({previous.gpu: _stated_count(previous), current.gpu: _stated_count(current)},
                                     previous, stated))
    update["intent"] = intent
    update["intent_explicit"] = current.intent_explicit or previous.intent_explicit
    update["faq_hint"] = previous.faq_hint
    # reply in the language of the latest message, unless it is only slot words ("int4?", "32k")
    update["lang"] = thread_lang(previous, current)
    return previous.model_copy(update=update)


def _stated_count(question: Question) -> int | None:
    """The card count a message stated (None: the fewest that hold the job)."""
    return question.gpu_count if "gpu_count" in question.stated else None


def _thread_gpus(previous: Question, current: Question) -> dict[str, int | None]:
    """The cards the thread has been sized on, the previous one added when this message names another."""
    named_another = "gpu" in current.stated and current.gpu not in (None, previous.gpu)
    cards = _thread_cards(previous) if named_another else dict(previous.thread_gpus)
    if current.gpu is not None:
        cards.pop(current.gpu, None)
    return cards


def _thread_clouds(previous: Question) -> dict[str, str]:
    """The cloud each card of the thread was last asked on, the previous message's card included."""
    clouds = dict(previous.thread_clouds)
    if previous.gpu is not None and previous.cloud is not None:
        clouds[previous.gpu] = previous.cloud
    return clouds


def _thread_cards(previous: Question) -> dict[str, int | None]:
    """The thread's cards, the latest last, each at the count it was asked with; a message that named none stands
    for the set-up its reply recommended (audit 30 HIGH 61: "用什么卡 … 换成 H20 呢 … 哪个更便宜" had one card to
    choose among and fell to the generic chart)."""
    cards: dict[str, int | None] = dict(previous.thread_gpus)
    if previous.gpu is None and previous.answered_pick is not None:
        cards.setdefault(previous.answered_pick[0], previous.answered_pick[1])
    if previous.gpu is not None:
        cards.pop(previous.gpu, None)
        cards[previous.gpu] = _stated_count(previous)
    return cards


def _compare_cards(cards: dict[str, int | None], previous: Question, stated: list[str]) -> dict[str, object]:
    """The slots of a comparison of `cards` (id → the count asked, None: the fewest that hold the job)."""
    gpus = list(cards)[-_MAX_THREAD_CARDS:]
    linked = ("gpu", "gpu_count", *_LINKED["gpu"])
    # "cheaper" chooses among the set-ups as sized; it is not a wish for the cheapest way to serve the model
    # (8-bit weights, audit 24 HIGH 17), which would change the job between the turns being compared
    clouds = _thread_clouds(previous)
    # cards asked on different clouds are each priced where they were asked (audit 28 M-42, J02)
    apart = _apart(gpus, clouds)
    return {"compare_gpus": gpus, "compare_counts": {g: n for g, n in cards.items() if g in gpus and n},
            "compare_clouds": apart,
            "gpu": None, "gpu_count": None, "gpu_text": None, "gpu_defaulted": False, "instance": None,
            "budget": previous.budget,
            "stated": [s for s in stated if s not in linked and (s != "budget" or "budget" in previous.stated)]
            + ["compare_gpus"]}


def _apart(gpus: list[str], clouds: dict[str, str]) -> dict[str, str]:
    """Each card's cloud when every card was asked on a cloud and they differ, else nothing."""
    if len({clouds.get(g) for g in gpus}) > 1 and all(g in clouds for g in gpus):
        return {g: clouds[g] for g in gpus}
    return {}


def _cards_apart(previous: Question) -> bool:
    """Whether the thread's cards were each asked on a cloud of their own ("阿里云上一张 A10…" / "换成 AWS 的 L4
    呢"): a choice among them is one of cards, each priced where asked (M-42), even though the last named a cloud."""
    gpus = list(_thread_cards(previous))[-_MAX_THREAD_CARDS:]
    return bool(_apart(gpus, _thread_clouds(previous)))


_MAX_THREAD_CARDS = 4
"""A thread that tried more cards compares its latest four, as a message naming them would be read."""


def thread_lang(previous: Question, current: Question) -> Lang:
    """The language to reply to a follow-up in: the latest message's, unless it is only slot words ("int4?",
    "32k"), or Chinese that reads alike in both scripts after a Traditional thread ("那 128k 上下文呢")."""
    if not (has_cjk(current.text) or _ENGLISH_WORDS.search(current.text)):
        return previous.lang
    if current.lang.startswith("zh") and previous.lang.startswith("zh") and script_neutral(current.text):
        return previous.lang
    return current.lang


def _other_kind_of_job(previous: Question, current: Question) -> dict[str, object]:
    """Slots of `previous` that do not carry over when the follow-up turns a served model into a training job or
    back ("and LoRA fine-tuning it?" after "serve it with vLLM for 32 users"): 32 users are no micro-batch of
    32 sequences, and vLLM trains nothing. Each goes back to its default unless the follow-up restates it; so
    does an engine that cannot run the new kind of job."""
    if "task" not in current.stated or previous.task is None or current.task is None:
        return {}
    was_training, is_training = previous.task != "inference", current.task != "inference"
    if was_training == is_training:
        return {}
    dropped = [slot for slot in (_TRAINING_SLOTS if was_training else _SERVING_SLOTS) if slot not in current.stated]
    if not was_training and previous.precision in _SERVING_PRECISIONS and "precision" not in current.stated:
        dropped += ["precision", "quant"]
    profile = load_engine_profiles().get(previous.engine or "")
    if "engine" not in current.stated and profile is not None and profile.role != "both":
        dropped += ["engine", "engine_version", "engine_backend"]
    return {slot: _default(slot) for slot in dropped}


def _default(slot: str) -> object:
    field = Question.model_fields[slot]
    return field.default_factory() if field.default_factory is not None else field.default  # type: ignore[call-arg]


def _capacity_of_previous(previous: Question, current: Question) -> Question:
    """`previous`'s card (or memory) with the capacity asked: the model and size go, a stated task stays."""
    cleared: dict[str, object] = {"model": None, "model_text": None, "model_score": None, "model_suggestions": [],
                                  "params_b": None, "compare_models": []}
    stated = [s for s in previous.stated if s not in cleared]
    update: dict[str, object] = dict(cleared)
    for slot in current.stated:
        if slot == "task" and "task-implied" in current.notes:
            continue
        update[slot] = getattr(current, slot)
        if slot not in stated:
            stated.append(slot)
    update.update(intent="gpu_info", asks_capacity=True, intent_explicit=True, stated=stated, text=current.text,
                  notes=[n for n in previous.notes if n != "task-implied"], faq_hint=None)
    update["lang"] = thread_lang(previous, current)
    return previous.model_copy(update=update)
