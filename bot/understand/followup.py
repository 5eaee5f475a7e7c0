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

Whether a message is a follow-up at all is decided in bot.understand.followup_detect (`is_follow_up`, importable
from here too); the cards and clouds a thread has been sized on are kept in bot.understand.thread_cards.
"""

from __future__ import annotations

import re

from bot.understand.followup_detect import (
    CUES,
    FOLLOW_UP_INTENTS,
    VERSUS_START,
    about_the_set_up,
    against_previous_setup,
    asks_capacity_of_previous,
    capacity_of_the_set_up,
    chooses_among_thread_cards,
    chooses_among_thread_clouds,
    is_follow_up,
)
from bot.understand.intent import PLURAL_CARDS_NOTE
from bot.understand.lang import has_cjk, script_neutral
from bot.understand.question import Lang, Question
from bot.understand.thread_cards import (
    MAX_THREAD_CARDS,
    asked_clouds,
    cards_apart,
    clouds_apart,
    named_a_cloud,
    stated_count,
    thread_cards,
    thread_clouds,
    thread_gpus,
)
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


_ADD_CUE = re.compile(
    r"^\s*(?:and|n(?=\s)|&|also|plus|add(?:ing)?|including|还有|加上|再加上?|以及|和|跟|与|另外)|"
    r"(?:\btoo|\bas\s+well|\balso)\s*[?？!。.]*\s*$|也",
    re.A,
)
"""A new model in a follow-up joins the previous comparison only after one of these."""

_COUNT_OF_CARDS = re.compile(r"\bhow\s+many\s+(?:cards?|gpus?)\b|几张|几块", re.A)


_FULL_TRAINING = re.compile(r"\bfull\b|from\s+scratch|pre-?train|全参|全量|预训练|从头", re.A)
"""Words that make "train" a full fine-tune or pre-training; without them "训练" after a LoRA is that LoRA."""


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
    if asks_capacity_of_previous(previous, current):
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
    update.update({cue: getattr(previous, cue) or getattr(current, cue) for cue in CUES})
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
    same_set_up = ((about_the_set_up(current) or capacity_of_the_set_up(current))
                   and previous.intent in ("check", "recommend")
                   and _COUNT_OF_CARDS.search(fold(current.text)) is None)
    if same_set_up:
        intent = previous.intent
    elif current.intent_explicit and current.intent in FOLLOW_UP_INTENTS and not price_of_the_job:
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
          and VERSUS_START.search(folded)):
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
    update["thread_gpus"] = thread_gpus(previous, current)
    update["thread_clouds"] = thread_clouds(previous)
    update["asked_clouds"] = asked_clouds(previous)
    among_clouds = chooses_among_thread_clouds(previous, current)
    among_cards = chooses_among_thread_cards(previous, current) and not (
        among_clouds and named_a_cloud(previous) and not cards_apart(previous))
    if among_clouds and not among_cards:
        # the same job priced on each cloud the thread named, the latest first; when the thread moved between
        # clouds last ("在 AWS 上…" / "阿里云呢" / "哪个更便宜"), the clouds are the choice, not the cards before them
        # (audit 30 HIGH 70: the remembered recommendation had turned it into a card comparison on one cloud)
        clouds = asked_clouds(previous)
        update.update(cloud=clouds[-1], other_clouds=[c for c in reversed(clouds[:-1])], asks_cost=True,
                      chooses_thread_clouds=True)
    if among_cards:
        intent = "compare"
        update.update(_compare_cards(thread_cards(previous), previous, stated))
        update["compare_as_sized"] = True
    elif against_previous_setup(previous, current):
        intent = "compare"
        assert previous.gpu is not None and current.gpu is not None
        update.update(_compare_cards({previous.gpu: stated_count(previous), current.gpu: stated_count(current)},
                                     previous, stated))
    update["intent"] = intent
    update["intent_explicit"] = current.intent_explicit or previous.intent_explicit
    update["faq_hint"] = previous.faq_hint
    # reply in the language of the latest message, unless it is only slot words ("int4?", "32k")
    update["lang"] = thread_lang(previous, current)
    return previous.model_copy(update=update)


def _compare_cards(cards: dict[str, int | None], previous: Question, stated: list[str]) -> dict[str, object]:
    """The slots of a comparison of `cards` (id → the count asked, None: the fewest that hold the job)."""
    gpus = list(cards)[-MAX_THREAD_CARDS:]
    linked = ("gpu", "gpu_count", *_LINKED["gpu"])
    # "cheaper" chooses among the set-ups as sized; it is not a wish for the cheapest way to serve the model
    # (8-bit weights, audit 24 HIGH 17), which would change the job between the turns being compared
    clouds = thread_clouds(previous)
    # cards asked on different clouds are each priced where they were asked (audit 28 M-42, J02)
    apart = clouds_apart(gpus, clouds)
    return {"compare_gpus": gpus, "compare_counts": {g: n for g, n in cards.items() if g in gpus and n},
            "compare_clouds": apart,
            "gpu": None, "gpu_count": None, "gpu_text": None, "gpu_defaulted": False, "instance": None,
            "budget": previous.budget,
            "stated": [s for s in stated if s not in linked and (s != "budget" or "budget" in previous.stated)]
            + ["compare_gpus"]}


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
