"""Preparing a message for the slot readers: Slack markup and control characters out, amounts in words as digits,
NFKC and Traditional → Simplified folding with offsets kept, so every pattern downstream is written once.

Why a module of its own: each rewrite here changes what every later reading sees, and each came from a message
that was misread without it; keeping them together, in order, keeps that order visible.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

from bot.understand.lang import detect_lang
from bot.understand.markup import CONTROL_CHARS, strip_slack_markup
from bot.understand.numbers import bound_digit_runs, keep_clause_commas, ungroup_thousands
from bot.understand.recipes import plain_recipe_names
from bot.understand.tokens import fold
from bot.understand.vocab import vocab_of
from knowledge.base import KnowledgeBase

MAX_PARSE_CHARS = 4000
"""Longer messages are read up to here: no real question is longer, and parsing stays bounded."""

_WORD_COUNT = re.compile(
    r"\b(a\s+dozen|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)"
    r"(?=\s+(?:concurrent\s+|simultaneous\s+|active\s+|internal\s+)?(?:users?|people|folks|requests|chats|"
    r"sessions|streams|engineers|devs|developers|analysts)\b)", re.I)
"""A count of people in words ("ten concurrent users", "a dozen users"): read as the digits the count slots read
(audit 31 HIGH 83: dropped, one user sized)."""
_WORD_NUMBERS = {"a dozen": "12", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
                 "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50"}
_HALF_A = re.compile(r"\bhalf\s+an?\s+(thousand|million|billion)\b", re.I)
_A_MILLION = re.compile(r"(?<![\w.])an?\s+(million|billion)\s+(?=(?:requests?|queries|calls|messages|documents|"
                        r"images|users|chats|conversations|prompts|summaries|texts|pages)\b)", re.I)
"""Amounts in words before a count ("half a million requests a day", "a million documents"): as numbers the count
slots read (audit 30 HIGH 68: the day's half a million requests was dropped); "a million tokens" is left as the
price unit it usually is ("how much for a million tokens")."""
_VERSION_COMMA = re.compile(r"(?<=[A-Za-z])(\d),(\d)(?=[-_][0-9A-Za-z]|[A-Za-z])")
"""A version written with a decimal comma inside a name ("qwen2,5-72b", "llama3,1-8b"), as European keyboards do."""


_CARD_TIMES = re.compile(r"(?<![a-z0-9])([a-z]{0,6}\d{2,4}[a-z]{0,4})x(\d{1,3})(?![a-z0-9])", re.I)


def card_times_count(text: str, gpu_keys: dict[str, str]) -> str:
    """`text` with the "x" of a count written onto a card's name made "×" ("4090x2" → "4090×2", "A100x4"): as
    one token the name was no card and the user's cards vanished from the answer (audit 31 HIGH 72). Only a
    name the card vocabulary knows is split, so "8x7b" and "512x512" stay as written; the length is kept."""
    return _CARD_TIMES.sub(
        lambda m: f"{m.group(1)}×{m.group(2)}" if m.group(1).lower() in gpu_keys else m.group(0), text)


@dataclass(frozen=True)
class PreparedText:
    """One message made ready for reading. `original` keeps the user's letters (quoted back in replies);
    `folded` is the same length, lower-cased and in Simplified Chinese, which the patterns read."""

    original: str
    folded: str
    lang: str


def prepared(text: str, kb: KnowledgeBase) -> PreparedText:
    """`text` (its first `MAX_PARSE_CHARS` characters) normalised for the slot readers."""
    clean = strip_slack_markup(text[: MAX_PARSE_CHARS * 2])[:MAX_PARSE_CHARS]
    clean = plain_recipe_names(CONTROL_CHARS.sub(" ", clean))
    clean = html.unescape(clean) if "&" in clean else clean
    clean = _VERSION_COMMA.sub(r"\1.\2", clean)  # "qwen2,5-72b": a decimal comma in a version (audit 30 LOW-122)
    clean = _A_MILLION.sub(r"1 \1", _HALF_A.sub(r"0.5 \1", clean))  # "half a million requests a day" (HIGH 68)
    clean = _WORD_COUNT.sub(lambda m: _WORD_NUMBERS[re.sub(r"\s+", " ", m.group(1).lower())], clean)
    clean = card_times_count(clean, vocab_of(kb).gpus)  # "4090x2", "A100x4": the count after the card
    original = unicodedata.normalize("NFKC", keep_clause_commas(ungroup_thousands(clean)))
    folded = fold(original)
    if len(folded) != len(original):  # pragma: no cover - fold keeps lengths; belt and braces
        original = folded
    original, folded = bound_digit_runs(original), bound_digit_runs(folded)
    lang = detect_lang(original) if original.strip(" ?!.,~") else detect_lang(clean)  # "？？" before NFKC
    return PreparedText(original=original, folded=folded, lang=lang)
