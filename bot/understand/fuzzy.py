"""A misspelt or partial model name: a few plausible spans sent to the knowledge base's fuzzy index.

A hit whose size differs from the one written is refused ("qwen2.5 7b" must never become the 72B); weak or
tied hits become "did you mean" suggestions instead of an answer about the wrong model.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from bot.understand.lang import has_cjk
from bot.understand.mentions import Mention
from bot.understand.tokens import HAS_DIGIT, SIZE, Token, name_key_sized
from knowledge.base import KnowledgeBase
from knowledge.matches import CONFIDENT_SCORE, SUGGEST_SCORE

log = logging.getLogger(__name__)

FUZZY_MAX_CANDIDATES = 4
FUZZY_TIE_MARGIN = 3.0
"""Two fuzzy candidates this close (and of the same size) are a tie: suggest both, pick neither."""


VARIANT_MARKER = re.compile(r"(vl|vlm|vision|omni|audio|speech|math|coder|embed|embedding|guard|reward)\d*", re.A)
"""Words that name a different model of a family (Qwen2.5-VL, DeepSeek-VL2, Qwen2.5-Math): a fuzzy hit on an
entry without the word is the text-only sibling, sized wrongly, so it can only be suggested."""


def markers_in(text: str) -> set[str]:
    return {m.group(1) for word in text.split() if (m := VARIANT_MARKER.fullmatch(word))}


def sizes_in(text: str) -> set[str]:
    return {f"{float(a):g}{b}" for a, b in SIZE.findall(text)}


_FUZZY_STOPWORDS = frozenset((
    "what", "which", "how", "many", "much", "does", "need", "needed", "needs", "with", "from", "that", "this",
    "have", "about", "would", "could", "should", "will", "can", "for", "the", "and", "run", "running",
    "serve", "serving", "deploy", "train", "training", "tune", "tuning", "fine", "finetune", "model",
    "models", "gpu", "gpus", "card", "cards", "memory", "vram", "context", "batch", "users", "user",
    "concurrent", "inference", "cheap", "cheapest", "budget", "please", "thanks", "help", "hello", "enough",
    "big", "large", "small", "size", "parameters", "params", "tokens", "token", "quantized", "quantised",
    "embedding", "embeddings", "reranker", "rerankers", "rerank", "reranking",
    "quantization", "compare", "versus", "better", "best", "faster", "speed", "fast", "slow", "cost", "price",
    "cloud", "instance", "into", "using", "used", "there", "their", "they", "them", "then", "than", "when",
    "where", "why", "who", "whom", "want", "wants", "wanted", "like", "know", "tell", "show", "give", "make",
    "also", "just", "only", "some", "any", "every", "each", "other", "another", "more", "most", "less",
    "least", "very", "really", "again", "still", "even", "single", "multiple", "dual", "both", "all", "none",
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "full", "half",
    "precision", "lora", "qlora", "sft", "vllm", "llama.cpp", "ollama", "gguf", "transformers", "hf", "awq",
    "gptq", "bnb", "int4", "int8", "fp16", "bf16", "fp8", "fp32", "nf4", "deepspeed", "zero", "fsdp",
    "checkpointing", "gradient", "optimizer", "adam", "adamw", "sgd", "rank", "aws", "azure", "gcp",
    "alibaba", "aliyun", "chinese", "english", "question", "answer", "work", "works", "fit", "fits", "handle",
    "possible", "on", "in", "at", "of", "to", "by", "an", "or", "vs",
    # money and the people who spend it: "we have 50k USD" named no model (it suggested Stable Diffusion)
    "usd", "cny", "rmb", "eur", "gbp", "jpy", "hkd", "dollars", "dollar", "euros", "yuan", "buy", "rent",
    "team", "engineers", "company",
    # everyday words that are also the suffix of a model's name ("…-Thinking", "…-Instruct"): "we're thinking of
    # getting an H100" named no model (audit 30 LOW-140)
    "thinking", "think", "getting", "overkill", "chatbot", "assistant", "instruct", "chat", "base",
))
_WORDLIKE = re.compile(r"[a-z]", re.A)


def _fuzzy_candidates(tokens: list[Token], taken: list[Mention], folded: str) -> list[tuple[str, int, int]]:
    """Name-like spans worth a fuzzy lookup: an unknown word, optionally followed by a version and a size."""
    free = [t for t in tokens if not any(m.start <= t.start < m.end for m in taken)]
    candidates: list[tuple[str, int, int]] = []
    seen: set[str] = set()
    for idx, token in enumerate(free):
        if not _WORDLIKE.match(token.key) or token.key in _FUZZY_STOPWORDS or not 3 <= len(token.key) <= 40:
            continue
        if not _WORDLIKE.search(token.key) or has_cjk(token.key):
            continue
        span = [token]
        for nxt in free[idx + 1: idx + 4]:
            gap = folded[span[-1].end: nxt.start]
            # A common word glued on by a hyphen is part of the name ("bge-large", "mistral-large").
            glued = gap in ("-", "_")
            if len(gap) > 2 or has_cjk(nxt.key) or (nxt.key in _FUZZY_STOPWORDS and not glued):
                break
            span.append(nxt)
            if SIZE.fullmatch(nxt.key) or re.fullmatch(r"\d+x\d+b", nxt.key):
                break
        # prefer the span that reaches a size; fall back to the word alone
        for end in range(len(span), 0, -1):
            piece = span[:end]
            text = folded[piece[0].start: piece[-1].end]
            key = "".join(p.key for p in piece)
            if key in seen:
                continue
            seen.add(key)
            candidates.append((text, piece[0].start, piece[-1].end))
            break
    candidates.sort(key=lambda c: (not SIZE.search(c[0]), -len(c[0])))
    return candidates[:FUZZY_MAX_CANDIDATES]


@dataclass
class ModelFind:
    model: str | None = None
    text: str | None = None
    score: float | None = None
    start: int = 0
    end: int = 0
    suggestions: list[str] = field(default_factory=list)
    quant: str | None = None


_VERSION = re.compile(r"(?<![a-z0-9.])v(?P<v>\d+(?:\.\d+)*)(?![\d.]*\d)")


def _version_after(folded: str, end: int, tied: list[Any]) -> Any | None:
    """The one tied match whose id carries the version written within a few words after the name ("… v0.3")."""
    m = _VERSION.search(folded[end: end + 32])
    if m is None:
        return None
    marker = f"v{m.group('v')}"
    named = [match for match in tied if re.search(rf"(?<![a-z0-9.]){re.escape(marker)}(?![\d.])", match.id)]
    return named[0] if len(named) == 1 else None


def fuzzy_model(kb: KnowledgeBase, tokens: list[Token], taken: list[Mention], folded: str,
                 original: str) -> ModelFind:
    found = ModelFind()
    for text, start, end in _fuzzy_candidates(tokens, taken, folded):
        try:
            result = kb.model_index.lookup(text)
        except Exception:  # pragma: no cover - the index must never take the parser down
            log.exception("model lookup failed for %r", text)
            continue
        ranked = [m for m in ([result.best] if result.best else []) + list(result.alternatives) if m]
        wanted = sizes_in(name_key_sized(text))
        fitting = []
        for match in ranked:
            if match.score < SUGGEST_SCORE:
                continue
            entry = kb.models.get(match.id)
            have = sizes_in(name_key_sized(match.matched)) | sizes_in(name_key_sized(match.id))
            if wanted and have and not (wanted & have):
                continue  # "qwen2.5 7b" must never become qwen2.5-72b
            if wanted and not have and entry is not None and not any(
                abs(entry.params_b - float(w[:-1]) * (1 if w.endswith("b") else 1e-3)) <= 0.15 * entry.params_b
                for w in wanted
            ):
                continue
            fitting.append(match)
        if not fitting:
            continue
        top = fitting[0]
        single_word = " " not in text.strip() and not HAS_DIGIT.search(text)
        tie = len(fitting) > 1 and fitting[1].score >= top.score - FUZZY_TIE_MARGIN and fitting[1].id != top.id
        if tie:
            # "mistrall 7b instuct v0.3": the misspelt name ties its releases; a version written after it names one
            # (audit 34 LOW-192)
            versioned = _version_after(folded, end, [m for m in fitting if m.score >= top.score - FUZZY_TIE_MARGIN])
            if versioned is not None:
                top, tie = versioned, False
        missing_variant = markers_in(name_key_sized(text)) - (
            markers_in(name_key_sized(top.matched)) | markers_in(name_key_sized(top.id)))
        if top.score >= CONFIDENT_SCORE and not tie and not missing_variant:
            found.model, found.score = top.id, float(top.score)
            found.text, found.start, found.end = original[start:end], start, end
            found.quant = result.quant
            found.suggestions = []
            return found
        threshold = 75.0 if single_word else SUGGEST_SCORE
        for match in fitting:
            if match.score >= threshold and match.id not in found.suggestions:
                found.suggestions.append(match.id)
        if found.suggestions and found.text is None:
            found.text = original[start:end]
    found.suggestions = found.suggestions[:5]
    return found

