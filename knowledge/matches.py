"""What a name lookup answers: the best match, its runners-up and how sure it is (knowledge/lookup.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from knowledge.names import QUANT_BITS

CONFIDENT_SCORE = 90.0
"""At or above this score a fuzzy match is taken without asking; below it the reply offers "did you mean"."""

SUGGEST_SCORE = 60.0
"""Candidates below this score are not worth suggesting."""


@dataclass(frozen=True)
class Match:
    id: str
    score: float
    matched: str
    """The alias (as written in the knowledge base) that produced the score."""
    mismatch: str | None = None
    """'size' or 'version' when the score was capped because that part of the name disagrees."""


class LookupResult:
    """The best match and its runners-up; `quant` and `variant` come from the checkpoint suffix.

    For an exact hit the runners-up are computed only when `alternatives` is first read, so the common
    case (a name the base knows) costs a dictionary probe.
    """

    __slots__ = ("_alternatives", "_pending", "best", "quant", "variant")

    def __init__(
        self,
        best: Match | None,
        alternatives: list[Match] | None = None,
        quant: str | None = None,
        variant: str | None = None,
        *,
        pending: Callable[[], list[Match]] | None = None,
    ) -> None:
        self.best = best
        self._alternatives = list(alternatives) if alternatives is not None else []
        self._pending = pending
        self.quant = quant
        self.variant = variant

    @property
    def alternatives(self) -> list[Match]:
        if self._pending is not None:
            self._alternatives, self._pending = self._pending(), None
        return self._alternatives

    @property
    def confident(self) -> bool:
        return self.best is not None and self.best.score >= CONFIDENT_SCORE

    @property
    def quant_bits(self) -> int | None:
        """Weight bits the quantisation suffix implies (gptq → 4, int8 → 8, gguf-q5_k_m → 5), if known."""
        if self.quant is None:
            return None
        if self.quant.startswith("gguf-"):
            digits = re.search(r"\d", self.quant)
            return int(digits.group()) if digits else None
        return QUANT_BITS.get(self.quant)

    @property
    def suggestions(self) -> list[Match]:
        """What a "did you mean" should list: the best match too when it is not confident."""
        if self.best is None or self.confident:
            return list(self.alternatives)
        return [self.best, *self.alternatives]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LookupResult):
            return NotImplemented
        return (self.best, self.alternatives, self.quant, self.variant) == (
            other.best,
            other.alternatives,
            other.quant,
            other.variant,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"LookupResult(best={self.best!r}, alternatives={self.alternatives!r}, quant={self.quant!r}, "
            f"variant={self.variant!r})"
        )


@dataclass(frozen=True)
class Mention:
    """An exact alias occurrence in free text: `text[start:end]` names `match.id`."""

    match: Match
    start: int
    end: int
    quant: str | None = None
    variant: str | None = None
    text: str = ""
