"""A budget with an amount ("under $2 an hour", "budget $3,000 a month", "预算每月1万元", "每小时不超过20元").

Someone who states what they can spend wants the cheapest set-up that fits, and to be told whether it is within
that sum; a reply that proposes twice their budget without a word answers another question. An amount is read
after "budget"/"预算", or after a cue such as "under" or "不超过" when a currency or a period goes with it, and
never when a unit of something else follows it: "under 24GB", "budget of 100 hours" or "4k tokens" are not money.
"""

from __future__ import annotations

import re
from typing import Any

from bot.understand.numbers import number
from bot.understand.slots.base import SlotState, rx

_CUE_EN = (r"(?:(?P<cue>budget)(?:\s+(?:is|of))?|(?:spend(?:ing)?\s+)?cap(?:ped)?(?:\s+(?:of|at))?|spend(?:ing)?|"
           r"under|below|up\s+to|at\s+most|max(?:imum)?|"
           r"no\s+more\s+than|less\s+than|within|afford|<=?|(?:i\s+)?have|(?:i'?ve\s+)?got|with|pay(?:ing)?)")
_AMOUNT = (r"(?P<num>\d[\d,]*(?:\.\d+)?|[一二两三四五六七八九十百千]+(?=\s*(?:万|千|元|块)))(?![\d.,])"
           r"(?:\s*+(?P<scale>k|m|thousand|万|千))?"
           r"(?!\s*(?:b\b|bn\b|billion|gpu|gb|gib|tb|g\b|h(?:ou)?rs?\b|h\b|days?\b|weeks?\b|minutes?\b|tokens?|"
           r"cards?|x\b|×|张|块卡|卡|个?小时|天|周|分钟|亿|词元|token))")
"""A number followed by a unit of something else (hours, GPUs, GB, tokens) is that, not money."""
_CURRENCY_AFTER = (r"(?:\s*+(?P<cur>usd|us\$|dollars?|bucks|\$|cny|rmb|yuan|元?(?:新台币|台币)|元|块(?:钱|人民币)?|"
                   r"人民币|美元|美金|刀|ntd|twd))?")
_PERIOD = (r"(?P<per>(?:\s*+/|\s*+(?:per|an?|each|every)\s++|\s*+每)\s*+(?:h(?:ou)?rs?\b|hour|gpu[- ]?hour|month|"
           r"mo\b|小时|个?月|day|天)|\s*+(?:hourly|monthly|一个月|一小时|每月|每小时|/月|/小时))?")

BUDGET_EN = rx(_CUE_EN + r"\s*(?:of\s+|around\s+|about\s+|like\s+|roughly\s+|approx(?:imately|\.)?\s+|~\s*)?"
               r"(?P<pre>\$|usd\s*|us\$|€)?\s*" + _AMOUNT
               + _CURRENCY_AFTER + _PERIOD)
BUDGET_ZH = rx(r"(?:(?P<cue>预算)|不超过|不高于|最多|控制在|以内)\s*"
               r"(?P<per0>每月|每个月|一个月|月|每小时|一小时|每天)?\s*"
               r"(?:总共|总计|一共|合计|共)?\s*(?:是|为|在|约|大概|大约|有)?\s*"
               r"(?P<pre>新台币|台币|nt\$|ntd|twd|美元|人民币|\$)?\s*"
               + _AMOUNT + _CURRENCY_AFTER + _PERIOD)
ZH_PERIOD_FIRST = rx(r"(?P<per0>每月|每个月|每小时|每天)\s*(?:预算|不超过|最多)?\s*" + _AMOUNT
                     + r"\s*(?P<cur>元?(?:新台币|台币)|元|块(?:钱|人民币)?|人民币|美元|美金|刀)" + _PERIOD)

ZH_AMOUNT_FIRST = rx(r"(?<![\d.])" + _AMOUNT
                     + r"(?:\s*+(?P<cur>元|块钱?|人民币|美元|美金|刀))?(?:\s*+的)?\s*+(?P<cue>预算)")
