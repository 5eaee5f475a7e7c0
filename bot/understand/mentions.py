"""Model and GPU names in the text: exact hits on the vocabulary, walked over token spans.

Only exact keys are accepted here ("qwen2.5 7b" is `qwen2.57b`, never `qwen2.572b`); a misspelt name is
left to `bot.understand.fuzzy`. A card's name never spans sentence punctuation ("a 4090. Laptop is too slow" is a
desktop 4090), and a GeForce card the text places in a laptop a few words away ("my laptop's RTX 4070") is read
as the laptop chip: see `_in_laptop`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from bot.understand.lang import has_cjk
from bot.understand.tokens import Token
from bot.understand.vocab import LAPTOP_WORDS, NOT_THE_LAPTOP, Vocab

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


_SENTENCE_END = frozenset(".!?;。！？；")
_CLAUSE_MARK = frozenset(",:，：、")
NO_BREAK, UNREAD_GAP, CLAUSE, SENTENCE = 0, 1, 2, 3
"""What separates two tokens: nothing but spaces or joiners, a gap the caller gave no text for (wider than one
character, or next to a CJK character), a clause mark (`, : ，：、`) or a sentence end (`. ! ? ; 。！？；`)."""


def _gaps(tokens: list[Token], text: str | None) -> list[int]:
    """The break before each token (the first has none). Without the text, only a gap that may hold punctuation
    is known (`UNREAD_GAP`): enough to keep "a 4090, my laptop …" apart, never to cut a name."""
    out = [NO_BREAK]
    for prev, tok in pairwise(tokens):
        if text is None:
            unread = tok.start - prev.end > 1 or (tok.start > prev.end and (has_cjk(prev.key) or has_cjk(tok.key)))
            out.append(UNREAD_GAP if unread else NO_BREAK)
            continue
        gap = set(text[prev.end: tok.start])
        out.append(SENTENCE if gap & _SENTENCE_END else CLAUSE if gap & _CLAUSE_MARK else NO_BREAK)
    return out


def find_mentions(tokens: list[Token], vocab: Vocab, text: str | None = None) -> list[Mention]:
    """Exact name hits, longest first from the left, never overlapping. `text` is what the tokens' offsets point
    into: with it a card's name stops at punctuation (`. , ; : ! ?` and the CJK forms; a model's does not, for
    "qwen2.5:7b"), without it breaks are guessed from the gaps' widths (see `_gaps`)."""
    gaps = _gaps(tokens, text)
    found: list[tuple[Mention, int, int]] = []  # each mention with its span of token indices
    i = 0
    n = len(tokens)
    while i < n:
        if tokens[i].key in _NOT_A_NAME_START and i + 1 < n and tokens[i + 1].start > tokens[i].end:
            i += 1  # "a 10^30 …" is not an A10, "on 100 GPUs" not an O100
            continue
        best = _longest_at(i, tokens, vocab, gaps)
        if best is None:
            i += 1
            continue
        found.append(best)
        if len(found) >= MAX_MENTIONS:
            break
        i = best[2]
    found = [_memory_first(m, tokens, vocab, gaps) for m in found]
    return _in_laptop(found, tokens, vocab, gaps)


def _longest_at(i: int, tokens: list[Token], vocab: Vocab, gaps: list[int]) -> tuple[Mention, int, int] | None:
    """The longest name starting at token `i`, with its span of token indices. A card's brand before its name
    ("NVIDIA A100-SXM4-40GB", "GeForce RTX 4060 Ti", "Tesla V100 32GB", as nvidia-smi prints them) is part of the
    mention, but the name after it is matched on its own too, and the longer reading wins: with the brand, the
    known alias stopped at "NVIDIA A100" and the variant after it was lost (audit 27 HIGH 40)."""
    best: tuple[Mention, int, int] | None = None
    key = ""
    split = False
    n = len(tokens)
    for j in range(i, min(n, i + MAX_SPAN_TOKENS)):
        split = split or (j > i and gaps[j] >= CLAUSE)
        key += tokens[j].key
        hit: Mention | None = None
        if key in vocab.gpus and not split:
            hit = Mention("gpu", vocab.gpus[key], key, tokens[i].start, tokens[j].end)
        elif key in vocab.models:
            hit = Mention("model", vocab.models[key], key, tokens[i].start, tokens[j].end)
        elif key.endswith("s") and key[:-1] in vocab.gpus and not split:  # "two 4090s", "H100s"
            hit = Mention("gpu", vocab.gpus[key[:-1]], key[:-1], tokens[i].start, tokens[j].end)
        if hit is not None:
            best = (hit, i, j + 1)
        if key not in vocab.prefixes:
            break
    if tokens[i].key in CARD_BRANDS and i + 1 < n and gaps[i + 1] < CLAUSE:
        inner = _longest_at(i + 1, tokens, vocab, gaps)
        if inner is not None and inner[0].kind == "gpu" and (best is None or inner[2] > best[2]):
            mention = inner[0]
            best = (Mention("gpu", mention.entry_id, mention.key, tokens[i].start, mention.end, mention.score), i,
                    inner[2])
    return best


