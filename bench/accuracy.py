"""Accuracy of the memory estimates against published figures (shared groundtruth + bench/groundtruth/).

Every case becomes a request dict with the keys of `ask` (bench/_cases.py: model, task, precision, quant,
engine, engine_version, kv_cache, context, batch, gpu, gpus, gen_tokens, zero_stage, gradient_checkpointing,
lora_rank, optimizer) and goes through ONE function, `estimate_for(request) -> (per_gpu_gib, total_gib)`:
`bot.reply.answer.answer_request` when it exists (the same code path as `ask`), otherwise the rules directly. Keys
`ask` does not know (flash_attention, offload, pure_16bit, train_embeddings, params_b for generic rows, and
engine_version/kv_cache until `ask` takes them) are honoured on the rules path and dropped — and counted —
on the `ask` path.

    python bench/accuracy.py --rules         # table, today's summary, per engine, verdicts, leave-one-source-out
    python bench/accuracy.py --quiet         # summaries only, through ask
    python bench/accuracy.py --group qwen2.5 # only groups containing the text
    python bench/accuracy.py --no-loso       # skip the refits (bench/_loso.py, ~25 s)
    GPU_ADVISOR_GROUNDTRUTH=path.yaml python bench/accuracy.py

Comparison: memory_scope per_gpu → the per-card estimate; any "total…" scope → the total over the cards.
memory_relation "component: weights|kv_cache|activations" → that part of the per-card breakdown (a reserving
engine's kv_cache is its KV pool); a figure of weights or model states alone (weights_only: "NO activations",
"total (weights)", load-time phase) → weights + gradients + optimizer states, without the runtime overhead.
memory_relation peak/requirement/reserved → signed error % =
(estimate − published) / published; fits_within / oom_above → a verdict: what the job needs per card (a
reserving engine's requirement, not its reservation) must be ≤ / > the engine's limit on that card, the one
the reply's fit check uses (rules.fit.limit_gib).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge
from rules import constants as C
from rules.hardware import usable_gib

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cases import (
    ADDED_GROUNDTRUTH_DIR,
    DEFAULT_GROUNDTRUTH,
    GENERIC_RE,
    GPU_PATTERNS,
    GROUNDTRUTH_ENV,
    Skip,
    _hf_name,
    _zero_stage,
    engine_length_at_default,
    load_cases,
    map_engine,
    map_kv_cache,
    map_precision,
    resolve_gpu,
    resolve_model,
    to_request,
    weights_only,
    workload_for,
)
from _sources import device_context_gib

from bot.reply.overrides import FLAG_KEYS

ASK_KEYS = frozenset({"text", *FLAG_KEYS})
"""Keys `ask` (bot.reply.overrides.FLAG_KEYS) accepts; the others only reach the rules path."""

__all__ = [
    "ADDED_GROUNDTRUTH_DIR", "ASK_KEYS", "DEFAULT_GROUNDTRUTH", "GENERIC_RE", "GPU_PATTERNS", "GROUNDTRUTH_ENV",
    "Row", "Runner", "Skip", "_hf_name", "_zero_stage", "ask_available", "by_group", "capacity_gib", "compared_value",
    "context_stated", "evaluate", "from_thread", "load_cases", "map_engine", "map_kv_cache", "map_precision",
    "percentile", "resolve_gpu", "resolve_model", "summary", "to_request", "weights_only",
]


# --------------------------------------------------------------------------------------------------------
# The one estimate function
# --------------------------------------------------------------------------------------------------------


def ask_available() -> bool:
    try:
        from bot.reply.request import answer_request  # noqa: F401
    except Exception:
        return False
    return True


@dataclass
class Runner:
    kb: KnowledgeBase
    use_ask: bool
    dropped: dict[str, int] = field(default_factory=dict)
    last_needed: float | None = None
    """The least memory per card the last request needs (rules path: a reserving engine's requirement rather
    than its reservation); the verdicts compare this with the engine's limit."""
    last_breakdown: dict[str, float] = field(default_factory=dict)
    """GiB per card by component for the last request (weights, kv_cache — a reserving engine's KV pool —,
    activations, …): what a component row ("component: weights") is compared with."""

    def estimate_for(self, request: dict[str, Any]) -> tuple[float, float]:
        """(per-card GiB, total GiB) for one request: through `ask` when available, else the rules."""
        if self.use_ask:
            return self._via_ask(request)
        return self._via_rules(request)

    def _via_ask(self, request: dict[str, Any]) -> tuple[float, float]:
        from bot.reply.request import answer_request

        flags = {k: v for k, v in request.items() if k in ASK_KEYS}
        for k in request:
            if k not in ASK_KEYS:
                self.dropped[k] = self.dropped.get(k, 0) + 1
        answer = answer_request(flags, self.kb)
        if answer.estimate is None:
            raise Skip("ask returned no estimate")
        self.last_needed = answer.estimate.per_gpu_gb
        self.last_breakdown = answer.estimate.breakdown.model_dump()
        return answer.estimate.per_gpu_gb, answer.estimate.total_gb

    def _via_rules(self, request: dict[str, Any]) -> tuple[float, float]:
        from rules import estimate_memory

        workload = workload_for(request, self.kb)
        gpu = self.kb.gpus.get(request["gpu"]) if request.get("gpu") else None
        est = estimate_memory(workload, int(request.get("gpus", 1)), gpu)
        self.last_needed = est.required_per_gpu_gib if est.required_per_gpu_gib is not None else est.per_gpu_gib
        self.last_breakdown = dict(est.breakdown)
        if "kv_pool_gib" in est.chosen:
            # A reserving engine's log gives the pool it set aside ("the rest of the memory reserved for KV
            # cache"), also when one sequence then does not fit in it (the breakdown shows that sequence's need)
            self.last_breakdown["kv_cache"] = float(est.chosen["kv_pool_gib"])
        return est.per_gpu_gib, est.total_gib


