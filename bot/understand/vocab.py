"""The per-knowledge-base vocabulary: every model and GPU name as a lookup key, and the FAQ texts.

Built once per knowledge base and cached, so finding names costs a few hash probes per token however large
the knowledge base grows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.understand.lang import has_cjk
from bot.understand.tokens import faq_text, fold, name_key, tokenize
from knowledge.base import KnowledgeBase


@dataclass
class Vocab:
    models: dict[str, str] = field(default_factory=dict)
    gpus: dict[str, str] = field(default_factory=dict)
    prefixes: set[str] = field(default_factory=set)
    bare_gpus: set[str] = field(default_factory=set)
    """GPU keys that name a family with several variants (A100 → the 40/80 GB cards): a default is assumed."""
    variants: dict[str, list[str]] = field(default_factory=dict)
    """For each key in `bare_gpus`, the GPU ids it may mean (its default's id first)."""
    laptops: dict[str, str] = field(default_factory=dict)
    """A desktop card's key → the key of its laptop chip ("rtx4070" → "rtx4070laptop"), for a card the text places in
    a laptop without naming the chip ("my laptop's RTX 4070"): see `bot.understand.mentions`."""
    faq_ids: list[str] = field(default_factory=list)
    faq_texts: list[str] = field(default_factory=list)
    faq_keywords: list[tuple[str, re.Pattern[str]]] = field(default_factory=list)


_VOCAB_CACHE: dict[int, tuple[KnowledgeBase, Vocab]] = {}


def _add_key(table: dict[str, str], prefixes: set[str], key: str, entry_id: str) -> None:
    if not key or (key.replace(".", "").isdigit() and len(key) < 3):
        return
    table.setdefault(key, entry_id)
    for end in range(1, len(key) + 1):
        prefixes.add(key[:end])


FORM_FACTOR_WORDS = frozenset({"laptop", "mobile", "notebook", "m", "gpu", "maxq", "max", "q", *"笔记本游戏移动版"})
"""Words that make a laptop chip of a desktop card's name ("RTX 4090 Laptop GPU"): the plain name stays the desktop
card, not a bare name of several memory variants (so no "memory size not stated" for "a 4090")."""


_MEMORY_WORD = re.compile(r"\d+gb?")


def _laptop_of(rest: list[str]) -> bool:
    """The words a longer card name adds make it a laptop chip (with, perhaps, its memory: "laptop 16g")."""
    words = [word for word in rest if not _MEMORY_WORD.fullmatch(word)]
    return bool(words) and set(words) <= FORM_FACTOR_WORDS


LAPTOP_WORDS: tuple[tuple[str, ...], ...] = (
    ("laptop",), ("laptops",), ("notebook",), ("notebooks",),
    tuple("笔记本电脑"), tuple("笔记本"), tuple("游戏本"), tuple("笔电"),  # folded: 筆記本, 筆電, 遊戲本 read as these
    tuple("笔计本"), tuple("笔纪本"),  # the homophone typos of 笔记本 an IME gives (audit 27 LOW-77)
    ("lapotp",), ("labtop",),
)
"""Words for a laptop, as token keys, longest first: a card named a few words away is the laptop's chip."""
NOT_THE_LAPTOP: tuple[tuple[str, ...], ...] = (
    ("desktop",), ("desktops",), ("pc",), ("pcs",), ("workstation",), ("server",), ("tower",), ("rig",),
    tuple("台式"), tuple("主机"), tuple("服务器"), tuple("工作站"), tuple("桌机"), tuple("桌上型"),
    ("and",), ("or",), ("plus",), ("vs",), ("versus",), ("but",), ("和",), ("与",), ("或",), ("跟",), ("及",),
)
"""Words between a laptop word and a card that put the card elsewhere: another machine, or a second item
("a laptop and a 4090")."""


def _laptop_keys(kb: KnowledgeBase, vocab: Vocab) -> None:
    """Fill `vocab.laptops` from the knowledge base. A laptop entry's name without its form-factor words is the
    desktop card's ("RTX 3060 Laptop" → "RTX 3060"); and an entry `<id>-laptop` is the laptop chip of `<id>`, named
    by the desktop's names that add nothing but its own name's words or Chinese ones ("4090显卡"), never a size
    ("RTX 4090 24GB" is the desktop card) nor a variant of the chip ("4090D")."""
    for gpu in kb.gpus.values():
        full = name_key(gpu.id)
        if vocab.gpus.get(full) != gpu.id or "laptop" not in [t.key for t in tokenize(fold(f"{gpu.id} {gpu.name}"))]:
            continue
        for name in (gpu.name, *gpu.aliases):
            tokens = [t.key for t in tokenize(fold(name))]
            desktop = "".join(word for word in tokens if word not in FORM_FACTOR_WORDS)
            owner = vocab.gpus.get(desktop)
            if owner is not None and owner != gpu.id and vocab.gpus.get("".join(tokens)) == gpu.id:
                vocab.laptops.setdefault(desktop, "".join(tokens))
        card = kb.gpus.get(gpu.id.removesuffix("-laptop")) if gpu.id.endswith("-laptop") else None
        if card is None:
            continue
        own = {t.key for t in tokenize(fold(f"{card.id} {card.name}"))}
        for name in (card.id, card.name, *card.aliases):
            tokens = [t.key for t in tokenize(fold(name))]
            plain = all((word in own and not _MEMORY_WORD.fullmatch(word)) or has_cjk(word) for word in tokens)
            if plain and vocab.gpus.get(key := "".join(tokens)) == card.id:
                vocab.laptops.setdefault(key, full)


def vocab_of(kb: KnowledgeBase) -> Vocab:
    cached = _VOCAB_CACHE.get(id(kb))
    if cached is not None and cached[0] is kb:
        return cached[1]
    vocab = Vocab()
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
            tokens = [t.key for t in tokenize(fold(name))]
            _add_key(vocab.gpus, vocab.prefixes, "".join(tokens), gpu.id)
            gpu_tokens.append((gpu.id, tokens))
    for gpu_id, tokens in gpu_tokens:
        for cut in range(1, len(tokens)):
            owner = vocab.gpus.get("".join(tokens[:cut]))
            if owner is not None and owner != gpu_id and not _laptop_of(tokens[cut:]):
                bare = "".join(tokens[:cut])
                vocab.bare_gpus.add(bare)
                ids = vocab.variants.setdefault(bare, [owner])
                if gpu_id not in ids:
                    ids.append(gpu_id)
    _laptop_keys(kb, vocab)
    for entry in kb.faq.values():
        for question in (*entry.questions.en, *entry.questions.zh):
            vocab.faq_ids.append(entry.id)
            vocab.faq_texts.append(faq_text(question))
        for keyword in dict.fromkeys(entry.keywords):
            folded = fold(keyword).strip()
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


def same_card_variants(kb: KnowledgeBase, vocab: Vocab, key: str) -> list[str]:
    """The variants a bare datacenter card name may mean (A100 40/80 GB, H100 SXM/PCIe/NVL), the default first:
    cards of its architecture only, so "GB200" is not offered as a "GB300" and no GeForce "Ti" as its base card."""
    ids = vocab.variants.get(key, [])
    default = kb.gpus.get(ids[0]) if ids else None
    if default is None or default.form != "datacenter":
        return []
    same = [i for i in ids if (g := kb.gpus.get(i)) is not None and g.form == "datacenter"
            and g.architecture == default.architecture]
    return same if len(same) > 1 else []