CARD_BRANDS = frozenset({"nvidia", "geforce", "tesla", "quadro", "amd", "radeon", "instinct", "intel", "arc"})
"""Brand words printed before a card's name (nvidia-smi's "NVIDIA H100 NVL", "Tesla V100-SXM2-32GB")."""

_MEMORY_FIRST = re.compile(r"\d+g", re.A)


def _memory_first(found: tuple[Mention, int, int], tokens: list[Token], vocab: Vocab,
                  gaps: list[int]) -> tuple[Mention, int, int]:
    """"80GB A100", "80G的A100": the memory written before the card picks the variant."""
    mention, first, last = found
    if mention.kind != "gpu":
        return found
    at = first - 1
    if at >= 0 and tokens[at].key == "的":
        at -= 1
    if at < 0 or not _MEMORY_FIRST.fullmatch(tokens[at].key) or mention.start - tokens[at].end > 3 \
            or max(gaps[at + 1: first + 1]) >= CLAUSE:
        return found
    key = mention.key + tokens[at].key
    if key not in vocab.gpus:
        return found
    return Mention("gpu", vocab.gpus[key], key, tokens[at].start, mention.end), at, last


LAPTOP_REACH = 3.0
"""How many words may stand between a laptop word and the card it holds; a CJK character counts half a word
(笔记本电脑上的3060: 上的 is one word)."""
_CODE_NOTEBOOK = frozenset(("jupyter", "colab", "kaggle", "ipython", "sagemaker", "databricks", "run", "runs",
                            "running", "ran", "execute", "executing", "open"))
"""Words just before "notebook" that make it a code notebook ("run my notebook on a 4090"), not a laptop."""


def _phrases(keys: list[str], phrases: tuple[tuple[str, ...], ...], tokens: list[Token]) -> dict[int, int]:
    """Where each phrase of `phrases` is written: first token index → last token index (each an unbroken run)."""
    out: dict[int, int] = {}
    k = 0
    while k < len(keys):
        for phrase in phrases:
            end = k + len(phrase)
            if tuple(keys[k:end]) == phrase and all(tokens[t].start == tokens[t - 1].end for t in range(k + 1, end)):
                out[k] = end - 1
                k = end - 1
                break
        k += 1
    return out


def _in_laptop(found: list[tuple[Mention, int, int]], tokens: list[Token], vocab: Vocab,
               gaps: list[int]) -> list[Mention]:
    """A desktop card's name read as its laptop chip when the text puts it in a laptop: a laptop word (laptop,
    notebook, 笔记本, 游戏本, 笔电; 筆記本, 筆電 fold to these) at most `LAPTOP_REACH` words before or after it, with
    nothing between that says the card is elsewhere: another card, a word for another machine or a second item
    ("a laptop and a desktop with a 4090", "a laptop and a 4090": desktop, see `NOT_THE_LAPTOP`), or a sentence
    end. A laptop word after the card must also be in the same clause ("I have a 4090, my laptop is too slow").
    Only cards with a laptop chip in the knowledge base change (`Vocab.laptops`); a name that is already the laptop
    chip's ("4090 laptop") or states a desktop size ("RTX 4090 24GB") stays as it is."""
    mentions = [m for m, _, _ in found]
    if not any(m.kind == "gpu" and m.key in vocab.laptops for m in mentions):
        return mentions
    keys = [t.key for t in tokens]
    laptops, others = _phrases(keys, LAPTOP_WORDS, tokens), _phrases(keys, NOT_THE_LAPTOP, tokens)
    laptop_ends = {last: first for first, last in laptops.items()}
    other_ends = {last: first for first, last in others.items()}
    owner: dict[int, str] = {k: m.kind for m, first, last in found for k in range(first, last)}

    def laptop_at(first: int) -> bool:
        return owner.get(first) is None and not (
            keys[first] in ("notebook", "notebooks") and _CODE_NOTEBOOK & set(keys[max(0, first - 2): first]))

    def reaches(k: int, step: int) -> bool:
        words = 0.0
        while 0 <= k < len(tokens) and gaps[k if step > 0 else k + 1] < (UNREAD_GAP if step > 0 else SENTENCE):
            if owner.get(k) == "gpu":
                return False
            phrase = laptops.get(k) if step > 0 else laptop_ends.get(k)
            if phrase is not None and laptop_at(min(k, phrase)):
                return True
            if (others.get(k) if step > 0 else other_ends.get(k)) is not None:
                return False
            words += 0.5 if has_cjk(keys[k]) else 1.0
            if words > LAPTOP_REACH:
                return False
            k += step
        return False

    out: list[Mention] = []
    for m, first, last in found:
        laptop_key = vocab.laptops.get(m.key) if m.kind == "gpu" else None
        if laptop_key is not None and (reaches(first - 1, -1) or reaches(last, 1)):
            end = m.end
            if last < len(tokens) and gaps[last] == NO_BREAK and last not in owner \
                    and _MEMORY_FIRST.fullmatch(keys[last]) and laptop_key + keys[last] in vocab.gpus:
                laptop_key, end = laptop_key + keys[last], tokens[last].end  # "a laptop with a 3080 16GB"
            m = Mention("gpu", vocab.gpus[laptop_key], laptop_key, m.start, end, m.score)
        out.append(m)
    return out
