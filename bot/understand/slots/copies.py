"""How many copies of a model one card holds at once ("一张 A100 80G 能同时跑几个 7B 模型", "how many 7B models can I
run at once on one A100?").

The count asked is of processes, each loading its own weights, not of users: answered for one model it said
"Yes: 14.7 GiB" and never gave the number (audit 29 M-68). A count of cloud instances ("how many p5 instances do
I need") or of requests ("同时跑几个请求") is not this question: the noun must be a model, an instance of it or a
copy, and the verb one of holding or running it.
"""

from __future__ import annotations

import re

_EN_NOUN = r"(?:models?|copies|instances|replicas|processes)"
_COPIES = (
    re.compile(r"\bhow\s+many\s+(?:[\w.\-]+\s+){0,4}?" + _EN_NOUN + r"\b(?:\s+of\s+[\w.\-]+){0,1}"
               r"(?:\s+[\w.\-]+){0,2}?\s+(?:can|could|will|would|fit|to\s+run|to\s+load)\b"
               r"(?=.*\b(?:at\s+once|simultaneously|at\s+the\s+same\s+time|concurrently|side\s+by\s+side|together"
               r"|on\s+(?:one|a|1|a\s+single|the\s+same|an?|each|this|my|our)\b"
               r"|\b(?:one|a\s+single)\s+(?:card|gpu|[a-z]*\d)))", re.I),
    re.compile(r"(?:跑|部署|运行|運行|加载|載入|放|起|装|裝|塞|容纳|容納|承载|承載)(?:得下|得了)?\s*(?:几|幾|多少)\s*(?:个|個|份|套)"
               r"\s*[\w.\-\s]{0,30}?(?:模型|实例|實例|副本|进程|進程|拷贝|拷貝)", re.I),
)


def asks_copies(text: str) -> bool:
    """True when the text asks how many copies of a model the cards hold at once."""
    return any(pattern.search(text) for pattern in _COPIES)


__all__ = ["asks_copies"]
