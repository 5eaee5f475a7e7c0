"""An API's price per million tokens the question sets its own serving against ("vs paying an API at $0.20 per
million", "对比 API 每百万 token 1 元"): the reply says which is cheaper and at what share of full load they cost the
same (audit 30 LOW-132: the price was read nowhere)."""

from __future__ import annotations

import re
from typing import Any

_API_PRICE = (
    re.compile(r"\b(?:api|apis|openai|together|groq|deepinfra|fireworks|openrouter|bedrock|provider)\b[^.?!\n]{0,40}?"
               r"(?P<cur>\$|usd\s*|us\$)?\s*(?P<v>\d+(?:\.\d+)?)\s*(?P<cur2>usd|dollars?|cents?)?\s*"
               r"(?:per|/|a|an)\s*(?:1\s*)?(?:m|million|mtok|1m)\b", re.I),
    re.compile(r"api[^，。？?\n]{0,20}?每\s*(?:百万|1\s*m|100\s*万)\s*(?:个\s*)?token\s*(?P<v>\d+(?:\.\d+)?)\s*"
               r"(?P<cur>元|美元|人民币|usd|\$)?", re.I),
)


def parse_api_price(text: str) -> dict[str, Any]:
    """{api_price_per_million, api_price_currency} when the text sets an API's price per million tokens."""
    for pattern in _API_PRICE:
        m = pattern.search(text)
        if m is None:
            continue
        value = float(m.group("v"))
        unit = (m.groupdict().get("cur") or "") + (m.groupdict().get("cur2") or "")
        if "cent" in unit.lower():
            value /= 100.0
        currency = "CNY" if unit.strip() in ("元", "人民币") else "USD"
        if value > 0:
            return {"api_price_per_million": value, "api_price_currency": currency}
    return {}


__all__ = ["parse_api_price"]
