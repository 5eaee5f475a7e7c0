"""How much system RAM loading a model takes ("how much system RAM do I need to load Llama-3.1-70B with
transformers?", "加载 70B 需要多少内存"): a question about the host, not the cards (audit 30 M-74: answered with GPU
picks alone)."""

from __future__ import annotations

import re

_LOAD_RAM = (
    re.compile(r"\bhow\s+much\s+(?:system\s+|host\s+|cpu\s+)?(?:ram|memory\s+on\s+the\s+(?:host|cpu)|cpu\s+memory|"
               r"host\s+memory|system\s+memory)\b.{0,60}?\b(?:load|loading|to\s+load)\b", re.I),
    re.compile(r"\b(?:ram|system\s+memory|host\s+memory|cpu\s+memory)\s+(?:do\s+i\s+need\s+)?(?:to|for)\s+load(?:ing)?\b",
               re.I),
    re.compile(r"(?:加载|載入|加載|load)\s*[\w.\-\s]{0,30}?(?:需要|要)?\s*多(?:少|大)\s*(?:系统|系統|主机|主機|cpu)?\s*"
               r"(?:内存|記憶體|内存条|ram)", re.I),
)


def asks_load_ram(text: str) -> bool:
    """True when the text asks how much system RAM loading the model takes."""
    return any(pattern.search(text) for pattern in _LOAD_RAM)


__all__ = ["asks_load_ram"]
