"""The models a message names: the first one sized, every one in order for a comparison, and a speculative
decoding pair read as its target and draft.

Split from `bot.understand.parse._parse`: exact mentions first (the first named, unless a later mention spells
it out in full), then a fuzzy look where none was exact, a second fuzzy look when a comparison is asked in so
many words, and the larger of two models read as the target when the smaller is its draft.
"""

from __future__ import annotations

import re

from bot.understand.fuzzy import ModelFind, fuzzy_model
from bot.understand.intent import MODEL_COMPARE_STRONG
from bot.understand.mention_fit import mask_end
from bot.understand.mentions import Mention
from bot.understand.slots.base import SlotState
from bot.understand.speculative import names_eagle, target_and_draft
from bot.understand.tokens import Token
from knowledge.base import KnowledgeBase
from knowledge.names import split_checkpoint_suffixes
from rules.speculative import EAGLE_HEAD_ID

_ARCHITECTURE_AFTER = re.compile(r"\s*(?:架构|架構|结构|結構|architecture|arch\b|-?style\b|-?like\b|类|類)")
"""A family name followed by "architecture" or "-style" describes a model's shape, not a model to look up."""


_DISTILLED_AFTER = re.compile(
    r"[\s_-]*(?:distil(?:l(?:ed)?|led)?|蒸[馏餾](?:版|模型)?)[\s_-]*(?:版\s*)?([a-z]+)[\s_-]*(\d+(?:\.\d+)?)\s*b\b")
"""A base model's name followed by "distil(l)(ed) <family> <size>" or "蒸馏版 <family> <size>": one of the smaller
models distilled from it (DeepSeek-R1's Qwen and Llama distills), however the word "distill" is spelt."""


def distilled_version(kb: KnowledgeBase, model_id: str, folded: str, end: int) -> tuple[str, int] | None:
    """(the distilled model, where its name ends) when the text right after an exact mention of `model_id` names
    one of its `smaller_versions` by family and size ("deepseek-r1-distil-lama-70b", "r1 蒸馏版 llama 70b"):
    the exact mention alone would size the 671B teacher, 9× the model meant (audit 32 HIGH 84)."""
    smaller = kb.model(model_id).smaller_versions if model_id in kb.models else []
    match = _DISTILLED_AFTER.match(folded, end) if smaller else None
    if match is None:
        return None
    family = "llama" if match.group(1) in ("lama", "llamma", "llma") else match.group(1)
    found = kb.model_index.lookup(f"{model_id} distill {family} {match.group(2)}b")
    best = found.best
    if best is None or best.id not in smaller or best.mismatch is not None or best.score < 90:
        return None
    return best.id, match.end()


def find_models(state: SlotState, kb: KnowledgeBase, tokens: list[Token], mentions: list[Mention],
                instances_named: list[Mention], folded: str, original: str
                ) -> tuple[ModelFind, list[Mention], list[str], bool]:
    """(the model sized, every model named in order, their ids, whether they are a speculative decoding pair);
    masks what it reads and sets `draft_model`. `instances_named`: instance names, never a model to look up."""
    models = [m for m in mentions if m.kind == "model"]
    found = ModelFind()
    named: list[Mention] = []  # every model named, in order, for a comparison
    if models:
        # the first model named, unless a later mention spells it out in full ("Qwen/Qwen2.5-7B": "qwen"
        # alone would be an alias of something shorter)
        named = [m for m in models if not any(
            other.start > m.start and other.key.startswith(m.key) and len(other.key) > len(m.key)
            for other in models)]
        chosen = named[0]
        distilled = distilled_version(kb, chosen.entry_id, folded, mask_end(chosen, folded))
        if distilled is not None:
            chosen = Mention("model", distilled[0], chosen.key, chosen.start, distilled[1], chosen.score)
            named = [chosen, *named[1:]]
            state.mask(chosen.start, chosen.end)  # the distilled model's family and size are its name, not a size
        found.model, found.score = chosen.entry_id, 100.0
        found.text, found.start, found.end = original[chosen.start: chosen.end], chosen.start, chosen.end
        _base, found.quant, _variant = split_checkpoint_suffixes(found.text)
    for m in mentions:
        state.mask(m.start, mask_end(m, folded))
    if found.model is None:
        found = fuzzy_model(kb, tokens, [*mentions, *instances_named], folded, original)
        if found.model is not None:
            state.mask(found.start, found.end)
            named = [Mention("model", found.model, "", found.start, found.end, found.score or 0.0)]
        elif found.text and _ARCHITECTURE_AFTER.match(folded, folded.find(found.text.lower()) + len(found.text)):
            # "一个 8B 的 Llama 架构模型", "a Llama-style 8B": an architecture, not a model it failed to find (audit 28
            # LOW-92): sized as the generic model of the size given, without "I don't know Llama"
            found = ModelFind()
    if len(named) == 1 and MODEL_COMPARE_STRONG.search(state.text):
        # "qwen 14b vs lama2 13b": one more (confident) fuzzy look for a second model to compare
        extra = fuzzy_model(kb, tokens, [*mentions, *named], folded, original)
        if extra.model is not None and extra.model != named[0].entry_id:
            state.mask(extra.start, extra.end)
            named.append(Mention("model", extra.model, "", extra.start, extra.end, extra.score or 0.0))
            named.sort(key=lambda m: m.start)
    model_ids = list(dict.fromkeys(m.entry_id for m in named))
    spec = target_and_draft(model_ids, kb, folded)
    if spec is not None:  # speculative decoding: the larger model is served, the smaller is its draft
        state.set("draft_model", spec[1])
        model_ids = [spec[0]]
        named = [m for m in named if m.entry_id == spec[0]][:1]
    elif model_ids and names_eagle(folded):
        state.set("draft_model", EAGLE_HEAD_ID)  # EAGLE's head is built from the target (rules.speculative)
    if model_ids and found.model != model_ids[0]:  # the fuzzy second was written first
        first = named[0]
        found = ModelFind(model=first.entry_id, text=original[first.start: first.end], score=first.score,
                           start=first.start, end=first.end)

    return found, named, model_ids, spec is not None


__all__ = ["find_models"]


def only_release(kb: KnowledgeBase, written: str | None) -> str | None:
    """The one model whose id is the family name written plus its size ("internlm3" → internlm3-8b), else None."""
    if not written or not re.fullmatch(r"[A-Za-z][\w.-]*\d[\w.]*", written.strip()):
        return None  # a versioned family name alone ("InternLM3", "Phi4"), not words or a bare size
    key = written.strip().lower().replace(" ", "-")
    releases = [m for m in kb.models if re.fullmatch(re.escape(key) + r"-\d+(?:\.\d+)?b", m)]
    return releases[0] if len(releases) == 1 else None


def generator_first(state: SlotState, kb: KnowledgeBase, model_ids: list[str], model: str | None) -> str | None:
    """A pipeline of models named with its load ("RAG stack: bge-m3 + reranker + Qwen2.5-14B for 100 users"): the
    generator is sized, the bulk of the cards, and the others are said beside it (`companion_models`), where the
    first named had been sized alone (audit 31 HIGH 79: the embedder, one card, for 100 users of a 14B)."""
    decoders = [m for m in model_ids if m in kb.models and kb.models[m].arch == "decoder"]
    if not decoders or len(decoders) == len(model_ids):
        return model
    generator = max(decoders, key=lambda m: kb.models[m].params_b)
    state.values["model"] = generator
    state.values["companion_models"] = [m for m in model_ids if m != generator]
    return generator
