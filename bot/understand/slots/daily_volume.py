"""A day's token volume split into prompt and output, and the peak or busy window it is sized at.

"日均 5 亿 token（输入:输出约 4:1），峰值是均值的 3 倍" is a load: 500M tokens a day is 5,787 tokens a second on
average, four fifths of them prompt, and the service must carry three times that at its peak. Read as one number it
was a 10M-token context and an output of 4 tokens (audit 24 HIGH 7). A volume with no split stays the output it
was read as before (bot.understand.slots.workload_size); a peak factor scales every rate a day's volume gave.
"""

from __future__ import annotations

from bot.understand.numbers import COUNT_SCALES
from bot.understand.slots.base import SlotState, rx
from bot.understand.slots.context import RATIO, in_out_lengths

_NUM = r"(?P<num>\d+(?:\.\d+)?)"
_SCALE = r"(?P<scale>k|m|mn|b|bn|thousand|million|billion|万|亿|千万|百万)?"
DAILY_TOKENS = rx(
    r"(?:日均|每天|每日|一天|平均每天|daily)\s*(?:要|需要|约|大概|大约)?\s*(?:处理|生成|消耗|跑|服务|调用|总共|合计)?\s*"
    r"(?:约|大约|about|around|~)?\s*" + _NUM + r"\s*" + _SCALE + r"\s*(?:个\s*)?(?:tokens?|toks?|词元)"
    r"|(?<![a-z0-9.])" + _NUM.replace("num", "num2") + r"\s*" + _SCALE.replace("scale", "scale2")
    + r"\s*(?:tokens?|toks?)\s*(?:(?:a|per|each|every)\s+day|/\s*day|daily)\b")
_PEAK = rx(
    r"(?:峰值|高峰(?:期)?)\s*(?:流量|负载)?\s*(?:是|为|约|大约|能到|可达|达到|会)*\s*(?:均值|平均值?|平时|日常|平均水平)?\s*的?\s*"
    r"(?P<f>\d+(?:\.\d+)?)\s*倍"
    r"|\bpeak\s*(?:load|traffic)?\s*(?:is|of|at|=|reaches)?\s*(?:about|around|~|roughly)?\s*(?P<f2>\d+(?:\.\d+)?)\s*"
    r"(?:x|×|times)(?:\s+(?:the\s+)?(?:average|mean))?"
    r"|(?P<f3>\d+(?:\.\d+)?)\s*(?:x|×)\s+(?:the\s+)?(?:average|mean)\s+at\s+(?:the\s+)?peak")
_AMOUNT_SCALE = r"(?:k|m|mn|b|bn|thousand|million|billion|万|亿|千万|百万)"
_PROMPT_AMOUNT = rx(
    r"(?<![a-z0-9.])(?P<n>\d+(?:\.\d+)?)\s*(?P<s>" + _AMOUNT_SCALE + r")\s*(?:tokens?\s+)?(?:of\s+)?"
    r"(?:prompts?|inputs?|in)\b"
    r"|(?:输入|提示词?|prompt)\s*(?:约|大约|大概)?\s*(?P<n2>\d+(?:\.\d+)?)\s*(?P<s2>" + _AMOUNT_SCALE + r")")
_OUTPUT_AMOUNT = rx(
    r"(?<![a-z0-9.])(?P<n>\d+(?:\.\d+)?)\s*(?P<s>" + _AMOUNT_SCALE + r")\s*(?:tokens?\s+)?(?:of\s+)?"
    r"(?:generated|generation|outputs?|completions?|out)\b"
    r"|(?:输出|生成)\s*(?:约|大约|大概)?\s*(?P<n2>\d+(?:\.\d+)?)\s*(?P<s2>" + _AMOUNT_SCALE + r")")
"""A day's prompt and output written as amounts ("(roughly 120M prompt, 30M generated)", "（输入 4 亿、输出 1 亿）"):
the split of the day's volume, each at least a hundred thousand tokens (a request's own lengths are thousands)."""
_DAY_AMOUNT_MIN = 1e5
MAX_PEAK_FACTOR = 100.0
"""A peak more than a hundred times the average is no daily load's shape."""
_SECONDS_A_DAY = 86_400.0


def _scaled(value: str | None, scale: str | None) -> float | None:
    if value is None:
        return None
    return float(value) * COUNT_SCALES.get((scale or "").lower(), 1.0)


SERVED_DAY_MIN_TOKENS = 1e6
"""A day's token volume from this size is a service's load ("每天大概 5 亿 token"); smaller figures next to "a day" are
a document's length ("articles of 3000 tokens a day")."""


