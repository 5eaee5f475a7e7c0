"""A model mention read against the text right after it: a written size that contradicts the entry ("deepseek r1
蒸馏版 32b" is not the 671B R1), a version the entry does not carry ("stable diffusion 3.5"), and a name ending in
its context window followed by the word context ("yi-34b 200k context"), whose number is the context slot's.

Apart from the parser because it is one question about one mention, asked after the mentions are found and
before the slots read the rest of the text.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from bot.understand.mentions import Mention
from bot.understand.question import CLAIMED_MEMORY_NOTE, MODDED_NOTE, NO_SUCH_VARIANT_NOTE
from bot.understand.slots.base import SlotState
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU

_WINDOW_SUFFIX = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?[km])$", re.A)
_CONTEXT_WORD_NEXT = re.compile(r"\s*(?:-\s*)?(?:tokens?\s+(?:of\s+)?)?(?:context|ctx|上下文|window|窗口)")


_SIZE_AFTER = re.compile(r"[\s_-]*(?:(?:distill(?:ed)?|蒸馏版?|版本?|的)\s*)*(?P<size>\d+(?:\.\d+)?)\s*b(?![a-z0-9])",
                         re.A)
"""A size written just after a model name, past a qualifier: "deepseek r1 蒸馏版 32b", "deepseek r1 distill 32b"."""
SIZE_MISMATCH = 0.15
_VERSION_AFTER = re.compile(
    r"[\s_-]*v?(?P<version>\d{1,2}(?:\.\d{1,2})?)(?![\d.])(?!\s*(?:[bmkx×]|gb|gib|g|tokens?|users?|gpus?|cards?|"
    r"steps?|px|pixels?|images?|imgs?|pics?|pictures?|epochs?|bits?|步|张|块|个|卡|亿|万|千|轮|位|k\b|%)"
    r"(?![a-z]))", re.A)
"""A bare version number written after a name that carries none ("stable diffusion 3.5 large")."""


def sized_sibling(mention: Mention, folded: str, kb: KnowledgeBase) -> Mention | None:
    """A model mention whose written size contradicts the entry ("deepseek r1 蒸馏版 32b" is not the 671B R1): the
    family's entry of that size when the name and size together name one, else no mention at all, so the
    question falls to the fuzzy and unknown-model steps rather than sizing a model 20 times too big."""
    if mention.kind != "model":
        return mention
    after = _SIZE_AFTER.match(folded, mention.end)
    entry = kb.models.get(mention.entry_id)
    if entry is None:
        return mention
    version = _VERSION_AFTER.match(folded, mention.end)
    if after is None and version is not None and not any(ch.isdigit() for ch in mention.key):
        # "stable diffusion 3.5" is not the entry the bare family name points to (v1.5) unless its names say so
        names = " ".join([entry.id, entry.name, *entry.aliases, *entry.hf_ids]).lower()
        if version.group("version") not in re.findall(r"\d+(?:\.\d+)?", names):
            return None
    if after is None:
        return mention
    size = float(after.group("size"))
    if abs(entry.params_b - size) <= SIZE_MISMATCH * entry.params_b:
        return mention
    sibling = kb.model_index.exact(f"{folded[mention.start: mention.end]} {after.group('size')}b")
    if sibling is not None and sibling in kb.models:
        return Mention("model", sibling, mention.key, mention.start, after.end(), mention.score)
    return None


def mask_end(mention: Mention, folded: str) -> int:
    """Where a mention's masked span ends. A model name ending in its window ("Yi-34B-200K") followed by the word
    context ("yi-34b 200k context") leaves that number to the context slot: the text asks for that context."""
    if mention.kind == "model":
        tail = _WINDOW_SUFFIX.search(folded[mention.start: mention.end])
        if tail is not None and _CONTEXT_WORD_NEXT.match(folded, mention.end):
            return mention.start + tail.start(1)
    return mention.end


MODIFIED_RANGE = (1.2, 4.0)
"""More memory than the stock card, within these factors of it, is in the range of the modified cards sold in China
(2080 Ti 22 GB, 4090 48 GB); beyond them it is no card's."""


def modified_size(card: GPU, stated_gb: float) -> bool:
    """Whether `stated_gb` is a modified card's memory for `card`: a consumer card (the aftermarket reworks
    GeForce boards; nobody re-solders an H100's HBM) with more memory, within MODIFIED_RANGE of its own, or a size
    the card is sold in whose other figures are not published (`GPU.memory_variants_gb`, audit 24 HIGH 19)."""
    low, high = MODIFIED_RANGE
    if any(abs(stated_gb - size) < 1.0 for size in card.memory_variants_gb):
        return True  # a size the card is sold in with no published figures of its own (an H20 with 141 GB)
    return card.form == "consumer" and card.memory_gb * low < stated_gb <= card.memory_gb * high


