"""Text folded for matching, and split into tokens whose offsets point back into the original.

Every pattern in this room is written once, in lower-case English and Simplified Chinese: `fold` makes any
input look like that while keeping one character per input character, so a slot can quote its words back.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.understand.lang import to_simplified

_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
TOKEN = re.compile(rf"[a-z]+\+(?![a-z0-9+])|[a-z0-9]+(?:\.[a-z0-9]+)*|[{_CJK_CLASS}]", re.A)
"""A word, a number (with its dots) or one CJK character. A '+' ending a word is part of it ("Command R+" is not
"Command R"), not one joining two names ("A100+H100") or counting ("2+ GPUs")."""
_MEMORY_TOKEN = re.compile(r"(\d+)gb")
_COUNT_GLUED = re.compile(r"(\d{1,4})[x×]([a-z].*|\d{3,4}[a-z]*)", re.A)
"""A count glued to a card: 8xH100, 2x3090 (a model size such as Mixtral's 8x7b or 8x22b stays whole)."""
SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)([bm])(?![a-z])", re.A)
HAS_DIGIT = re.compile(r"\d")


def fold(text: str) -> str:
    """NFKC, lower case, Traditional → Simplified, keeping one output character per input character."""
    text = unicodedata.normalize("NFKC", text)
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    return to_simplified(lowered)


_SUFFIX_TYPOS = {"supr": "super", "suepr": "super", "supper": "super", "sper": "super"}
"""Misspellings of a card's suffix seen in questions ("4070 ti supr"): read as the suffix, so the card is the
SUPER rather than the plain one of another memory size (audit 16 C-M8)."""


def canon(token: str) -> str:
    """Memory sizes are written 80G, 80GB or 80 GB: all read as 80g; a misspelt card suffix as the suffix."""
    if token == "gb":
        return "g"
    if token in _SUFFIX_TYPOS:
        return _SUFFIX_TYPOS[token]
    match = _MEMORY_TOKEN.fullmatch(token)
    return f"{match.group(1)}g" if match else token


@dataclass(frozen=True)
class Token:
    key: str
    start: int
    end: int


def tokenize(folded: str) -> list[Token]:
    out: list[Token] = []
    for match in TOKEN.finditer(folded):
        word, start = match.group(), match.start()
        glued = _COUNT_GLUED.fullmatch(word)
        if glued and not SIZE.fullmatch(glued.group(2)):  # 8xH100 → 8x | h100, 2x3090 → 2x | 3090
            cut = start + len(glued.group(1)) + 1
            out.append(Token(word[: len(glued.group(1)) + 1], start, cut))
            out.append(Token(canon(glued.group(2)), cut, match.end()))
            continue
        out.append(Token(canon(word), start, match.end()))
    return out


def name_key(name: str) -> str:
    """The key a name is stored and looked up under: its tokens, canonicalised and concatenated."""
    return "".join(t.key for t in tokenize(fold(name)))



def name_key_sized(text: str) -> str:
    """Folded text with separators kept as spaces, for reading sizes out of a name."""
    return " ".join(t.key for t in tokenize(fold(text)))



_FAQ_PUNCT = re.compile(r"[^\w\s.]+")


def faq_text(text: str) -> str:
    return re.sub(r"\s+", " ", _FAQ_PUNCT.sub(" ", fold(text))).strip()

