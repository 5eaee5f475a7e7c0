"""Model and GPU names in the text: exact hits on the vocabulary, walked over token spans.

Only exact keys are accepted here ("qwen2.5 7b" is `qwen2.57b`, never `qwen2.572b`); a misspelt name is
left to `bot.understand.fuzzy`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.understand.tokens import Token
from bot.understand.vocab import Vocab

MAX_SPAN_TOKENS = 10
"""Longest name span walked (CJK characters are one token each: 通义千问7B is five)."""
MAX_MENTIONS = 48
"""No question names more models and cards than this; a message that repeats names thousands of times is read
up to here, so the steps that relate each mention to the others stay cheap."""


@dataclass
class Mention:
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


def find_mentions(tokens: list[Token], vocab: Vocab) -> list[Mention]:
    """Exact name hits, longest first from the left, never overlapping."""
    found: list[Mention] = []
    i = 0
    n = len(tokens)
    while i < n:
        best: Mention | None = None
        key = ""
        if tokens[i].key in _NOT_A_NAME_START and i + 1 < n and tokens[i + 1].start > tokens[i].end:
            i += 1  # "a 10^30 …" is not an A10, "on 100 GPUs" not an O100
            continue
        for j in range(i, min(n, i + MAX_SPAN_TOKENS)):
            key += tokens[j].key
            hit: Mention | None = None
            if key in vocab.gpus:
                hit = Mention("gpu", vocab.gpus[key], key, tokens[i].start, tokens[j].end)
            elif key in vocab.models:
                hit = Mention("model", vocab.models[key], key, tokens[i].start, tokens[j].end)
            elif key.endswith("s") and key[:-1] in vocab.gpus:  # "two 4090s", "H100s"
                hit = Mention("gpu", vocab.gpus[key[:-1]], key[:-1], tokens[i].start, tokens[j].end)
            if hit is not None:
                best = hit
            if key not in vocab.prefixes:
                break
        if best is None:
            i += 1
            continue
        found.append(best)
        if len(found) >= MAX_MENTIONS:
            break
        while i < n and tokens[i].start < best.end:
            i += 1
    return [_memory_first(m, tokens, vocab) for m in found]


_MEMORY_FIRST = re.compile(r"\d+g", re.A)


def _memory_first(mention: Mention, tokens: list[Token], vocab: Vocab) -> Mention:
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
    return Mention("gpu", vocab.gpus[key], key, before[-1].start, mention.end)