_MEMORY_AFTER_CARD = re.compile(r"\s*(?:魔改(?:版)?\s*)?(?P<gb>\d{2,3})\s*g(?:b|i?b)?(?![a-z0-9])", re.A)


def modified_memory(folded: str, gpus: list[Mention], gpu_id: str, kb: KnowledgeBase) -> float | None:
    """The memory written right after the card's name when it is not what the card ships with ("2080ti 22g",
    "4090 48gb"): the modified cards sold in China. A size the card comes in is its variant, matched by name."""
    mention = next((m for m in gpus if m.entry_id == gpu_id), None)
    card = kb.gpus.get(gpu_id)
    if mention is None or card is None:
        return None
    m = _MEMORY_AFTER_CARD.match(folded, mention.end)
    if m is None:
        return None
    stated = float(m.group("gb"))
    return stated if modified_size(card, stated) else None


_CLAIMED_MEMORY = re.compile(
    r"\s*(?:'s|’s)?\s*(?:(?:that|which)\s+)?(?:only\s+)?(?:has|have|had|got|comes?\s+with|ships?\s+with|with|w/|is|有|是|带|的?显存(?:是|有|为|只有)?)"
    r"\s*(?:only\s+|just\s+|about\s+|只有|才)?(?P<gb>\d{1,3})\s*g(?:b|ib)?(?![a-z0-9])"
    r"(?!\s*(?:of\s+)?(?:(?:lp)?ddr\d?|ram\b|system|host|cpu|内存|系统内存))", re.A)
"""Memory the text says a card has: "the 4090 has 48GB", "4090是48G", "A100的显存是40G"."""
_ASKS_IF_TRUE = re.compile(r"\s*(?:的)?\s*[,，]?\s*(?:right|correct|true|isn'?t\s+it|doesn'?t\s+it|yes|对吧|对吗|是吗|"
                           r"吧|吗|\?|？)", re.A)


class Claim(NamedTuple):
    """What the text says about the memory of the card it names, and how the reading takes it."""

    gpu_id: str
    memory_gb: float
    kind: Literal["variant", "wrong", "modified"]
    """variant: a size the card comes in (that variant is the card); wrong: a size it does not come in, or one
    asked about ("…, right?"), corrected and sized as it ships; modified: more memory, said as a fact, in the
    range of the modified cards sold in China ("my 4090 has 48GB"), sized at that memory."""


def claimed_memory(folded: str, gpus: list[Mention], gpu_id: str, kb: KnowledgeBase) -> Claim | None:
    """The memory the text says the card it names has ("the 4090 has 48GB right?", "A100的显存是40G"), when it
    is not the memory of the entry the name resolved to."""
    mention = next((m for m in gpus if m.entry_id == gpu_id), None)
    card = kb.gpus.get(gpu_id)
    if mention is None or card is None:
        return None
    m = _CLAIMED_MEMORY.match(folded, mention.end)
    if m is None and card.form != "consumer":
        m = _MEMORY_AFTER_CARD.match(folded, mention.end)  # "H100 120GB": no such card, nor a modified one
    if m is None:
        return None
    stated = float(m.group("gb"))
    if abs(stated - card.memory_gb) < 1.0:
        return None
    variant = kb.gpu_index.exact(f"{folded[mention.start: mention.end]} {m.group('gb')}gb")
    if variant is not None and variant in kb.gpus and abs(kb.gpus[variant].memory_gb - stated) < 1.0:
        return Claim(variant, kb.gpus[variant].memory_gb, "variant")
    asks = _ASKS_IF_TRUE.match(folded, m.end()) is not None
    if not asks and modified_size(card, stated):
        return Claim(gpu_id, stated, "modified")
    return Claim(gpu_id, stated, "wrong")


_GLUED_BEFORE = re.compile(r"([a-z][a-z0-9.]*(?:[-_][a-z0-9.]+)*)[-_]$", re.A)
UPLOADER_PREFIXES = frozenset({
    "meta", "mistralai", "google", "microsoft", "nvidia", "ibm", "alibaba", "thudm", "zai", "01-ai", "deepseek-ai",
    "deepseek", "tencent", "baidu", "unsloth", "thebloke", "bartowski", "lmstudio-community", "mlx-community",
    "hf", "huggingface", "official", "base", "chat", "instruct", "the"})
"""Words glued before a model's name that do not make it another model: its makers' and the usual uploaders' names
("Meta-Llama-3-8B", "unsloth-llama-3-8b-bnb-4bit")."""