"""A sum before the word ("50 万人民币预算", "5 萬美元預算" folded to 5 万美元预算)."""
EN_AMOUNT_FIRST = rx(r"(?P<pre>\$|us\$|€)?\s*" + _AMOUNT + _CURRENCY_AFTER + _PERIOD
                     + r"[\s-]*+(?:(?:total|overall|cloud|compute|gpu|training|monthly)\s++)?"
                     r"(?:(?:capex|opex|hardware|server|annual|yearly|it|infra(?:structure)?)\s++)?"
                     r"(?P<cue>budget|capex|opex)\b")
"""A sum before the word in English ("We have a $3,000 budget", "a 5k USD/month budget": audit 24 M-28, read as
"cheapest" with the amount lost)."""

PURCHASE = rx(r"\b(?:buy(?:ing)?|purchas\w*|build(?:ing)?\s+a\s+(?:pc|rig|workstation|server|machine))\b|"
              r"\b(?:locally|at\s+home|on\s+my\s+(?:own\s+)?(?:pc|desktop|rig|machine))\b|"
              r"(?<!租)买|购买|采购|购置|配一台|装一台|攒一台|本地|家用|自建|自购")
"""A budget to buy hardware with, not to rent it: "buy a GPU for $3,000", "预算5万元，买什么显卡", and a card to run
a model "locally under $500" (本地部署)."""
BUDGET_FOR = rx(r"\bfor\s+(?:about\s+|around\s+|roughly\s+|~)?(?P<pre>\$|usd\s*|us\$|€)?\s*" + _AMOUNT
                + _CURRENCY_AFTER + _PERIOD)
"""A price after "for": a budget in a purchase ("buy a GPU for about 3000 dollars") or with its currency ("rent a
GPU for $3,000 a month"), never a bare number ("for 100 hours", "for 32 users")."""

HARDWARE_PRICE = rx(r"(?:\bcosts?|\bpriced\s+at|\bprice\s+(?:is|of|tag\s+of)|\bsells?\s+for|\bgoes\s+for|"
                    r"售价|报价|价格|要价|得花|要花|需要|要)\s*(?:(?:is|of|about|around|roughly|approx(?:imately|\.)?|like|~|约|大概|大约)\s*)*"
                    r"(?P<pre>\$|usd\s*|us\$|€|人民币|美元)?\s*" + _AMOUNT + _CURRENCY_AFTER + _PERIOD)
"""What the hardware to buy costs ("an 8x H100 server costs about $250k", "一台 8 卡 H100 服务器要 200 万"): in a
question about buying, the sum the purchase is weighed at (audit 38 HIGH-115: "$250k" was read as a 256k-token
context and the buy-or-rent question went unanswered). Read only beside a purchase word, and only with a currency
or a scale ("250k", "200 万"), so "costs 3 hours" or "要 2 张卡" stay what they are."""

_RATE_BEFORE = rx(r"(?:每(?:个)?(?:小时|月|天|日)|\bper\s+(?:hour|month|day)|\bhourly|\bmonthly)\s*\S{0,4}\s*$")
"""A period written before a price ("每小时要 20 元"): a rate."""

_RENT_AFTER = rx(r"(?:\brent\w*|\brental|\bon[-\s]demand|租)[^.?!。？；;\n]{0,40}?(?P<pre>\$|usd\s*|us\$|€)?\s*"
                 + _AMOUNT + _CURRENCY_AFTER
                 + r"\s*(?:/\s*|per\s+|an?\s+|每)\s*(?:h(?:ou)?r\b|hour|小时)"
                   r"(?P<card>\s*(?:per|each|/|a)\s*(?:card|gpu)|\s*每(?:张|卡))?")
_RENT_BEFORE = rx(r"(?:\brent\w*|租)[^.?!。？；;\n]{0,20}?每(?:个)?小时\s*(?:要|是|约|大约)?\s*"
                  r"(?P<pre>\$|usd\s*|美元)?\s*" + _AMOUNT + _CURRENCY_AFTER)
"""The hourly rent a buyer states for the alternative ("rent 4090s on RunPod at $0.69/hr per card", "租 H100 每小时 2
美元"): weighed against the purchase price instead of the catalogue's (audit 40 HIGH-125: ignored)."""

