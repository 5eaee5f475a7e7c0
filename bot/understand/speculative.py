"""Speculative decoding named with two models ("Llama 3.1 70B with Llama 3.2 1B as the draft model", "用 Llama 3.2
1B 加速 Llama 3.1 8B"): the larger is the model served, the smaller its draft, whichever is written first."""

from __future__ import annotations

import re

from knowledge.base import KnowledgeBase

SPECULATIVE = re.compile(
    r"speculative[-_\s]+(?:decod\w*|sampling)|\bspec(?:ulative)?[-_]decod\w*|\bdraft[-_\s]+models?\b|\bas\s+(?:the\s+)?"
    r"draft\b|\bdraft(?:er)?\s+(?:for|of)\b|\b(?:a|the)\s+(?:\d+(?:\.\d+)?b\s+)?draft(?:er)?\b|--model[-_]draft|\beagle[-_\s]?\d?\b|\bmedusa\b|投机解码|推测解码|推测采样|投机采样|草稿模型|draft\s*模型",
    re.A)


_EAGLE = re.compile(r"\beagle[-_\s]?[123]?\b|\beagle3\b", re.A)


def names_eagle(folded: str) -> bool:
    """"speculative decoding with EAGLE-3", "开 EAGLE3 投机解码": a draft head named by its method, no model."""
    return _EAGLE.search(folded) is not None


def target_and_draft(model_ids: list[str], kb: KnowledgeBase, folded: str) -> tuple[str, str] | None:
    """(model served, draft) when the text speaks of speculative decoding and names two known models."""
    known = [m for m in model_ids if m in kb.models]
    if len(known) < 2 or SPECULATIVE.search(folded) is None:
        return None
    larger, smaller = sorted(known[:2], key=lambda m: kb.models[m].params_b, reverse=True)
    return larger, smaller


PREFIX_CACHING = re.compile(r"prefix[-_\s]+cach\w*|\bapc\b|enable[-_]prefix[-_]caching|radix[-_\s]?(?:cache|attention)|"
                            r"前缀缓存|前綴快取|前缀缓存|kv\s*复用|提示缓存|prompt\s+caching")
"""Prefix caching named ("开前缀缓存", "--enable-prefix-caching", SGLang's RadixAttention)."""
SPECULATIVE_UNNAMED_NOTE = "speculative-unnamed"
"""Question note: speculative decoding asked with no draft model or method to size it with."""
PREFIX_CACHING_NOTE = "prefix-caching"
"""Question note: prefix caching named; it changes the first token, not the decode speed."""
