"""Accuracy of the speed model against published throughputs (../shared/groundtruth/published.yaml rows with a
`throughput`, plus bench/groundtruth/*.yaml of the same schema when that folder exists).

    python bench/speed_accuracy.py            # table, summaries, skipped rows, leave-one-group-out
    python bench/speed_accuracy.py --quiet    # summaries only
    python bench/speed_accuracy.py --no-logo  # skip the refits

Each row becomes a request with bench/accuracy.py's `to_request` (model, precision, quantisation, cards) and a
Workload with bench/_cases.py; what the throughput itself measured is then read from the row:

* decode rows (inference, tokens/s): batch, prompt and generated tokens from the row, or from the throughput's
  note when it says it is a separate measurement ("generating 2048 new tokens from 1 context token"). The
  published figure is generated tokens over the whole generate call, so the model's figure is
  gen / (prefill time + gen × decode step at the average cache length).
* training rows in s/iter: tokens/s = cards × sequences per card per micro-step × gradient-accumulation steps ×
  sequence length / (s/iter). The Qwen fine-tuning scripts pad every sequence to `model_max_length`, so a
  micro-step holds exactly batch × seq_len tokens. Compared with `train_tokens_per_s`.
* rows whose unit cannot be turned into tokens honestly (seconds per benchmark run of unstated length) and rows
  whose model or card is not in the knowledge base are skipped and counted with the reason.

Errors are signed % = (model − published) / published; the summaries use |error|.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml
from _cases import engine_version_of, map_engine, workload_for
from accuracy import DEFAULT_GROUNDTRUTH, GROUNDTRUTH_ENV, Skip, percentile, resolve_gpu, to_request

from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge
from rules import speed_constants as S
from rules.speed import decode_step, prefill_seconds, train_tokens_per_s, unified_memory_decode_tokens_per_s

EXTRA_GROUNDTRUTH = Path(__file__).resolve().parent / "groundtruth"

GEN_RE = re.compile(r"generat\w*\s+(\d+)|(\d+)\s+generated", re.I)
PROMPT_RE = re.compile(r"from\s+(\d+)\s+context\s+token|(\d+)\s+prompt\s+token", re.I)


@dataclass
class Case:
    row: dict[str, Any]
    kind: str = ""
    engine: str = ""
    published: float = 0.0
    estimate: float | None = None
    skipped: str | None = None

    @property
    def group(self) -> str:
        return str(self.row["group"])

    @property
    def error(self) -> float | None:
        if self.estimate is None:
            return None
        return (self.estimate - self.published) / self.published * 100


IMAGE_UNITS = frozenset({"s/image", "s/batch"})
"""Throughput units of image-generation rows (bench/groundtruth/diffusion.yaml)."""


def load_rows() -> list[dict[str, Any]]:
    """Every row with a throughput: the shared groundtruth (or $GPU_ADVISOR_GROUNDTRUTH), bench/groundtruth and
    bench/groundtruth/speed (speed-only rows of engines that pre-allocate, so publish no memory)."""
    paths = [Path(os.environ.get(GROUNDTRUTH_ENV) or DEFAULT_GROUNDTRUTH)]
    if EXTRA_GROUNDTRUTH.is_dir():
        paths += sorted(EXTRA_GROUNDTRUTH.glob("*.yaml")) + sorted((EXTRA_GROUNDTRUTH / "speed").glob("*.yaml"))
    rows: list[dict[str, Any]] = []
    for path in paths:
        if path.exists():
            # not the image rows: seconds per image (or per batch of images) are not a token or step rate
            rows += [r for r in yaml.safe_load(path.read_text(encoding="utf-8")) or []
                     if r.get("throughput") and str(r["throughput"].get("unit")) not in IMAGE_UNITS]
    return rows


def version_of(row: dict[str, Any], engine: str) -> dict[str, str]:
    """The request key for the engine version the row ran (bench/_cases.engine_version_of), for the
    version-aware profiles (transformers' MoE expert loop, logits)."""
    version = engine_version_of(row, engine)
    return {"engine_version": version} if version else {}


def engine_of(row: dict[str, Any]) -> str:
    """The runtime a row measured: bench/_cases.map_engine's reading (its stated framework, else the engine
    whose repository published it), the same as the memory bench's."""
    return str(map_engine(row)["engine"])


def _first_int(pattern: re.Pattern[str], text: str) -> int | None:
    match = pattern.search(text)
    if not match:
        return None
    return int(next(g for g in match.groups() if g))


def decode_shape(row: dict[str, Any]) -> tuple[int, int]:
    """(prompt tokens, generated tokens) of the throughput measurement."""
    note = str(row["throughput"].get("note") or "")
    gen_note, prompt_note = _first_int(GEN_RE, note), _first_int(PROMPT_RE, note)
    if "separate" in note.lower() or row.get("gen_len") is None:
        if gen_note is None:
            raise Skip("generated tokens of the measurement not stated")
        return prompt_note or 1, gen_note
    return max(1, int(row.get("seq_len") or 1)), int(row["gen_len"])


def _card(row: dict[str, Any], kb: KnowledgeBase) -> str:
    named = str(row["throughput"].get("gpu") or row.get("gpu") or "")
    gpu = resolve_gpu(re.sub(r"^\s*\d+\s*[x×]\s*", "", named), kb)  # "1x A100", "8× H100"
    if gpu is None:
        raise Skip(f"card not in knowledge base: {row['throughput'].get('gpu') or row.get('gpu')}")
    return gpu


def estimate_decode(row: dict[str, Any], request: dict[str, Any], kb: KnowledgeBase, engine: str) -> float:
    prompt, gen = decode_shape(row)
    request = {**request, "engine": engine, "context": prompt + gen, "gen_tokens": gen,
               "batch": int(row.get("batch_size") or 1)}
    w = workload_for(request, kb)
    apple = str(row.get("gpu") or "").startswith("Apple M")
    if apple and prompt <= 1:
        # a Mac's decode (llama.cpp Metal), at the bandwidth the row states: the rules' own Apple path
        return unified_memory_decode_tokens_per_s(w, float(row["settings"]["memory_bandwidth_gbps_as_stated"]))
    gpu, count = kb.gpus[_card(row, kb)], int(row.get("num_gpus") or 1)
    seconds = prefill_seconds(w, gpu, count, prompt) + gen * decode_step(w, gpu, count).total_s
    return gen / seconds


def estimate_training(row: dict[str, Any], request: dict[str, Any], kb: KnowledgeBase) -> tuple[float, float]:
    """(published tokens/s, model tokens/s) of an s/iter row."""
    settings = row.get("settings") or {}
    per_card = int(settings.get("batch_size_per_gpu") or row.get("batch_size") or 1)
    accumulation = int(settings.get("gradient_accumulation_steps") or 1)
    seq, cards = int(row["seq_len"]), int(row.get("num_gpus") or 1)
    published = cards * per_card * accumulation * seq / float(row["throughput"]["value"])
    w = workload_for({**request, "context": seq, "batch": per_card}, kb)
    return published, train_tokens_per_s(w, kb.gpus[_card(row, kb)], cards)


def evaluate_row(row: dict[str, Any], kb: KnowledgeBase) -> Case:
    case = Case(row, engine=engine_of(row))
    unit = str(row["throughput"].get("unit") or "")
    try:
        if (row.get("settings") or {}).get("enforce_eager") is True:
            raise Skip("vLLM with enforce_eager=True (no CUDA graphs): not the profile's set-up")
        decode_units = ("tokens/s", "output tokens/s", "prompt + generated tokens/s")
        if unit.startswith(decode_units) and row["task"] == "inference":
            case.kind, case.published = "decode", float(row["throughput"]["value"])
            if "prompt + generated" in unit:
                # (prompt + generated) / time of the call (Qwen3's page): the same call's generated tokens/s.
                prompt, gen = decode_shape(row)
                case.published *= gen / (prompt + gen)
            settings = dict(row.get("settings") or {})
            settings.pop("framework", None)  # the engine is read here; to_request only knows transformers/vLLM
            request = {**to_request({**row, "settings": settings}, kb), **version_of(row, case.engine)}
            case.estimate = estimate_decode(row, request, kb, case.engine)
        elif unit.startswith("tokens/s") and row["task"] != "inference" and row.get("seq_len"):
            # A training rate as published (torchtune: tokens/s over an epoch, padding excluded).
            case.kind, case.published = "training", float(row["throughput"]["value"])
            request = to_request(row, kb)
            w = workload_for({**request, "context": int(row["seq_len"]), "batch": int(row.get("batch_size") or 1)}, kb)
            cards = int(row.get("num_gpus") or 1)
            case.estimate = train_tokens_per_s(w, kb.gpus[_card(row, kb)], cards)
            if row["throughput"].get("scope") == "per_gpu":
                case.estimate /= cards  # a rate the source gives per card (its total time over cards says so)
        elif unit == "s/iter" and row.get("seq_len"):
            case.kind = "training"
            request = to_request(row, kb)
            case.published, case.estimate = estimate_training(row, request, kb)
        else:
            raise Skip(f"unit not convertible to tokens/s: {unit!r}")
    except Skip as why:
        case.skipped = str(why)
    return case


def evaluate(rows: Iterable[dict[str, Any]], kb: KnowledgeBase) -> list[Case]:
    return [evaluate_row(row, kb) for row in rows]


def stats(cases: list[Case]) -> tuple[int, float, float]:
    errors = [abs(c.error) for c in cases if c.error is not None]
    if not errors:
        return 0, float("nan"), float("nan")
    return len(errors), statistics.median(errors), percentile(errors, 0.9)


# --------------------------------------------------------------------------------------------------------
# Fitted constants and their leave-one-group-out figures
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fitted:
    """A constant of rules/speed_constants.py the bench refits: `name` (attribute, optional dict key) and the
    grid it is searched on."""

    name: str
    key: str | None
    grid: tuple[float, ...]

    def get(self) -> float:
        value = getattr(S, self.name)
        return float(value[self.key] if self.key else value)

    def set(self, value: float) -> None:
        if self.key:
            getattr(S, self.name)[self.key] = value
        else:
            setattr(S, self.name, value)

    @property
    def label(self) -> str:
        return f"{self.name}[{self.key}]" if self.key else self.name


def _grid(lo: float, hi: float, n: int = 21) -> tuple[float, ...]:
    return tuple(lo + (hi - lo) * i / (n - 1) for i in range(n))


FITTED = (
    Fitted("DECODE_LAYER_OVERHEAD_S", "transformers", _grid(2e-4, 1.4e-3)),
    Fitted("DECODE_BANDWIDTH_EFFICIENCY", "transformers", _grid(0.5, 1.0)),
    Fitted("TRANSFORMERS_KV_BANDWIDTH_EFFICIENCY", None, _grid(0.01, 0.2)),
    Fitted("TRANSFORMERS_MOE_EXPERT_ITERATION_S", None, _grid(2e-5, 2e-4, 19)),
    Fitted("DECODE_BANDWIDTH_EFFICIENCY", "lmdeploy", _grid(0.5, 1.0)),
    Fitted("DECODE_STEP_OVERHEAD_S", "vllm", _grid(0.0, 4e-3, 9)),
    Fitted("DECODE_STEP_OVERHEAD_S", "sglang", _grid(0.0, 4e-3, 9)),
    Fitted("TRANSFORMERS_QUANT_LAYER_FACTOR", "awq", _grid(0.8, 2.0, 13)),
    Fitted("TRANSFORMERS_QUANT_LAYER_FACTOR", "gptq-int8", _grid(0.8, 2.0, 13)),
    Fitted("TRANSFORMERS_QUANT_LAYER_FACTOR", "nf4", _grid(0.8, 2.4, 17)),
    Fitted("TRANSFORMERS_QUANT_LAYER_FACTOR", "bnb-int8", _grid(2.0, 6.0, 17)),
    Fitted("TRANSFORMERS_QUANT_LAYER_FACTOR", "fp8", _grid(1.0, 5.0, 17)),
    Fitted("TRAIN_MFU", "transformers", _grid(0.25, 0.75)),
    Fitted("TRAIN_LAYER_OVERHEAD_S", "transformers", _grid(1e-3, 9e-3)),
    Fitted("QLORA_DEQUANT_S_PER_BPARAM", None, _grid(0.0, 0.08)),
    Fitted("COLLECTIVE_EFFICIENCY", None, _grid(0.2, 1.0)),
    Fitted("MARLIN_MOE_EXPERT_LAUNCH_S", None, _grid(0.0, 5e-6)),
    Fitted("CROSS_MACHINE_DECODE_STEP_S", None, _grid(0.0, 3e-2, 31)),
)


def _refit(constant: Fitted, rows: list[dict[str, Any]], kb: KnowledgeBase) -> tuple[float, bool]:
    """Grid value minimising the median |error| over `rows`; False when the rows do not depend on it."""
    scores = []
    for value in constant.grid:
        constant.set(value)
        scores.append((stats(evaluate(rows, kb))[1], value))
    best = min(scores)
    informative = max(s for s, _ in scores) - best[0] > 0.05
    return best[1], informative


def _dependent_rows(constant: Fitted, cases: list[Case], kb: KnowledgeBase) -> list[dict[str, Any]]:
    """The rows whose estimate moves when the constant does (by half again): the only ones that can inform it.
    `cases` are already evaluated with the shipped constants."""
    shipped = constant.get()
    constant.set(shipped * 1.5)
    after = evaluate([c.row for c in cases], kb)
    constant.set(shipped)
    return [b.row for b, a in zip(cases, after, strict=True)
            if b.estimate and a.estimate and abs(a.estimate / b.estimate - 1) > 1e-3]


def leave_one_group_out(cases: list[Case], kb: KnowledgeBase,
                        report: Callable[[str], None] = print) -> None:
    """For each fitted constant: refit it without each group in turn, on the other groups' rows that depend on
    it; the error on the left-out group's dependent rows with the value fitted on the others."""
    evaluated = [c for c in cases if c.skipped is None]
    for constant in FITTED:
        shipped = constant.get()
        dependent = _dependent_rows(constant, evaluated, kb)
        held_out: list[Case] = []
        values: list[float] = []
        for group in sorted({str(r["group"]) for r in dependent}):
            inside = [r for r in dependent if str(r["group"]) != group]
            outside = [r for r in dependent if str(r["group"]) == group]
            if not inside:
                continue
            value, informative = _refit(constant, inside, kb)
            if informative:
                constant.set(value)
                held_out += evaluate(outside, kb)
                values.append(value)
            constant.set(shipped)
        if held_out:
            n, med, p90 = stats(held_out)
            report(f"  {constant.label:<48} shipped {shipped:<9.4g} refits {min(values):.4g}–{max(values):.4g}  "
                   f"held-out n={n:3d} median {med:5.1f}% p90 {p90:5.1f}%")
        else:
            report(f"  {constant.label:<48} shipped {shipped:<9.4g} only one group informs it: no leave-one-out")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="summaries only")
    parser.add_argument("--no-logo", action="store_true", help="skip the leave-one-group-out refits")
    args = parser.parse_args(argv)
    kb = load_knowledge()
    cases = evaluate(load_rows(), kb)
    done = [c for c in cases if c.skipped is None]
    if not args.quiet:
        print(f"{'case':<92} {'kind':<8} {'engine':<12} {'published':>9} {'model':>9} {'error%':>7}")
        for c in done:
            print(f"{str(c.row['id'])[:92]:<92} {c.kind:<8} {c.engine:<12} {c.published:9.1f} "
                  f"{c.estimate:9.1f} {c.error:+7.1f}")
    n, med, p90 = stats(done)
    print(f"\nrows with a throughput: {len(cases)}; evaluated {n}; skipped {len(cases) - len(done)}")
    print(f"overall: n={n}  median |error| {med:.1f}%  p90 |error| {p90:.1f}%   (goal: median ≤ 25%, p90 ≤ 50%)")
    for title, key in (("per engine", lambda c: c.engine), ("per kind", lambda c: c.kind),
                       ("per group", lambda c: c.group)):
        print(f"\n{title}:")
        for value in sorted({key(c) for c in done}):
            subset = [c for c in done if key(c) == value]
            n, med, p90 = stats(subset)
            signed = statistics.median(c.error for c in subset if c.error is not None)
            print(f"  {value:<40} n={n:3d}  median |error| {med:5.1f}%  p90 {p90:5.1f}%  signed median {signed:+6.1f}%")
    reasons: dict[str, int] = {}
    for c in cases:
        if c.skipped:
            reasons[c.skipped] = reasons.get(c.skipped, 0) + 1
    if reasons:
        print("\nskipped:")
        for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"  {count:3d}  {reason}")
    if not args.no_logo:
        print("\nleave-one-group-out (refit each constant without a group, error on that group):")
        leave_one_group_out(cases, kb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