# --------------------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------------------


@dataclass
class Row:
    case: dict[str, Any]
    estimate: float | None = None
    error: float | None = None
    verdict: bool | None = None
    skipped: str | None = None
    engine: str = "transformers"
    limit: float | None = None
    """The per-card limit the verdict compared with (GiB)."""
    needed: float | None = None
    """What the verdict compared with the limit: the job's need, which for a reserving engine is not its
    reservation (`estimate`)."""


def capacity_gib(case: dict[str, Any], kb: KnowledgeBase, request: dict[str, Any] | None = None) -> float:
    """What one card lets the job use on its engine, as the reply's fit check judges it (rules.fit.limit_gib:
    vLLM its `gpu_memory_utilization` share, SGLang its `mem_fraction_static` share plus the activations it
    keeps beside it, the others the card's usable memory). A row whose memory figure is not the card's size
    uses that figure less the CUDA context."""
    from rules.fit import limit_gib

    gpu = resolve_gpu(case.get("gpu"), kb)
    if gpu and case.get("memory_scope") == "per_gpu":
        card = kb.gpus[gpu]
        if abs(card.memory_gb - float(case["memory_gb"])) < 1.0:
            return limit_gib(workload_for(request, kb), card) if request is not None else usable_gib(card)
    return float(case["memory_gb"]) - C.CUDA_CONTEXT_GIB


def evaluate(cases: list[dict[str, Any]], runner: Runner) -> list[Row]:
    rows: list[Row] = []
    for case in cases:
        row = Row(case)
        try:
            request = to_request(case, runner.kb)
            row.engine = str(request.get("engine") or "transformers")
            per_gpu, total = runner.estimate_for(request)
        except Skip as why:
            row.skipped = str(why)
            rows.append(row)
            continue
        except Exception as exc:  # a bad mapping must not hide the other cases
            row.skipped = f"error: {type(exc).__name__}: {exc}"
            rows.append(row)
            continue
        try:
            value, relation = compared_value(case, request, runner.last_breakdown, per_gpu, total)
        except Skip as why:
            row.skipped = str(why)
            rows.append(row)
            continue
        row.estimate = value
        if relation in ("peak", "requirement", "reserved"):
            row.error = (value - float(case["memory_gb"])) / float(case["memory_gb"]) * 100
        elif relation in ("fits_within", "oom_above"):
            needed = runner.last_needed if case.get("memory_scope") == "per_gpu" and runner.last_needed else value
            row.limit = capacity_gib(case, runner.kb, request)
            row.needed = needed
            row.verdict = (needed <= row.limit) == (relation == "fits_within")
        rows.append(row)
    return rows


