"""Leave-one-source-out: every fitted memory constant refitted without the source group being scored.

The constants of rules/constants.py that were calibrated against the published rows (their docstrings say
so) are listed in FITTED with the grid each is searched over. For every source group G the constants are
refitted on the rows of all the other groups — coordinate descent over the grids from their middles until a
sweep changes nothing, minimising the mean over source groups of each group's median |ln(estimate /
published)| on the peak/requirement rows, every source counted once (ties broken by the pooled 90th
percentile); a source of fits/OOM rows counts once by its mean miss, how far (in log terms) its estimates land
on the wrong side of the card's limit — and G's rows are then scored with that fit. The descent never starts
from the shipped values, so what is shipped cannot steer the held-out score. Each row is therefore scored by
constants that never saw its source; the summary pools those held-out scores. A fit to one table cannot pass
for accuracy here.

Sourced constants (bytes of a format, the vLLM defaults, DeepSpeed's accounting, Korthikanti's activation
terms, the engine profiles) are not refitted: they come from documents, not from these rows.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from _cases import Skip, to_request

from knowledge.base import KnowledgeBase
from rules import constants as C


@dataclass(frozen=True)
class FittedConstant:
    name: str
    """The attribute of rules/constants.py."""
    grid: tuple[float, ...]
    """Values searched (today's value is among them)."""


FITTED: tuple[FittedConstant, ...] = (
    FittedConstant("INFERENCE_OVERHEAD_GIB", (0.25, 0.5, 0.75, 1.0, 1.25)),
    FittedConstant("INFERENCE_OVERHEAD_FRACTION", (0.0, 0.02, 0.05, 0.08)),
    FittedConstant("BNB_4BIT_WORKSPACE_LAYERS", (0.0, 1.0, 2.0, 3.0, 4.0)),
    FittedConstant("PREFILL_BYTES_PER_INTERMEDIATE", (2.0, 4.0, 6.0)),
    FittedConstant("PREFILL_BYTES_PER_HIDDEN", (8.0, 14.0, 20.0)),
    FittedConstant("TRAIN_OVERHEAD_GIB", (0.5, 1.0, 1.5, 2.0)),
    FittedConstant("TRAIN_OVERHEAD_FRACTION", (0.0, 0.05, 0.10, 0.15, 0.20)),
    FittedConstant("LOGITS_BYTES_PER_VOCAB_TRAIN", (8.0, 10.0, 12.0, 14.0)),
    FittedConstant("LOGITS_BYTES_PER_VOCAB_TRAIN_FP32_HEAD", (6.0, 8.0, 10.0)),
    FittedConstant("TRAINABLE_EMBEDDING_BYTES", (8.0, 12.0, 16.0)),
    FittedConstant("VLLM_SAMPLER_BYTES_PER_VOCAB", (30.0, 34.0, 38.5, 43.0, 47.0)),
    FittedConstant("DIFFUSION_ACTIVATION_GIB_PER_MPIXEL", (1.4, 1.6, 1.8, 2.0, 2.2, 2.6)),
    FittedConstant("DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL", (2.0, 3.0, 4.0, 5.0, 6.0)),
    FittedConstant("DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL_CHECKPOINTED", (0.25, 0.5, 0.75, 1.0, 1.25, 1.5)),
    FittedConstant("DIFFUSION_TRAIN_ACT_PARAMS_EXPONENT", (0.0, 0.25, 0.5)),
)
"""Every memory constant whose docstring says it was calibrated on the published rows."""

MAX_SWEEPS = 5

Setting = tuple[float, ...]


def today() -> Setting:
    return tuple(float(getattr(C, f.name)) for f in FITTED)


@contextmanager
def patched(setting: Setting) -> Iterator[None]:
    """The rules with `setting` in place of the FITTED constants (restored afterwards)."""
    saved = today()
    try:
        for f, value in zip(FITTED, setting, strict=True):
            setattr(C, f.name, value)
        yield
    finally:
        for f, value in zip(FITTED, saved, strict=True):
            setattr(C, f.name, value)


@dataclass
class Prepared:
    case: dict[str, Any]
    request: dict[str, Any]
    relation: str = ""
    """How the row is judged: its memory_relation, or "peak" for a component row (set when first estimated)."""

    @property
    def group(self) -> str:
        return str(self.case["group"])


class Scorer:
    """Estimates of every prepared row under a setting, computed once per setting."""

    def __init__(self, cases: list[dict[str, Any]], kb: KnowledgeBase) -> None:
        from accuracy import Runner

        self.runner = Runner(kb, use_ask=False)
        self.rows: list[Prepared] = []
        for case in cases:
            try:
                self.rows.append(Prepared(case, to_request(case, kb)))
            except Skip:
                continue
        self._memo: dict[Setting, list[tuple[float, float] | None]] = {}
        self._limits: dict[int, float] = {}
        self.unscored: dict[int, str] = {}
        """Why a row has no compared value (a part the estimate does not have), by id of its Prepared."""

    def estimates(self, setting: Setting) -> list[tuple[float, float] | None]:
        """(value compared, per-card need) per row; None where the rules raise."""
        from accuracy import compared_value

        cached = self._memo.get(setting)
        if cached is not None:
            return cached
        out: list[tuple[float, float] | None] = []
        with patched(setting):
            for row in self.rows:
                try:
                    per_gpu, total = self.runner.estimate_for(row.request)
                except Exception:
                    out.append(None)
                    continue
                try:
                    value, relation = compared_value(row.case, row.request, self.runner.last_breakdown, per_gpu,
                                                     total)
                except Skip as why:
                    self.unscored[id(row)] = str(why)
                    out.append(None)
                    continue
                row.relation = relation
                out.append((value, self.runner.last_needed or value))
        self._memo[setting] = out
        return out

    def limit(self, i: int) -> float:
        """The per-card limit a fits/OOM row is judged against (bench/accuracy.py capacity_gib), memoised."""
        if i not in self._limits:
            from accuracy import capacity_gib

            self._limits[i] = capacity_gib(self.rows[i].case, self.runner.kb, self.rows[i].request)
        return self._limits[i]

    def objective(self, setting: Setting, members: list[int]) -> tuple[float, float]:
        est = self.estimates(setting)
        by_group: dict[str, list[float]] = {}
        misses: dict[str, list[float]] = {}
        for i in members:
            e = est[i]
            relation = self.rows[i].relation
            if e is None or e[0] <= 0:
                continue
            if relation in ("peak", "requirement", "reserved"):
                by_group.setdefault(self.rows[i].group, []).append(
                    abs(math.log(e[0] / float(self.rows[i].case["memory_gb"]))))
            elif relation in ("fits_within", "oom_above"):
                # A fits/OOM row costs how far the need lies on the wrong side of the limit (0 when right).
                need = e[1] if self.rows[i].case.get("memory_scope") == "per_gpu" else e[0]
                gap = math.log(need / self.limit(i))
                misses.setdefault(self.rows[i].group, []).append(
                    max(0.0, gap) if relation == "fits_within" else max(0.0, -gap))
        if not by_group and not misses:
            return (0.0, 0.0)
        # Every source counts once (a 63-row table must not outvote a 4-row one), and a constant that touches
        # only a few groups is still decided by those groups rather than by the pooled median's neighbours.
        # A source of fits/OOM verdicts counts once too, by its mean miss.
        scores = [statistics.median(v) for v in by_group.values()] + [statistics.fmean(v) for v in misses.values()]
        ordered = sorted(x for v in by_group.values() for x in v) or [0.0]
        return (round(statistics.fmean(scores), 4), ordered[int(0.9 * (len(ordered) - 1))])

    def fit(self, members: list[int]) -> Setting:
        """Coordinate descent over FITTED's grids on the rows `members`, until a sweep changes nothing.

        It starts from the middle of every grid, not from today's values: a descent started at the shipped
        constants can stop in their neighbourhood, so the held-out score would depend on what was shipped."""
        current = [f.grid[len(f.grid) // 2] for f in FITTED]
        for _ in range(MAX_SWEEPS):
            before = list(current)
            for k, constant in enumerate(FITTED):
                def score(value: float, k: int = k) -> tuple[float, float]:
                    trial = list(current)
                    trial[k] = value
                    return self.objective(tuple(trial), members)

                current[k] = min(constant.grid, key=score)
            if current == before:
                break
        return tuple(current)


def loso(cases: list[dict[str, Any]], kb: KnowledgeBase) -> tuple[list[Any], dict[str, Setting]]:
    """Rows (bench/accuracy.py Row) scored by the fit that left their source group out, and the fits."""
    from accuracy import Row

    scorer = Scorer(cases, kb)
    groups = sorted({row.group for row in scorer.rows})
    fits: dict[str, Setting] = {}
    scored: list[Any] = []
    for group in groups:
        train = [i for i, row in enumerate(scorer.rows) if row.group != group]
        setting = scorer.fit(train)
        fits[group] = setting
        est = scorer.estimates(setting)
        for i, prep in enumerate(scorer.rows):
            if prep.group != group:
                continue
            row = Row(prep.case, engine=str(prep.request.get("engine") or "transformers"))
            if est[i] is None:
                row.skipped = scorer.unscored.get(id(prep), "error under the refitted constants")
                scored.append(row)
                continue
            value, needed = est[i]  # type: ignore[misc]
            row.estimate = value
            relation = prep.relation
            published = float(prep.case["memory_gb"])
            if relation in ("peak", "requirement", "reserved"):
                row.error = (value - published) / published * 100
            elif relation in ("fits_within", "oom_above"):
                row.limit = scorer.limit(i)
                use = needed if prep.case.get("memory_scope") == "per_gpu" else value
                row.needed = use
                row.verdict = (use <= row.limit) == (relation == "fits_within")
            scored.append(row)
    return scored, fits


def print_loso(cases: list[dict[str, Any]], kb: KnowledgeBase) -> None:
    from accuracy import by_engine, print_summary, summary

    rows, fits = loso(cases, kb)
    print("\n== leave-one-source-out (each group scored by constants refitted without it) ==")
    print(f"refitted: {', '.join(f.name for f in FITTED)}")
    print("per group (held out): n, median |error|, signed median, verdicts; constants that moved:")
    base = today()
    for group in sorted(fits):
        members = [r for r in rows if str(r.case["group"]) == group]
        t = summary(members)
        signed = [r.error for r in members if r.error is not None]
        moved = ", ".join(f"{f.name}={v:g}" for f, v, b in zip(FITTED, fits[group], base, strict=True) if v != b)
        median_signed = f"{statistics.median(signed):+6.1f}" if signed else "     -"
        print(f"  {group:<40} n={t['error_cases']:3d} {t['median_abs_error_pct']:6.1f}% {median_signed}% "
              f"verdicts {t['verdicts_right']}/{t['verdicts']}  {moved or '(today)'}")
    print("LOSO summary:")
    print_summary(rows)
    engines = by_engine(rows)
    print(f"LOSO engines: {', '.join(sorted(engines))}")
