"""Fuzzy lookup of models and GPUs by name, alias or Hugging Face id.

People write "chatglm6b", "ChatGLM 6B", "THUDM/chatglm-6b" or "lama2 13b" and mean one entry. Names are
normalised (case, separators, width) before an exact dictionary probe; only when that misses does
rapidfuzz score the candidates, so the common case costs a hash lookup however large the base grows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

if TYPE_CHECKING:
    from knowledge.schema import GPU, Model

CONFIDENT_SCORE = 90.0
"""At or above this score a fuzzy match is taken without asking; below it the reply offers "did you mean"."""

SUGGEST_SCORE = 60.0
"""Candidates below this score are not worth suggesting."""

_SEPARATORS = re.compile(r"[\s\-_/:,()\[\]]+")
_HF_PREFIX = re.compile(r"^(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co|modelscope\.cn/models)/", re.I)

# Suffixes a checkpoint name carries that do not change the architecture. Order matters: the quantisation
# marker is read before it is stripped, then the chat/instruct marker.
_QUANT_SUFFIXES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"gptq[-_ ]?int4$|gptq[-_ ]?4bit$|gptq$"), "gptq"),
    (re.compile(r"gptq[-_ ]?int8$|gptq[-_ ]?8bit$"), "gptq-int8"),
    (re.compile(r"awq$"), "awq"),
    (re.compile(r"(?:bnb[-_ ]?)?4bits?$|int4$|nf4$"), "int4"),
    (re.compile(r"(?:bnb[-_ ]?)?8bits?$|int8$"), "int8"),
    (re.compile(r"fp8$"), "fp8"),
    (re.compile(r"gguf$"), "gguf"),
)
_VARIANT_SUFFIX = re.compile(r"(?:chat|instruct|it|hf|base|sft|dpo|rlhf|v0\.\d|v\d)$")


def normalise(name: str) -> str:
    """Canonical form for comparison: NFKC, lower case, no separators (dots between digits are kept)."""
    text = unicodedata.normalize("NFKC", name).strip().lower()
    text = _HF_PREFIX.sub("", text)
    return _SEPARATORS.sub("", text)


@dataclass(frozen=True)
class Match:
    id: str
    score: float
    matched: str
    """The alias (as written in the knowledge base) that produced the score."""


@dataclass(frozen=True)
class LookupResult:
    """The best match and its runners-up; `quant` and `variant` come from the checkpoint suffix."""

    best: Match | None
    alternatives: list[Match] = field(default_factory=list)
    quant: str | None = None
    variant: str | None = None

    @property
    def confident(self) -> bool:
        return self.best is not None and self.best.score >= CONFIDENT_SCORE


def split_checkpoint_suffixes(name: str) -> tuple[str, str | None, str | None]:
    """`Qwen2.5-7B-Instruct-GPTQ-Int4` → (`qwen2.5-7b`, `gptq`, `instruct`), on the raw dashed name."""
    parts = [p for p in re.split(r"[-_ ]+", name.strip().lower()) if p]
    quant: str | None = None
    variant: str | None = None
    changed = True
    while changed and len(parts) > 1:
        changed = False
        tail2 = "-".join(parts[-2:])
        for pattern, label in _QUANT_SUFFIXES:
            if quant is None and pattern.fullmatch(tail2):
                quant, parts, changed = label, parts[:-2], True
                break
            if quant is None and pattern.fullmatch(parts[-1]):
                quant, parts, changed = label, parts[:-1], True
                break
        if not changed and len(parts) > 1 and _VARIANT_SUFFIX.fullmatch(parts[-1]):
            variant = variant or parts[-1]
            parts, changed = parts[:-1], True
    return "-".join(parts), quant, variant


class NameIndex:
    """Normalised names → entry ids, with a fuzzy fallback over the same names."""

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        self._exact: dict[str, str] = {}
        self._ambiguous: dict[str, set[str]] = {}
        self._display: dict[str, str] = {}
        for entry_id, name in names:
            key = normalise(name)
            if not key:
                continue
            owner = self._exact.setdefault(key, entry_id)
            self._display.setdefault(key, name)
            if owner != entry_id:
                self._ambiguous.setdefault(key, {owner}).add(entry_id)
        self._keys = list(self._exact)

    @classmethod
    def for_models(cls, models: Iterable[Model]) -> NameIndex:
        return cls((m.id, name) for m in models for name in (m.id, m.name, *m.aliases, *m.hf_ids))

    @classmethod
    def for_gpus(cls, gpus: Iterable[GPU]) -> NameIndex:
        return cls((g.id, name) for g in gpus for name in (g.id, g.name, *g.aliases))

    @property
    def ambiguous(self) -> dict[str, set[str]]:
        """Normalised names claimed by more than one entry (a knowledge-base check reports these)."""
        return self._ambiguous

    def exact(self, name: str) -> str | None:
        return self._exact.get(normalise(name))

    def lookup(self, name: str, limit: int = 5) -> LookupResult:
        base, quant, variant = split_checkpoint_suffixes(_HF_PREFIX.sub("", name.strip()))
        candidates = [name, base]
        if "/" in base:
            candidates.append(base.rsplit("/", 1)[1])
        for candidate in candidates:
            hit = self._exact.get(normalise(candidate))
            if hit is not None:
                best = Match(hit, 100.0, self._display[normalise(candidate)])
                return LookupResult(best, self._fuzzy(candidate, limit, exclude=hit), quant, variant)
        ranked = self._fuzzy(candidates[-1], limit + 1)
        if not ranked or ranked[0].score < SUGGEST_SCORE:
            return LookupResult(None, ranked[:limit], quant, variant)
        return LookupResult(ranked[0], ranked[1 : limit + 1], quant, variant)

    def _fuzzy(self, name: str, limit: int, exclude: str | None = None) -> list[Match]:
        query = normalise(name)
        if not query:
            return []
        found: list[Match] = []
        seen: set[str] = set()
        for key, score, _ in process.extract(query, self._keys, scorer=fuzz.ratio, limit=limit * 4):
            entry_id = self._exact[key]
            if entry_id in seen or entry_id == exclude or score < SUGGEST_SCORE:
                continue
            seen.add(entry_id)
            found.append(Match(entry_id, float(score), self._display[key]))
            if len(found) == limit:
                break
        return found
