"""Follow-up questions in a thread: "what about int4?", "and for training?", "用两张卡呢", "换成4090呢".

A follow-up restates one or two slots and means "the previous question, with these changed". `follow_up`
merges: the previous question's slots, with those the current text stated replaced, and the previous intent
kept unless the current text states one with a cue phrase (`Question.intent_explicit`).
"""

from __future__ import annotations

import re

from bot.lang import has_cjk
from bot.parse import _FOLLOW_UP_MARKER, _fold
from bot.question import Question

_ENGLISH_WORDS = re.compile(
    r"\b(?:what|about|how|and|with|on|for|use|using|instead|if|can|will|is|are|then|same|now|also|but|the|a|an|"
    r"context|users?|cards?|gpus?|training|inference|serving|fine-?tun\w*)\b",
    re.A | re.I,
)

# Slots that travel together: replacing the first replaces (or clears) the others.
_LINKED: dict[str, tuple[str, ...]] = {
    "model": ("model_text", "model_score", "model_suggestions", "params_b"),
    "params_b": ("model", "model_text", "model_score", "model_suggestions"),
    "gpu": ("gpu_text", "gpu_defaulted", "compare_gpus"),
    "compare_gpus": ("gpu", "gpu_text", "gpu_defaulted"),
    "precision": ("quant",),
}

_FOLLOW_UP_INTENTS = ("recommend", "check", "compare", "model_info", "gpu_info")
"""Intents a follow-up can refine; after help/faq/unknown a new message stands alone."""

_MAX_FOLLOW_UP_TOKENS = 12


def is_follow_up(previous: Question | None, current: Question) -> bool:
    """Whether `current` refines `previous` rather than asking something new."""
    if previous is None or previous.intent not in _FOLLOW_UP_INTENTS:
        return False
    if current.intent in ("help", "unknown") and not current.stated:
        return False
    if current.intent == "faq" and current.intent_explicit:
        return False
    if not current.stated:
        return False
    folded = _fold(current.text)
    words = len(re.findall(r"[a-z0-9.]+|[\u4e00-\u9fff]", folded, re.A))
    if _FOLLOW_UP_MARKER.search(folded) and words <= _MAX_FOLLOW_UP_TOKENS * 2:
        return True
    if current.intent_explicit and current.intent != previous.intent:
        return False  # "tell me about the H100" after a sizing question is a new question
    names_workload = current.model is not None or current.params_b is not None
    # a short message that names no model and only restates slots: "32k context?", "int4", "8卡"
    return not names_workload and words <= _MAX_FOLLOW_UP_TOKENS and current.intent in ("recommend", "check",
                                                                                        "gpu_info")


def follow_up(previous: Question | None, current: Question) -> Question:
    """`previous` with the slots `current` stated replaced, when `current` is a follow-up; else `current`."""
    if previous is None or not is_follow_up(previous, current):
        return current
    update: dict[str, object] = {}
    stated = list(previous.stated)
    for slot in current.stated:
        if slot == "task" and "task-implied" in current.notes and previous.task is not None:
            continue  # "32k context?" after "…for training" keeps the training
        update[slot] = getattr(current, slot)
        for linked in _LINKED.get(slot, ()):
            if linked not in current.stated:
                update[linked] = getattr(current, linked)
        if slot not in stated:
            stated.append(slot)
    for slot, linked_slots in _LINKED.items():
        if slot in current.stated:
            stated = [s for s in stated if s in current.stated or s not in linked_slots]
    update["stated"] = stated
    update["text"] = current.text
    update["clamped"] = sorted(set(previous.clamped) - set(current.stated) | set(current.clamped))
    update["notes"] = [n for n in dict.fromkeys([*previous.notes, *current.notes])
                       if n != "task-implied" or "task" not in update]
    if current.intent_explicit and current.intent in _FOLLOW_UP_INTENTS:
        intent = current.intent
    elif previous.intent == "recommend" and "gpu" in current.stated:
        intent = "check"  # "what GPU for X?" … "on an L40S?" asks whether that card will do
    else:
        intent = previous.intent
    if intent == "compare" and "gpu" in current.stated and previous.compare_gpus and current.gpu:
        # "and an L40S?" after "A10 vs A100": add the card to the comparison
        update["compare_gpus"] = [*previous.compare_gpus, current.gpu] if current.gpu not in \
            previous.compare_gpus else list(previous.compare_gpus)
        update["gpu"] = None
        update["stated"] = [s for s in stated if s != "gpu"] + (
            ["compare_gpus"] if "compare_gpus" not in stated else [])
    update["intent"] = intent
    update["intent_explicit"] = current.intent_explicit or previous.intent_explicit
    update["faq_hint"] = previous.faq_hint
    # reply in the language of the latest message, unless it is only slot words ("int4?", "32k")
    if has_cjk(current.text) or _ENGLISH_WORDS.search(current.text):
        update["lang"] = current.lang
    return previous.model_copy(update=update)
