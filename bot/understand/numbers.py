"""Numbers as people write them: 8, 1,024, 1.5, 10^30, 1e12, 两, 十六, 一百二十八, 三千二, 三点五万, two, a dozen."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

HUGE = 1e30
"""Stands for any number too long to be meaningful (a 40,000-digit string); callers clamp it."""

COUNT_SCALES: dict[str, float] = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9,
    "t": 1e12, "tn": 1e12, "trillion": 1e12, "quadrillion": 1e15,
    "千": 1e3, "万": 1e4, "十万": 1e5, "百万": 1e6, "千万": 1e7, "亿": 1e8, "十亿": 1e9, "百亿": 1e10, "千亿": 1e11,
    "万亿": 1e12, "兆": 1e12,  # 兆 as Taiwan and Hong Kong write a trillion tokens ("2 兆 token")
}
"""Scale words after a counted amount (tokens to train on or generate, images, hours of audio): counted in
thousands, lower case. Each slot's pattern says which of them it reads; contexts count k as 1,024 instead."""

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


CN_NUMERAL_PATTERN = "(?:[零〇一二两三四五六七八九十百千万]+(?:点[零〇一二两三四五六七八九]+[十百千万]?)?)"
"""A Chinese numeral inside a longer pattern: 三千二, 两万五, 一千零五, 三点五万 (点 only between digits)."""

_CN_POINT = "点"
_ABBREVIATING_UNITS = (100, 1000, 10_000)
"""After these units a lone final digit counts in the next unit down: 三千二 = 3,200, 一万二 = 12,000
(十二 is 12 either way)."""


def _cn_integer(text: str) -> float | None:
    total = 0
    section = 0
    digit: int | None = None
    last_unit: int | None = None
    run = 0  # digits in the current run: 一二八 is read digit by digit as 128; 一千零五 is not abbreviated
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch] if digit is None else digit * 10 + _CN_DIGITS[ch]
            run += 1
            continue
        unit = _CN_UNITS[ch]
        if unit == 10_000:
            section = (section + (digit or 0)) or 1
            total += section * unit
            section = 0
        else:
            section += (1 if digit is None else digit) * unit
        digit, last_unit, run = None, unit, 0
    if digit is not None and run == 1 and last_unit in _ABBREVIATING_UNITS:
        digit *= last_unit // 10
    return float(total + section + (digit or 0))


def cn_numeral(text: str) -> float | None:
    """十六 → 16, 一百二十八 → 128, 两 → 2, 千 → 1000, 三千二 → 3200, 一万二 → 12000, 三点五万 → 35000;
    None when `text` is not a Chinese numeral."""
    whole, point, fraction = text.partition(_CN_POINT)
    if not whole or any(ch not in _CN_DIGITS and ch not in _CN_UNITS for ch in whole):
        return None
    if not point:
        return _cn_integer(whole)
    scale = 1
    if fraction and fraction[-1] in _CN_UNITS:
        scale, fraction = _CN_UNITS[fraction[-1]], fraction[:-1]
    if not fraction or any(ch not in _CN_DIGITS for ch in fraction):
        return None
    integer = _cn_integer(whole)
    if integer is None:
        return None
    decimals = "".join(str(_CN_DIGITS[ch]) for ch in fraction)
    return (integer + float("0." + decimals)) * scale


_MANTISSA_TIMES_POWER = re.compile(r"(\d+(?:\.\d+)?)\s*[x×*]\s*(10\s*(?:\^|\*\*)\s*\d+)")


def number(text: str) -> float | None:
    """Arabic (with thousands commas, decimals, 10^N / 1eN), Chinese or English number words."""
    raw = text.strip().lower().replace(",", "").replace("_", "")
    if not raw:
        return None
    if raw in EN_NUMBERS:
        return float(EN_NUMBERS[raw])
    mantissa = _MANTISSA_TIMES_POWER.fullmatch(raw)
    if mantissa is not None:  # "2x10^3": the power's base is the 10, not "2x10"
        scale = number(mantissa.group(2))
        return None if scale is None else float(mantissa.group(1)) * scale
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


def scaled_number(text: str, units: Mapping[str, float]) -> float | None:
    """A number with an optional unit suffix, as flags are typed: "10k", "32K", "1.5万", "三点五万", "32,768".

    `units` says what each suffix multiplies by (the caller's: context counts k as 1,024 as the text does,
    batch as 1,000). None for anything else ("10kk", "lots", "k").
    """
    raw = text.strip().lower().replace(",", "").replace("_", "")
    if raw and raw[-1] in units:
        head = raw[:-1].strip()
        value = number(head) if head else None
        if value is not None:
            return value * units[raw[-1]]
    return number(raw)
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


_GROUPED_THOUSANDS = re.compile(r"(?<![A-Za-z0-9.,])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)")


def ungroup_thousands(text: str) -> str:
    """`text` with ASCII thousands separators taken out of numbers ("1,500 tokens" → "01500 tokens"), padded
    with leading zeros so offsets stay valid. Why: dozens of slot patterns read a plain digit run, and each of
    them would read "1,500" as 500 or "1,000-token" as 000 (audit 18 H-1); one normalisation serves them all.
    Only ASCII commas before groups of exactly three digits are taken, after no letter, digit or dot: a
    full-width "，" between numbers in Chinese is a clause break ("并发 32，128 路"), and "FP8,128k" a list."""
    if "," not in text:
        return text
    return _GROUPED_THOUSANDS.sub(lambda m: m.group(0).replace(",", "").rjust(len(m.group(0)), "0"), text)


_CLAUSE_COMMA_BETWEEN_DIGITS = re.compile(r"(?<=\d)，(?=\s*\d)")


def keep_clause_commas(text: str) -> str:
    """`text` with a full-width comma between two numbers made an ideographic one ("并发 32，128k 上下文" →
    "并发 32、128k 上下文"), one character for one. Why: NFKC folds "，" to ",", after which "32,128k" reads as one
    grouped number (a 10M-token context with no batch, audit 19 H-2); in Chinese "，" is a clause break."""
    return _CLAUSE_COMMA_BETWEEN_DIGITS.sub("、", text) if "，" in text else text

