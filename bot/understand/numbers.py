"""Numbers as people write them: 8, 1,024, 1.5, 10^30, 1e12, 两, 十六, 一百二十八, two, a dozen."""

from __future__ import annotations

import math
import re

HUGE = 1e30
"""Stands for any number too long to be meaningful (a 40,000-digit string); callers clamp it."""

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "俩": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9, "单": 1, "單": 1, "双": 2, "雙": 2}
_CN_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000, "万": 10_000, "萬": 10_000}

CN_NUMERAL_CHARS = "".join(_CN_DIGITS) + "".join(_CN_UNITS)

EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "a single": 1, "one single": 1, "two": 2, "a pair of": 2,
    "pair of": 2, "dual": 2, "couple of": 2, "a couple of": 2, "three": 3, "four": 4, "quad": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16,
    "twenty": 20, "thirty-two": 32, "thirty two": 32, "sixty-four": 64, "a dozen": 12, "dozen": 12,
}


def cn_numeral(text: str) -> float | None:
    """十六 → 16, 一百二十八 → 128, 两 → 2, 千 → 1000; None when `text` is not a Chinese numeral."""
    if not text or any(ch not in _CN_DIGITS and ch not in _CN_UNITS for ch in text):
        return None
    total = 0
    section = 0
    digit: int | None = None
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch] if digit is None else digit * 10 + _CN_DIGITS[ch]
            continue
        unit = _CN_UNITS[ch]
        if unit == 10_000:
            section = (section + (digit or 0)) or 1
            total += section * unit
            section = 0
        else:
            section += (1 if digit is None else digit) * unit
        digit = None
    return float(total + section + (digit or 0))


def number(text: str) -> float | None:
    """Arabic (with thousands commas, decimals, 10^N / 1eN), Chinese or English number words."""
    raw = text.strip().lower().replace(",", "").replace("_", "")
    if not raw:
        return None
    if raw in EN_NUMBERS:
        return float(EN_NUMBERS[raw])
    for power in ("^", "**"):
        if power in raw:
            base, _, exponent = raw.partition(power)
            b, e = number(base), number(exponent)
            if b is None or e is None:
                return None
            if e * math.log10(max(abs(b), 1e-300)) > 30:
                return HUGE
            return float(b**e)
    digits = raw.lstrip("+-")
    if digits and (digits[0].isdigit() or digits[0] == "."):
        if len(digits.split(".")[0].split("e")[0]) > 30:
            return -HUGE if raw.startswith("-") else HUGE
        try:
            value = float(raw)
        except ValueError:
            return None
        if math.isinf(value) or abs(value) > HUGE:
            return -HUGE if value < 0 else HUGE
        return None if math.isnan(value) else value
    return cn_numeral(raw)


MAX_DIGIT_RUN = 24
"""The longest run of digits, separators and Chinese numerals read as written. No real figure is longer
(10^24 parameters is not a model); a longer run is kept to its first MAX_DIGIT_RUN characters, which still
reads as a number beyond every bound (so it is clamped as before), and the rest of the run becomes
RUN_FILLER."""
RUN_FILLER = "_"
"""Matched by no pattern and no token. Not a space: the patterns allow runs of whitespace after a number, and
24 digits followed by thousands of spaces backtrack as badly as the digits did."""

_DIGIT_RUN = re.compile(f"[0-9.,{CN_NUMERAL_CHARS}]{{{MAX_DIGIT_RUN + 1},}}")


def bound_digit_runs(text: str) -> str:
    """`text` with every run of digits, commas, dots and Chinese numerals cut to MAX_DIGIT_RUN characters and
    padded with RUN_FILLER, so offsets stay valid. Why: the number patterns backtrack on long runs (a message of
    3,990 ones cost 7 s of parsing, during which the interpreter lock stalled the worker's acks); after this
    every pattern meets runs of bounded length and parsing stays linear in the message length."""
    if len(text) <= MAX_DIGIT_RUN:
        return text
    return _DIGIT_RUN.sub(lambda m: m.group(0)[:MAX_DIGIT_RUN] + RUN_FILLER * (len(m.group(0)) - MAX_DIGIT_RUN), text)
