"""Weight formats set against each other ("AWQ, GPTQ or FP8 — which one fits?", "int4 还是 fp8"): each is sized
on the same cards, side by side, rather than one sizing labelled with two formats at the bytes of neither.

The first format named is the one the rest of the reply sizes; `compare_formats` keeps them all, in order.
"""

from __future__ import annotations

import re
from itertools import pairwise

from bot.understand.slots.base import SlotState, rx
from rules.weight_formats import GGUF_BYTES_PER_PARAM

FORMATS: dict[str, tuple[str, str | None]] = {
    "awq": ("int4", "awq"), "gptq": ("int4", "gptq"), "gptq-int8": ("int8", "gptq-int8"), "nf4": ("int4", "nf4"),
    "gguf": ("int4", "gguf-q4_k_m"), "fp8": ("fp8", None), "int8": ("int8", None), "int4": ("int4", None),
    "bf16": ("bf16", None), "fp16": ("fp16", None), "nvfp4": ("int4", "nvfp4"),
    **{quant.removeprefix("gguf-"): ("int8" if int(quant[6]) >= 6 else "int4", quant)
       for quant in GGUF_BYTES_PER_PARAM if re.fullmatch(r"gguf-q\d_[\w]+", quant)},
}
"""(precision, quantisation method) of each format word: a bare GGUF is the usual Q4_K_M, a GGUF type its own
("Q8_0 vs AWQ", "Q5_K_M 和 AWQ": audit 35 HIGH 105/106 had compared Q4_K_M, or fused the two into "int8 AWQ"), and
GPTQ at 8 bits GPTQ-Int8."""
_FORMAT = rx(r"(?<![\w.-])(?P<name>gptq[-_ ]?(?:int)?8(?:[-_ ]?bits?)?|gptq[-_ ]?(?:int)?4(?:[-_ ]?bits?)?|"
             r"(?:gguf[-_ ])?q[2-8]_(?:k_[sml]|k|[01])|awq|gptq|nf4|gguf|fp8|int8|int4|bf16|fp16|nvfp4|fp4|"
             r"8[- ]?bit|4[- ]?bit)(?![\w])")
_JOINED = rx(r"^\s*(?:,|/|\bor\b|\bvs\.?|\bversus\b|\band\b|还是|或者?|和|跟|与|、)\s*(?:\bor\b\s*)?$")
_ALIASES = {"8bit": "int8", "8-bit": "int8", "8 bit": "int8", "4bit": "int4", "4-bit": "int4", "4 bit": "int4",
            "fp4": "nvfp4"}


def _name(written: str) -> str:
    """The FORMATS key a format word is: "GPTQ-Int8" gptq-int8, "gptq 4bit" gptq, "gguf q5_k_m" q5_k_m."""
    key = re.sub(r"^gguf[-_ ]", "", written)
    if key.startswith("gptq") and key != "gptq":
        return "gptq-int8" if "8" in key else "gptq"
    return _ALIASES.get(key, key) if key in FORMATS or key in _ALIASES else key


def formats_compared(state: SlotState) -> list[str]:
    """The formats of a run of two or more joined by "or", "vs", commas or 还是 (each once, in order), else []."""
    return formats_in(state.text)


def formats_in(text: str) -> list[str]:
    """`formats_compared` over `text` as given."""
    run: list[str] = []
    last_end: int | None = None
    for m in _FORMAT.finditer(text):
        name = _name(m.group("name"))
        if last_end is not None and _JOINED.match(text[last_end: m.start()]) is None:
            if len(run) >= 2:
                break
            run = []
        if name not in run:
            run.append(name)
        last_end = m.end()
    return run if len(run) >= 2 else (_set_against(text) or _better_than(text))


_THAN_BEFORE = rx(r"\b(?:better|faster|cheaper|worse|slower|more\s+\w+)\s+than\s+(?:the\s+|an?\s+|using\s+)?$"
                  r"|(?:比|相比于?|跟|和)\s*$")
"""A format set against the one asked after "better than" ("… NVFP4 on 4x B200 … is that better than the FP8 release
on 8x B200?", audit 28 M-48)."""
_ON_CARDS_AFTER = rx(r"^\s*(?:release|checkpoint|version|weights|model)?\s*(?:on|with|用|在)\s*(?P<n>\d{1,3})\s*"
                     r"(?:x|×|张|块)")
"""The cards a format set against another runs on, written right after it ("the FP8 release on 8x B200")."""


def _better_than(text: str) -> list[str]:
    """[first, other] when a later format follows "better than" and differs from the first named, else []."""
    found = [(m, _name(m.group("name"))) for m in _FORMAT.finditer(text)]
    if len(found) < 2:
        return []
    first = found[0][1]
    for m, name in found[1:]:
        if name != first and _THAN_BEFORE.search(text[max(0, m.start() - 30): m.start()]):
            return [first, name]
    return []


def format_counts(text: str, names: list[str]) -> dict[str, int]:
    """The cards each compared format is written to run on, where a count follows it ("FP8 release on 8x B200")."""
    counts: dict[str, int] = {}
    for m in _FORMAT.finditer(text):
        name = _name(m.group("name"))
        after = _ON_CARDS_AFTER.search(text[m.end(): m.end() + 40])
        if name in names and after is not None and name not in counts:
            counts[name] = int(after.group("n"))
    return counts


_AGAINST_BEFORE = rx(r"(?:跟|和|与|同|对比|相比|比起|\bcompared\s+(?:to|with)|\bagainst|\brelative\s+to)\s*$")
"""A second format set against the first after a few words ("FP8 版本有没有意义？跟 bf16 比")."""
_AGAINST_GAP = 24


def _set_against(text: str) -> list[str]:
    """[first, second] when a format is set against one named a few words before it, else []."""
    found = [(m, _name(m.group("name"))) for m in _FORMAT.finditer(text)]
    for (first, a), (second, b) in pairwise(found):
        gap = text[first.end(): second.start()]
        if a != b and len(gap) <= _AGAINST_GAP and _AGAINST_BEFORE.search(gap):
            return [a, b]
    return []


_WHICH_FORMAT = (
    re.compile(r"\b(?:in|at|with|using)\s+(?:what|which)\s+(?:precision|quanti[sz]ation|format|dtype|bit\s*width)"
               r"|\b(?:what|which)\s+(?:precision|quanti[sz]ation|dtype|quant)\b(?:\s+(?:format|level|method))?"
               r"\s+(?:should|to|do|would|for|fits?|works?|is\s+best)\b"
               r"|\bwhat\s+(?:precision|quanti[sz]ation)\s*\?", re.I),
    re.compile(r"(?:用|选|跑|选择|選擇|採用|采用)\s*(?:什么|什麼|哪种|哪種|哪个|哪個)\s*(?:精度|量化|格式)"
               r"|(?:精度|量化)\s*(?:用|选|選)?\s*(?:什么|什麼|哪种|哪種|哪个|哪個)"
               r"|(?:什么|什麼|哪种|哪種)\s*(?:精度|量化)"),
)
"""A precision asked for with none named ("can we run it, and in what precision?", "用什么精度"): the formats the
card runs are set side by side (audit 29 HIGH 51: only bf16 was sized, FP8 on the L40S never offered)."""


def asks_which_format(text: str) -> bool:
    """True when the text asks which precision or quantisation to run in."""
    return any(pattern.search(text) for pattern in _WHICH_FORMAT)
