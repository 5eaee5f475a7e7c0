"""What every slot family shares: the state of a parse, bounds, number reading, and pattern helpers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.understand.numbers import CN_NUMERAL_PATTERN, EN_NUMBERS, number


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.A | re.X)


POWER_OF_TEN = r"(?:\d+(?:\.\d+)?\s*[x*×]\s*)?10\s*(?:\^|\*\*)\s*\d{1,2}(?![\d.])"
"""A power of ten as typed: "10^9", "10**9", "2x10^3", "2×10^3". Without it "10^9 users" read as 9 users."""
NUM = (r"(?P<neg>(?<![a-z0-9.])-\s?)?(?P<num>" + POWER_OF_TEN
       + r"|\d+(?:\.\d+)?e\+?\d{1,6}(?![\d.])|(?:(?<![a-z\d])\d{1,3}(?:,\d{3})+|\d+)(?!\d)(?:\.\d+)?|"
       + CN_NUMERAL_PATTERN + ")")
"""A number as written: a comma groups thousands only before three digits, so "并发 32，4k 上下文" (a full-width
comma, folded to ",") is 32 and then 4k, not 324k, and only after a bare number: "FP8，128k" is FP8 and 128k, not
8,128k; "1e5" is scientific, not a 5 after a letter."""
EN_COUNT_WORDS = "|".join(sorted((re.escape(w) for w in EN_NUMBERS), key=len, reverse=True))


@dataclass
class SlotState:
    original: str
    folded: str
    masked: list[str]
    values: dict[str, Any] = field(default_factory=dict)
    stated: list[str] = field(default_factory=list)
    clamped: list[str] = field(default_factory=list)
    clamped_asked: dict[str, float] = field(default_factory=dict)
    """The value written for each slot clamped, so the reply can say what was asked and what was used."""
    notes: list[str] = field(default_factory=list)

    def set(self, slot: str, value: Any) -> None:
        if slot in self.values:
            return
        self.values[slot] = value
        if slot not in self.stated:
            self.stated.append(slot)

    def mask(self, start: int, end: int) -> None:
        for k in range(max(0, start), min(end, len(self.masked))):
            self.masked[k] = " "

    def mask_log_line(self, start: int, end: int) -> None:
        """Masks a pasted log line whole: a blank at each end and, between, a character no pattern takes for
        space. Blanked whole, a few log lines made a run of 1,200 blanks over which chained optional blanks in
        the slot patterns backtracked cubically, and a 1,744-character SGLang paste hung the bot (audit 27
        HIGH 39); a masked name or number stays blank, so the words around it still read as one phrase."""
        self.mask(start, end)
        for k in range(max(0, start) + 1, min(end, len(self.masked)) - 1):
            self.masked[k] = BLANK_FILL

    @property
    def text(self) -> str:
        return "".join(self.masked)


BLANK_FILL = "\x01"
"""What fills a masked log line: neither a blank nor a word character."""


_QUOTED_KEY = re.compile(r"[\"'](?P<key>[a-z_][a-z0-9_.-]*)[\"']\s*:")


def unquote_keys(state: SlotState) -> None:
    """A pasted JSON or Python-dict config ({"max_model_len": 32768, "tensor_parallel_size": 2}) reads like the
    YAML and flag forms the cues know: the quotes around each key are blanked, keeping every offset."""
    for m in _QUOTED_KEY.finditer(state.text):
        state.masked[m.start()] = " "
        state.masked[m.end("key")] = " "


def bounded(state: SlotState, slot: str, value: float, upper: float, lower: float = 1.0) -> float:
    if value > upper or value < lower:
        state.clamped.append(slot)
        state.clamped_asked.setdefault(slot, value)
        return upper if value > upper else lower
    return value


def read_number(match: re.Match[str], group: str = "num") -> float | None:
    raw = match.group(group)
    if raw is None:
        return None
    value = number(raw)
    if value is None:
        return None
    neg = match.groupdict().get("neg")
    return -abs(value) if neg else value



def first_label(patterns: tuple[tuple[str, re.Pattern[str]], ...], text: str) -> str | None:
    best: tuple[int, str] | None = None
    for label, pattern in patterns:
        m = pattern.search(text)
        if m is not None and (best is None or m.start() < best[0]):
            best = (m.start(), label)
    return None if best is None else best[1]
