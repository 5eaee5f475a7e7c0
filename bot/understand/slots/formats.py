"""Weight formats set against each other ("AWQ, GPTQ or FP8 — which one fits?", "int4 还是 fp8"): each is sized
on the same cards, side by side, rather than one sizing labelled with two formats at the bytes of neither.

The first format named is the one the rest of the reply sizes; `compare_formats` keeps them all, in order.
"""

from __future__ import annotations

from itertools import pairwise

from bot.understand.slots.base import SlotState, rx

FORMATS: dict[str, tuple[str, str | None]] = {
    "awq": ("int4", "awq"), "gptq": ("int4", "gptq"), "nf4": ("int4", "nf4"), "gguf": ("int4", "gguf-q4_k_m"),
    "q4_k_m": ("int4", "gguf-q4_k_m"), "fp8": ("fp8", None), "int8": ("int8", None), "int4": ("int4", None),
    "bf16": ("bf16", None), "fp16": ("fp16", None),
}
"""(precision, quantisation method) of each format word; a bare GGUF is the usual Q4_K_M."""
_FORMAT = rx(r"(?<![\w.-])(?P<name>awq|gptq|nf4|gguf|q4_k_m|fp8|int8|int4|bf16|fp16|8[- ]?bit|4[- ]?bit)(?![\w])")
_JOINED = rx(r"^\s*(?:,|/|\bor\b|\bvs\.?|\bversus\b|\band\b|还是|或者?|和|跟|与|、)\s*(?:\bor\b\s*)?$")
_ALIASES = {"8bit": "int8", "8-bit": "int8", "8 bit": "int8", "4bit": "int4", "4-bit": "int4", "4 bit": "int4"}


def formats_compared(state: SlotState) -> list[str]:
    """The formats of a run of two or more joined by "or", "vs", commas or 还是 (each once, in order), else []."""
    text = state.text
    run: list[str] = []
    last_end: int | None = None
    for m in _FORMAT.finditer(text):
        name = _ALIASES.get(m.group("name"), m.group("name"))
        if last_end is not None and _JOINED.match(text[last_end: m.start()]) is None:
            if len(run) >= 2:
                break
            run = []
        if name not in run:
            run.append(name)
        last_end = m.end()
    return run if len(run) >= 2 else _set_against(text)


_AGAINST_BEFORE = rx(r"(?:跟|和|与|同|对比|相比|比起|\bcompared\s+(?:to|with)|\bagainst|\brelative\s+to)\s*$")
"""A second format set against the first after a few words ("FP8 版本有没有意义？跟 bf16 比")."""
_AGAINST_GAP = 24


def _set_against(text: str) -> list[str]:
    """[first, second] when a format is set against one named a few words before it, else []."""
    found = [(m, _ALIASES.get(m.group("name"), m.group("name"))) for m in _FORMAT.finditer(text)]
    for (first, a), (second, b) in pairwise(found):
        gap = text[first.end(): second.start()]
        if a != b and len(gap) <= _AGAINST_GAP and _AGAINST_BEFORE.search(gap):
            return [a, b]
    return []
