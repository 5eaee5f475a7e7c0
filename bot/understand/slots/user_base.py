"""A product's user base ("10k daily active users", "50k MAU", "日活 1 万"): how many use it in a day or a month.

It is not a load: the cards are sized by the sequences generated at once at the busiest moment, which a user base
does not give without how often and how long each user asks. Read as a context ("10k" → 10,240 tokens), a budget
("50k monthly users" → 50,000 USD a month) or concurrency ("10,000 daily users" → 10,000 at once) it mis-sized
replies by up to 50× (audit 29 HIGH 54); it is read here, masked, and the reply asks for the peak instead.
"""

from __future__ import annotations

from typing import Any

from bot.understand.numbers import COUNT_SCALES, number
from bot.understand.slots.base import SlotState, rx

_NUM = r"(?P<num>\d[\d,]*(?:\.\d+)?|[一二两三四五六七八九十百千]+)\s*(?P<scale>k|thousand|m|million|万|千|亿)?"
_USER_BASE = (
    rx(r"(?<![\w.])" + _NUM + r"\s*(?P<per>daily|monthly|weekly)\s+(?:active\s+)?"
       r"(?:users?|customers?|visitors?|players?|members?)(?![a-z])"),
    rx(r"(?<![\w.])" + _NUM + r"\s*(?P<per>dau|mau|wau)\b"),
    rx(r"(?P<per>日活|月活|周活)(?:跃)?(?:用户)?(?:数|量)?\s*(?:约|大约|大概|有|是|为|[:：])?\s*" + _NUM
       + r"(?:\s*(?:人|个|名))?"),
    rx(r"(?<![\w.])" + _NUM + r"\s*(?:的)?\s*(?P<per>日活|月活|周活)"),
)
_PERIODS = {"daily": "day", "dau": "day", "日活": "day", "monthly": "month", "mau": "month", "月活": "month",
            "weekly": "week", "wau": "week", "周活": "week"}


def parse_user_base(state: SlotState) -> dict[str, Any]:
    """Question fields for a user base (`user_base`, `user_base_period`); the span is masked so the context, budget
    and batch slots never read its number."""
    for pattern in _USER_BASE:
        m = pattern.search(state.text)
        if m is None:
            continue
        value = number(m.group("num").replace(",", ""))
        if value is None or value < 1:
            continue
        value *= COUNT_SCALES.get((m.group("scale") or "").lower(), 1.0)
        state.mask(m.start(), m.end())
        state.stated += ["user_base", "user_base_period"]
        return {"user_base": int(min(value, 1e10)), "user_base_period": _PERIODS[m.group("per").lower()]}
    return {}


__all__ = ["parse_user_base"]