def names_day_volume(state: SlotState) -> bool:
    """Whether the text states a day's token volume of a service's size."""
    volume = DAILY_TOKENS.search(state.text)
    if volume is None:
        return False
    total = _scaled(volume.group("num") or volume.group("num2"), volume.group("scale") or volume.group("scale2"))
    return (total or 0.0) >= SERVED_DAY_MIN_TOKENS


def _day_amounts(state: SlotState) -> tuple[float, float, list[tuple[int, int]]] | None:
    """(prompt tokens, output tokens, their spans) when a day's volume is written as the two amounts."""
    if _DAY_CUE.search(state.text) is None:
        return None
    prompt, output = _PROMPT_AMOUNT.search(state.text), _OUTPUT_AMOUNT.search(state.text)
    if prompt is None or output is None:
        return None
    amounts = [_scaled(m.group("n") or m.group("n2"), m.group("s") or m.group("s2")) or 0.0 for m in (prompt, output)]
    if min(amounts) < _DAY_AMOUNT_MIN:
        return None
    return amounts[0], amounts[1], [prompt.span(), output.span()]


def daily_token_rates(state: SlotState) -> dict[str, float]:
    """`prompt_tokens_per_s` and `output_tokens_per_s` from a day's token volume split by an input:output ratio, or
    by the two amounts written (all of it output when no split is said); the spans are masked."""
    volume, ratio = DAILY_TOKENS.search(state.text), RATIO.search(state.text)
    amounts = _day_amounts(state) if ratio is None else None
    if volume is None and amounts is None:
        return {}
    total = (_scaled(volume.group("num") or volume.group("num2"), volume.group("scale") or volume.group("scale2"))
             if volume is not None else None) or (amounts[0] + amounts[1] if amounts else None)
    # with no ratio, the two amounts written ("120M prompt, 30M generated": audit 28 HIGH 42, read as a context
    # length before), else each request's prompt and output lengths split it ("2M tokens a day (avg 1.5k prompt,
    # 300 out)", audit 24 LOW-31); with none the day's tokens are the output, as "N output tokens a day" is read
    pair = in_out_lengths(state.text) if ratio is None and amounts is None else None
    prompt_share, output_share = ((float(ratio.group("a")), float(ratio.group("b"))) if ratio
                                  else amounts[:2] if amounts else pair if pair else (0.0, 1.0))
    if not total or prompt_share + output_share <= 0:
        return {}
    for start, end in (amounts[2] if amounts else []):
        state.mask(start, end)
    if volume is not None:
        state.mask(volume.start(), volume.end())
    if ratio is not None:
        state.mask(ratio.start(), ratio.end())
    per_second = total / _SECONDS_A_DAY
    both = prompt_share + output_share
    rates = {"output_tokens_per_s": per_second * output_share / both}
    if prompt_share:
        rates["prompt_tokens_per_s"] = per_second * prompt_share / both
    return rates


def peak_factor(state: SlotState) -> float | None:
    """"峰值是均值的 3 倍", "peak is 3x the average": the factor the day's average rates are sized up by."""
    m = _PEAK.search(state.text)
    if m is None:
        return None
    factor = float(m.group("f") or m.group("f2") or m.group("f3"))
    if not 1.0 <= factor <= MAX_PEAK_FACTOR:
        return None
    state.mask(m.start(), m.end())
    return factor


_WINDOW = rx(
    r"\b(?:during|within|in|over|across)\s+(?:the\s+)?(?:about\s+|roughly\s+|~)?(?P<h>\d{1,2})\s+"
    r"(?:working|business|office|work|peak|busy)\s+hours\b"
    r"|\b(?P<h2>\d{1,2})[- ]hour\s+(?:working|business|office|work)\s+day\b"
    r"|(?:集中在|都在|主要在)\s*(?:白天)?\s*(?P<h3>\d{1,2})\s*(?:个)?\s*(?:工作)?\s*小时"
    r"|(?P<h4>\d{1,2})\s*(?:个)?\s*工作小时")
"""A busy window the day's volume arrives in ("mostly during 8 working hours", "集中在 8 个小时"): its rate is the
day's over those hours, not over 24 (audit 24 HIGH 18)."""
_DAY_CUE = rx(r"\b(?:a|per|each|every)\s+day\b|/\s*day\b|\bdaily\b|每天|每日|日均|一天")


def busy_window_factor(state: SlotState) -> float | None:
    """24 over the busy hours a day's volume arrives in, when both are said; the span is masked."""
    m = _WINDOW.search(state.text)
    if m is None or _DAY_CUE.search(state.text) is None:
        return None
    hours = float(m.group("h") or m.group("h2") or m.group("h3") or m.group("h4"))
    if not 1.0 <= hours < 24.0:
        return None
    state.mask(m.start(), m.end())
    return 24.0 / hours
