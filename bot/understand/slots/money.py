"""Money and where it is spent: the cloud named, a consumer card, and a budget/cheapest cue."""

from __future__ import annotations

import re

from bot.understand.slots.base import SlotState, first_label, rx

CLOUDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("alibaba", rx(r"阿里云|阿里|\baliyun\b|\balibaba\b|\balicloud\b|\bpai[-_ ]?eas\b")),
    ("aws-china", rx(r"\baws\s*(?:china|中国|宁夏|北京)|亚马逊云?(?:科技)?\s*(?:中国|宁夏|北京)|\bamazon\s+china\b"
                     r"|\bcn-north(?:west)?-1\b")),
    ("aws", rx(r"\baws\b|\bamazon\b|亚马逊|\bec2\b|\bsagemaker\b")),
    ("azure", rx(r"\bazure\b|微软云")),
    ("gcp", rx(r"\bgcp\b|\bgoogle\s+cloud\b|谷歌云|\bgoogle\s+compute\b|\bvertex\b")),
    ("lambda", rx(r"\blambda(?:\s*labs?|\s*cloud)?\b(?!\s*(?:function|expression|calculus))")),
    ("nebius", rx(r"\bnebius\b")),
    ("runpod", rx(r"\brun\s?pod\b")),
    ("hyperstack", rx(r"\bhyperstack\b")),
    ("verda", rx(r"\bverda\b|\bdatacrunch\b")),
)
def clouds_named(text: str) -> list[str]:
    """Every cloud the text names, in the order written; AWS China is not also AWS."""
    found: list[tuple[int, str]] = []
    for label, pattern in CLOUDS:
        for m in pattern.finditer(text):
            if not any(start <= m.start() < start + 12 and other == "aws-china" for start, other in found):
                found.append((m.start(), label))
    ordered = [label for _, label in sorted(found)]
    return list(dict.fromkeys(label for label in ordered
                              if not (label == "aws" and "aws-china" in ordered)))


BUDGET = rx(
    r"\bcheap\w*|(?<!token\s)(?<!tokens\s)(?<!context\s)(?<!thinking\s)(?<!reasoning\s)\bbudget\b"
    r"(?!\s+(?:per|for\s+each|of)\s+(?:request|reply|response|answer|call|\d+\s*k?\s*tokens?))|"
    r"\bcost[-_ ]?effective\b|\baffordabl\w*|\blowest[-_ ]cost\b|\bleast\ expensive\b|"
    r"\binexpensive\b|\bsave\ money\b|\bbang\ for\ (?:the|my|your)\ buck\b|\blow[-_ ]cost\b|"
    r"\bcost\s+(?:matters|counts)\s+more\b|\bmatters?\s+less\s+than\s+(?:the\s+)?(?:cost|price|money)\b|"
    r"\bcare\s+(?:more\s+|most\s+)?about\s+(?:the\s+)?(?:cost|price)\b|\bminimi[sz]e\s+(?:the\s+)?(?:cost|spend|bill)\b|"
    r"\bcost\s+(?:is|being)\s+(?:the|our|my)\s+(?:main|first|top|biggest)\s+(?:concern|priority|constraint)\b|"
    r"性价比|预算有限|预算不多|预算少|便宜|省钱|成本最低|最低成本|低成本|划算|经济实惠|实惠|穷|成本优先|成本为主|控制成本|"
    r"更看重成本|更在意成本|成本更重要"
)
"""Asks for the cheapest set-up that does the job: "cheapest", "budget", or cost said to matter more than speed
("latency matters less than cost", "成本优先")."""

CONSUMER = rx(
    r"\bconsumer[-_ ](?:grade\s+)?(?:gpus?|cards?|graphics|hardware)\b|"
    r"\bgaming\s+(?:gpus?|cards?|pcs?|rigs?|laptops?)\b|"
    r"\bgeforce\s+(?:gpus?|cards?)\b|\bhome\s*lab\b|\bat\s+home\b|"
    r"\bon\s+my\s+(?:own\s+)?(?:gaming\s+)?(?:pc|desktop|rig|laptop)\b|"
    r"消费级|消費級|游戏卡|遊戲卡|游戏显卡|遊戲顯卡|家用|个人电脑|個人電腦"
)
"""The cards someone buys for a desk, not rents: "a consumer GPU", "a gaming card", "at home", 消费级显卡. The
picks are then GeForce cards (Radeon when one is named), not the datacenter cards a team rents."""

_PHRASE_END = r"(?=\s*(?:$|[,.;:!?)/]|(?:please|pls|and|or|per|each|a|an|instead|too|only)\b))"
"""What may follow "in EUR" when it names the money's currency, not a place ("in euro countries")."""
CURRENCIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("EUR", rx(r"\b(?:in|into|as)\s+(?:eur|euros?|€)" + _PHRASE_END + r"|(?:用|按|以|换算成)欧元|欧元(?:计|计价|算)")),
    ("CNY", rx(r"\b(?:in|into|as)\s+(?:cny|rmb|yuan|renminbi|chinese\s+yuan)" + _PHRASE_END
               + r"|(?:用|按|以|换算成)人民币|人民币(?:计|计价|算)|多少\s*人民币")),
    ("USD", rx(r"\b(?:in|into|as)\s+(?:usd|us\s+dollars?|dollars?)" + _PHRASE_END
               + r"|(?:用|按|以|换算成)美元|美元(?:计|计价|算)"
               + r"|多少\s*(?:钱\s*)?(?:美金|美元|刀)|(?:几|多少)\s*(?:千|万|百)?\s*(?:美金|美元)")),
    ("TWD", rx(r"\b(?:in|into|as)\s+(?:twd|ntd|nt\$|new\s+taiwan\s+dollars?)" + _PHRASE_END
               + r"|(?:用|按|以|换算成|換算成)(?:新)?(?:台币|台幣)|(?:台币|台幣)(?:计|計|计价|計價|算)"
               + r"|多少\s*(?:钱\s*|錢\s*)?(?:新)?(?:台币|台幣)")),
)
"""The currency a question asks its money in ("the cost in EUR", "用美元算"): shown in it when the prices are
quoted in it or the operator set a rate to it, else the reply says why not."""


def parse_money(state: SlotState) -> None:
    cloud = first_label(CLOUDS, state.text)
    if cloud is not None:
        state.set("cloud", cloud)
        named = clouds_named(state.text)
        if len(named) > 1:
            state.set("other_clouds", [c for c in named if c != cloud])  # "AWS vs GCP": each is priced
    currency = first_label(CURRENCIES, state.text)
    if currency is not None:
        state.set("currency", currency)
    if BUDGET.search(state.text):
        state.set("budget", True)
    if CONSUMER.search(state.text):
        state.set("consumer", True)