def compared_value(case: dict[str, Any], request: dict[str, Any], breakdown: dict[str, float], per_gpu: float,
                   total: float) -> tuple[float, str]:
    """What a row's figure is compared with, and the relation to judge it by: the per-card or total estimate,
    or for a "component: NAME" row that part of the breakdown (then judged as a peak)."""
    cards = 1 if case.get("memory_scope") == "per_gpu" else int(request.get("gpus", 1))
    value = (per_gpu if case.get("memory_scope") == "per_gpu" else total) + device_context_gib(case) * cards
    relation = str(case.get("memory_relation"))
    component = component_of(relation)
    if component is None and weights_only(case) and relation in ("peak", "requirement"):
        # The source sized weights / model states alone ("NO activations or buffers"): compare the same
        # parts of the estimate, not the allocator and runtime overhead around them.
        states = sum(breakdown.get(part, 0.0) for part in MODEL_STATE_PARTS)
        return (states if case.get("memory_scope") == "per_gpu" else states * int(request.get("gpus", 1))), relation
    if component is None:
        return value, relation
    if component not in breakdown:
        raise Skip(f"component not in the estimate's breakdown: {component}")
    share = breakdown[component]
    return (share if case.get("memory_scope") == "per_gpu" else share * int(request.get("gpus", 1))), "peak"


MODEL_STATE_PARTS = ("weights", "gradients", "optimizer")
"""What a weights / model-states figure covers: parameters, their gradients and the optimizer's states."""

COMPONENT_NAMES = {"weights": "weights", "kv_cache": "kv_cache", "kv cache": "kv_cache", "kv pool": "kv_cache",
                   "activations": "activations", "compute buffer": "activations",
                   "compute_buffer": "activations"}
"""A row's `memory_relation: "component: NAME"` → the breakdown key it is compared with."""