_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "万": 1e4, "千": 1e3}
_USD = frozenset({"usd", "us$", "dollar", "dollars", "bucks", "$", "美元", "美金", "刀"})
_CNY = frozenset({"cny", "rmb", "yuan", "元", "块", "块钱", "人民币"})
_TWD = frozenset({"新台币", "台币", "nt$", "ntd", "twd"})


def _period(text: str) -> str | None:
    cleaned = text.strip().lower()
    if not cleaned:
        return None
    if re.search(r"h(?:ou)?r|hour|小时", cleaned):
        return "hour"
    if re.search(r"month|mo\b|月", cleaned):
        return "month"
    if re.search(r"day|天", cleaned):
        return "day"
    return None


def default_budget_currency(lang: str) -> str:
    """The currency of a sum written without one: the question's language's (the one its prices are shown in)."""
    return "USD" if lang == "en" else "CNY"


def _currency(raw: str | None, lang: str) -> str:
    key = (raw or "").strip().lower()
    if key in _USD or key.startswith("$"):
        return "USD"
    if key in _TWD or key.endswith("台币"):  # "一万元台币": New Taiwan dollars, not yuan
        return "TWD"
    if key in _CNY or key.startswith("块"):
        return "CNY"
    if key == "€":
        return "EUR"
    if key in _TWD:
        return "TWD"
    return default_budget_currency(lang)


def parse_budget(state: SlotState, lang: str) -> dict[str, Any]:
    """Question fields for a stated budget (amount, currency, per hour / day / month or in all), and beside a
    purchase the rent stated for the alternative; the spans are masked so no other slot reads their numbers. `lang`
    is the question's language (bot.understand.lang)."""
    purchase = PURCHASE.search(state.text) is not None
    rent = _stated_rent(state, lang) if purchase else {}
    return {**_budget(state, lang, purchase), **rent} if rent else _budget(state, lang, purchase)


def _stated_rent(state: SlotState, lang: str) -> dict[str, Any]:
    m = _RENT_AFTER.search(state.text) or _RENT_BEFORE.search(state.text)
    if m is None:
        return {}
    value = number(m.group("num"))
    if value is None or value <= 0:
        return {}
    state.mask(m.start(), m.end())
    return {"rent_per_hour": value, "rent_currency": _currency(m.group("cur") or m.group("pre"), lang),
            "rent_per_card": bool(m.groupdict().get("card"))}


def _budget(state: SlotState, lang: str, purchase: bool) -> dict[str, Any]:
    text = state.text
    if purchase:
        for m in HARDWARE_PRICE.finditer(text):
            if m.group("per") or _RATE_BEFORE.search(text[max(0, m.start() - 12): m.start()]):
                continue  # "renting an H100 costs $2.5/hour", "每小时要 20 元": a rental rate, not a price to buy at
            raw_currency = m.group("cur") or m.group("pre")
            value = number(m.group("num"))
            if value is None or value <= 0 or (raw_currency is None and not m.group("scale")):
                continue
            state.mask(m.start(), m.end())
            return {"budget_amount": value * _SCALE.get((m.group("scale") or "").lower(), 1.0),
                    "budget_currency": _currency(raw_currency, lang), "budget_period": "purchase"}
    for pattern in (ZH_PERIOD_FIRST, BUDGET_ZH, ZH_AMOUNT_FIRST, EN_AMOUNT_FIRST, BUDGET_EN, BUDGET_FOR):
        for m in pattern.finditer(text):
            groups = m.groupdict()
            raw_currency = groups.get("cur") or groups.get("pre")
            period = _period((groups.get("per0") or "") + " " + (groups.get("per") or ""))
            if pattern is BUDGET_FOR and raw_currency is None and not purchase:
                continue
            if raw_currency is None and period is None and not groups.get("cue"):
                continue  # "under 24 GB", "up to 8 GPUs": no money in it ("budget 5k" is money by its word)
            value = number(groups["num"])
            if value is None or value <= 0:
                continue
            value *= _SCALE.get((groups.get("scale") or "").lower(), 1.0)
            currency = _currency(raw_currency, lang)
            state.mask(m.start(), m.end())
            if purchase and period is None:
                return {"budget_amount": value, "budget_currency": currency, "budget_period": "purchase"}
            return {"budget_amount": value, "budget_currency": currency, "budget_period": period or "total"}
    return {}