RUNTIME_PREFIXES = frozenset({"faster", "insanely-fast", "whisperx"})
"""Runtimes named by gluing a word to the model they run ("faster-whisper large-v2" is Whisper large-v2 on
CTranslate2): the model itself, not a fine-tune of it (audit 34 LOW-193)."""


def derived_name(folded: str, original: str, start: int, end: int) -> str | None:
    """The whole name written when a known model's name is glued to the end of another word
    ("openhermes-2.5-mistral-7b", "e5-mistral-7b"): a fine-tune or a derivative, sized as the model its name is
    built on. None when nothing is glued before it, or only its makers' or an uploader's name."""
    glued = _GLUED_BEFORE.search(folded[max(0, start - 40): start])
    if glued is None or glued.group(1) in UPLOADER_PREFIXES or glued.group(1) in RUNTIME_PREFIXES:
        return None
    begin = start - (len(folded[max(0, start - 40): start]) - glued.start())
    return original[begin:end]


_SUFFIX_AFTER = re.compile(r"\s*(?P<suffix>ti|super|ultra|laptop(?:\s+gpu)?|mobile|max-q)(?![a-z0-9])", re.A)
"""A suffix no such card has ("RTX 4090 Ti"); a laptop one where no laptop chip of the card is known ("RTX 3070 Ti
Laptop" was sized as the desktop card silently)."""


def missing_variant(folded: str, original: str, gpus: list[Mention], gpu_id: str, kb: KnowledgeBase) -> str | None:
    """A card suffix written after a card that has no such variant ("RTX 4090 Ti", never sold): the name as
    written, so the reply can say it sized the card it knows (audit 17 L-3); None otherwise."""
    mention = next((m for m in gpus if m.entry_id == gpu_id), None)
    if mention is None:
        return None
    m = _SUFFIX_AFTER.match(folded, mention.end)
    if m is None or kb.gpu_index.exact(f"{folded[mention.start: mention.end]} {m.group('suffix')}") is not None:
        return None
    return original[mention.start: m.end()].strip()


_MEMORY_AFTER_NAME = re.compile(r"\s*(?P<gb>\d{1,3})\s*g(?:b|ib)?(?![a-z0-9])", re.A)


def read_card_claims(state: SlotState, gpus: list[Mention], gpu_ids: list[str], kb: KnowledgeBase, *,
                     one_card_kind: bool) -> bool:
    """What the text says of the first card named, read into `state`: the variant its memory picks ("the A100 has
    40GB", `gpu_ids[0]` changed in place), a wrong claim or a variant that does not exist (notes the reply
    answers), or a modified card's memory ("2080Ti 22G 魔改版"); else the card itself as the `gpu` slot. True
    when the text chose the variant, so the reply need not say which one it assumed."""
    folded, original = state.folded, state.original
    stated = False
    claim = claimed_memory(folded, gpus, gpu_ids[0], kb)
    if claim is not None and claim.kind == "variant":
        gpu_ids[0] = claim.gpu_id  # "the A100 has 40GB": that variant
        stated = True
    elif claim is not None and claim.kind == "wrong":
        state.notes.append(f"{CLAIMED_MEMORY_NOTE}{claim.memory_gb:g}")  # "the 4090 has 48GB right?": it has 24
    no_such = missing_variant(folded, original, gpus, gpu_ids[0], kb)
    if no_such is not None:
        state.notes.append(f"{NO_SUCH_VARIANT_NOTE}{no_such}")  # "RTX 4090 Ti": sized as the 4090, said so
    modded = (claim.memory_gb if claim is not None and claim.kind == "modified"
              else modified_memory(folded, gpus, gpu_ids[0], kb) if claim is None else None)
    if no_such is not None and claim is None and modded is None:
        # "RTX 5090 Ti 48GB": a card that does not exist, with its memory written: sized at that memory, the nearest
        # card's speed (audit 39 LOW-217: the user's 48 GB was dropped for the 5090's 32)
        at = folded.find(no_such.lower())
        written = _MEMORY_AFTER_NAME.match(folded, at + len(no_such)) if at >= 0 else None
        card = kb.gpus.get(gpu_ids[0])
        if written is not None and card is not None and abs(float(written.group("gb")) - card.memory_gb) >= 1.0:
            modded = float(written.group("gb"))
    if modded is not None and one_card_kind:
        # "2080Ti 22G 魔改版", "4090 48GB": the card at the memory stated, not the stock one
        state.set("memory_gb", modded)
        state.notes.append(f"{MODDED_NOTE}{gpu_ids[0]}")
    else:
        state.set("gpu", gpu_ids[0])
    return stated