def component_of(relation: str) -> str | None:
    """The breakdown key a component row measures, or None for a whole-footprint row."""
    if not relation.startswith("component:"):
        return None
    name = relation.split(":", 1)[1].strip().lower()
    return COMPONENT_NAMES.get(name, name.replace(" ", "_"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def context_stated(case: dict[str, Any]) -> bool:
    """The source gave the tokens in flight (or said it measured weights/model states only, or left a serving
    engine's length flag at its default, the model's window)."""
    return (case.get("seq_len") is not None or case.get("gen_len") is not None or weights_only(case)
            or engine_length_at_default(case) is not None)


def from_thread(case: dict[str, Any]) -> bool:
    """Whether the row comes from an issue or pull-request thread. Such threads are opened when something went
    wrong, often an OOM nobody expected or one a bug caused, and their settings are read from excerpts: they are
    scored apart from documents' tables as well as with them."""
    url = str((case.get("source") or {}).get("url") or "")
    return "/issues/" in url or "/pull/" in url


def summary(rows: list[Row]) -> dict[str, Any]:
    errors = [abs(r.error) for r in rows if r.error is not None]
    verdicts = [r.verdict for r in rows if r.verdict is not None]
    return {
        "evaluated": len(errors) + len(verdicts),
        "error_cases": len(errors),
        "median_abs_error_pct": statistics.median(errors) if errors else float("nan"),
        "p90_abs_error_pct": percentile(errors, 0.9),
        "verdicts_right": sum(1 for v in verdicts if v),
        "verdicts": len(verdicts),
        "skipped": sum(1 for r in rows if r.skipped),
    }


def by_group(rows: list[Row]) -> dict[str, list[float]]:
    groups: dict[str, list[float]] = {}
    for r in rows:
        if r.error is not None:
            groups.setdefault(str(r.case["group"]), []).append(r.error)
    return groups


def by_engine(rows: list[Row]) -> dict[str, list[Row]]:
    engines: dict[str, list[Row]] = {}
    for r in rows:
        if not r.skipped:
            engines.setdefault(r.engine, []).append(r)
    return engines


def summary_line(label: str, rows: list[Row], width: int = 50) -> str:
    t = summary(rows)
    return (f"  {label:<{width}} n={t['error_cases']:3d}  median {t['median_abs_error_pct']:5.1f}%  "
            f"p90 {t['p90_abs_error_pct']:5.1f}%  verdicts {t['verdicts_right']}/{t['verdicts']}")


def print_table(rows: list[Row]) -> None:
    print(f"{'case':<100} {'published':>9} {'estimate':>9} {'error%':>8}")
    for r in rows:
        if r.skipped:
            continue
        pub = f"{float(r.case['memory_gb']):9.2f}"
        est = f"{r.estimate:9.2f}" if r.estimate is not None else " " * 9
        if r.error is not None:
            tail = f"{r.error:+8.1f}"
        else:
            tail = f"{'ok' if r.verdict else 'WRONG':>8} ({r.case['memory_relation']}, limit {r.limit or 0:.1f})"
        print(f"{str(r.case['id'])[:100]:<100} {pub} {est} {tail}")
    print("\nper group (signed error %: median, min, max, n):")
    for group, errs in sorted(by_group(rows).items(), key=lambda kv: -statistics.median(map(abs, kv[1]))):
        print(f"  {group:<40} {statistics.median(errs):+7.1f} {min(errs):+7.1f} {max(errs):+7.1f} {len(errs):4d}")
    skipped = [r for r in rows if r.skipped]
    if skipped:
        print(f"\nskipped ({len(skipped)}):")
        for r in skipped:
            print(f"  {r.case['id']}: {r.skipped}")


def print_summary(rows: list[Row]) -> None:
    s = summary(rows)
    print(f"evaluated {s['evaluated']} cases ({s['error_cases']} peak/requirement, {s['verdicts']} inequality), "
          f"skipped {s['skipped']}")
    print(f"median |error| {s['median_abs_error_pct']:.1f}%   p90 |error| {s['p90_abs_error_pct']:.1f}%   "
          f"verdicts right {s['verdicts_right']}/{s['verdicts']}")
    for label, subset in (("context stated by the source", [r for r in rows if context_stated(r.case)]),
                          ("context not stated (ask's default 4096 applies)",
                           [r for r in rows if not context_stated(r.case)]),
                          ("measured", [r for r in rows if r.case.get("kind") == "measured"]),
                          ("measured, context stated", [r for r in rows if r.case.get("kind") == "measured"
                                                        and context_stated(r.case)]),
                          ("stated (rules of thumb, READMEs)",
                           [r for r in rows if r.case.get("kind") == "stated"]),
                          ("from issue and PR threads", [r for r in rows if from_thread(r.case)]),
                          ("from documents (READMEs, docs, blogs, papers)",
                           [r for r in rows if not from_thread(r.case)])):
        print(summary_line(label, subset))
    print("per engine (the runtime the row measured):")
    for engine, subset in sorted(by_engine(rows).items()):
        print(summary_line(engine, subset))
    wrong = [r for r in rows if r.verdict is False]
    if wrong:
        print("wrong verdicts (estimate vs the engine's limit):")
        for r in wrong:
            print(f"  {r.case['id']}: {r.case['memory_relation']}, needs {r.needed or 0:.2f}, limit {r.limit:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="store_true", help="use the rules directly even if ask exists")
    parser.add_argument("--group", help="only groups whose name contains this text")
    parser.add_argument("--quiet", action="store_true", help="summary only")
    parser.add_argument("--no-loso", action="store_true", help="skip the leave-one-source-out refits")
    args = parser.parse_args(argv)
    cases = load_cases()
    if args.group:
        cases = [c for c in cases if args.group in str(c["group"])]
    kb = load_knowledge()
    runner = Runner(kb, use_ask=not args.rules and ask_available())
    rows = evaluate(cases, runner)
    if not args.quiet:
        print_table(rows)
    origins = sorted({str(c.get("origin")) for c in cases})
    path = "bot.reply.answer.answer_request (ask)" if runner.use_ask else "rules"
    print(f"\npath: {path}; groundtruth files: {origins}")
    if runner.dropped:
        print(f"keys ask does not accept (dropped on the ask path): {runner.dropped}")
    print("\n== today's constants (as shipped in rules/constants.py) ==")
    print_summary(rows)
    if not args.no_loso:
        from _loso import print_loso

        print_loso(cases, kb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
