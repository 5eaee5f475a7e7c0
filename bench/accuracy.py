"""Accuracy of the memory estimates against published figures (../shared/groundtruth/published.yaml).

Every case becomes a request dict with the keys of `ask` (model, task, precision, quant, engine, context,
batch, gpu, gpus, gen_tokens, zero_stage, gradient_checkpointing, lora_rank, optimizer) and goes through
ONE function, `estimate_for(request) -> (per_gpu_gib, total_gib)`: `bot.reply.answer.answer_request` when it
exists (the same code path as `ask`), otherwise the rules directly. Keys `ask` does not know
(flash_attention, offload, pure_16bit, train_embeddings, params_b for generic rows) are honoured on the
rules path and dropped — and counted — on the `ask` path.

    python bench/accuracy.py                 # table + summary
    python bench/accuracy.py --rules         # force the rules path
    python bench/accuracy.py --group qwen2.5 # only groups containing the text
    GPU_ADVISOR_GROUNDTRUTH=path.yaml python bench/accuracy.py

Comparison: memory_scope per_gpu → the per-card estimate; any "total…" scope → the total over the cards.
memory_relation peak/requirement → signed error % = (estimate − published) / published; fits_within /
oom_above → a verdict: the estimate must be ≤ / > the card's usable memory (visible memory − CUDA
context).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml

from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge
from rules import constants as C
from rules.hardware import usable_gib

GROUNDTRUTH_ENV = "GPU_ADVISOR_GROUNDTRUTH"
DEFAULT_GROUNDTRUTH = Path(__file__).resolve().parents[1].parent / "shared/groundtruth/published.yaml"

from bot.reply.overrides import FLAG_KEYS  # noqa: E402

ASK_KEYS = frozenset({"text", *FLAG_KEYS})
"""Keys `ask` (bot.reply.overrides.FLAG_KEYS) accepts; the others only reach the rules path."""

GENERIC_RE = re.compile(r"generic\s*~?\s*(\d+(?:\.\d+)?)\s*B", re.I)


# --------------------------------------------------------------------------------------------------------
# Case → request
# --------------------------------------------------------------------------------------------------------


class Skip(Exception):
    """A case that cannot be evaluated (model not in the knowledge base, format not modelled)."""


def _hf_name(text: str) -> str:
    name = text.split(" (")[0].strip()
    return name.replace("(-Chat)", "").replace("(-Instruct)", "")


def resolve_model(case: dict[str, Any], kb: KnowledgeBase) -> dict[str, Any]:
    text = str(case["model"])
    generic = GENERIC_RE.search(text)
    if generic and text.lower().startswith("generic"):
        return {"params_b": float(generic.group(1))}
    result = kb.model_index.lookup(_hf_name(text))
    if result.best is None or not result.confident:
        raise Skip(f"model not in knowledge base: {text}")
    return {"model": result.best.id}


def map_precision(case: dict[str, Any]) -> dict[str, Any]:
    """The published precision string → precision / quant (+ rules-only flags)."""
    p = str(case["precision"]).lower()
    if "2-bit" in p:
        return {"precision": "int4", "quant": "int2"}
    if "pure bf16" in p:
        return {"precision": "bf16", "pure_16bit": True}
    if "unstated" in p and "fp32" in p:
        return {"precision": "fp32"}
    if "gptq-int8" in p:
        return {"precision": "int8", "quant": "gptq-int8"}
    if "gptq-int4" in p:
        return {"precision": "int4", "quant": "gptq"}
    if "awq" in p:
        return {"precision": "int4", "quant": "awq"}
    if "nf4" in p:
        dq = "double quant" in p or "+ nq" in p
        return {"precision": "int4", "quant": "nf4-dq" if dq else "nf4"}
    if "fp4" in p or "bnb-4bit" in p:
        return {"precision": "int4", "quant": "fp4"}
    if "llm.int8" in p or "bnb-int8" in p or p.strip() == "8-bit":
        return {"precision": "int8", "quant": "bnb-int8"}
    if p.strip() == "4-bit":
        return {"precision": "int4", "quant": "nf4"}
    for plain in ("fp32", "fp8", "int8", "int4"):
        if p.startswith(plain):
            return {"precision": plain}
    if p.startswith("fp16"):
        return {"precision": "fp16"}
    if "bf16" in p or "16-bit" in p or "fp16" in p:
        return {"precision": "bf16"}
    raise Skip(f"precision not mapped: {case['precision']}")


def _zero_stage(settings: dict[str, Any], gpus: int) -> int | None:
    ds = str(settings.get("deepspeed") or "")
    match = re.search(r"ZeRO-(\d)", ds, re.I)
    if "single-GPU" in ds and gpus == 1:
        return None
    if match:
        return int(match.group(1))
    return None


GPU_PATTERNS = (("a100", "80", "a100-80gb"), ("a100", "40", "a100-40gb"), ("t4", "", "t4"),
                ("4090", "", "rtx-4090"), ("titan rtx", "", None), ("a10", "", "a10"),
                ("h100", "", "h100-sxm"))


def resolve_gpu(text: str | None, kb: KnowledgeBase) -> str | None:
    if not text:
        return None
    low = text.lower()
    for key, size, gpu_id in GPU_PATTERNS:
        if key in low and size in low:
            return gpu_id if gpu_id in kb.gpus else None
    return None


def weights_only(case: dict[str, Any]) -> bool:
    """The figure is weights (or model states) only: a load-time footprint, no tokens in flight."""
    settings = case.get("settings") or {}
    return ("load only" in str(settings.get("phase", "")) or "NO activations" in str(case.get("notes") or "")
            or str(case.get("memory_scope")) == "total (weights)")


def to_request(case: dict[str, Any], kb: KnowledgeBase) -> dict[str, Any]:
    req: dict[str, Any] = {}
    req.update(resolve_model(case, kb))
    task = str(case["task"])
    req["task"] = {"full-ft": "train", "p-tuning": "lora", "freeze": "lora"}.get(task, task)
    req.update(map_precision(case))
    if req["task"] == "qlora" and "quant" not in req:
        req.update(precision="int4", quant="nf4")
    settings: dict[str, Any] = case.get("settings") or {}
    seq, gen = case.get("seq_len"), case.get("gen_len")
    if seq is not None or gen is not None:
        req["context"] = max(1, int(seq or 0) + int(gen or 0))
        if gen:
            req["gen_tokens"] = min(int(gen), req["context"])
    elif weights_only(case):
        req["context"] = 1  # weights / model states only: no tokens in flight
    # The published tables are transformers (or DeepSpeed) peaks unless their notes say otherwise; say so
    # explicitly, since ask's own default for concurrent serving is vLLM.
    if req["task"] == "inference":
        req["engine"] = "vllm" if "vllm" in str(case.get("notes") or "").lower() else "transformers"
    gpus = int(case.get("num_gpus") or 1)
    req["gpus"] = gpus
    req["batch"] = int(case.get("batch_size") or 1)
    gpu = resolve_gpu(case.get("gpu"), kb)
    if gpu:
        req["gpu"] = gpu
    if req["task"] != "inference":
        stage = _zero_stage(settings, gpus)
        if stage is not None:
            req["zero_stage"] = stage
        if "gradient_checkpointing" in settings:
            req["gradient_checkpointing"] = bool(settings["gradient_checkpointing"])
        if settings.get("lora_r"):
            req["lora_rank"] = int(settings["lora_r"])
        elif task == "p-tuning":
            req["lora_rank"] = 8  # P-Tuning v2 trains a prefix of a few million parameters: a rank-8 stand-in
        optimizer = str(settings.get("optimizer") or "").lower()
        if "8bit" in optimizer or "8-bit" in optimizer:
            req["optimizer"] = "adamw-8bit"
        if settings.get("trainable_embedding_and_lm_head"):
            req["train_embeddings"] = True
        options = str(settings.get("options") or "")
        if "offload_optimizer=cpu" in options:
            req["offload"] = "optimizer"
    framework = str(settings.get("framework") or "")
    attention = str(settings.get("attention") or "")
    if settings.get("flash_attention") is False or "eager" in attention or framework == "HF transformers":
        req["flash_attention"] = False
    if framework.startswith("Unsloth"):
        raise Skip("engine not modelled: Unsloth's fused kernels")
    if "cpu offloading" in str(settings.get("deepspeed") or "").lower() and "options" not in settings:
        raise Skip("CPU offload of unstated scope")
    return req


# --------------------------------------------------------------------------------------------------------
# The one estimate function
# --------------------------------------------------------------------------------------------------------


def ask_available() -> bool:
    try:
        from bot.reply.answer import answer_request  # noqa: F401
    except Exception:
        return False
    return True


@dataclass
class Runner:
    kb: KnowledgeBase
    use_ask: bool
    dropped: dict[str, int] = field(default_factory=dict)

    def estimate_for(self, request: dict[str, Any]) -> tuple[float, float]:
        """(per-card GiB, total GiB) for one request: through `ask` when available, else the rules."""
        if self.use_ask:
            return self._via_ask(request)
        return self._via_rules(request)

    def _via_ask(self, request: dict[str, Any]) -> tuple[float, float]:
        from bot.reply.answer import answer_request

        flags = {k: v for k, v in request.items() if k in ASK_KEYS}
        for k in request:
            if k not in ASK_KEYS:
                self.dropped[k] = self.dropped.get(k, 0) + 1
        answer = answer_request(flags, self.kb)
        if answer.estimate is None:
            raise Skip("ask returned no estimate")
        return answer.estimate.per_gpu_gb, answer.estimate.total_gb

    def _via_rules(self, request: dict[str, Any]) -> tuple[float, float]:
        from _cases import workload_for

        from rules import estimate_memory

        workload = workload_for(request, self.kb)
        gpu = self.kb.gpus.get(request["gpu"]) if request.get("gpu") else None
        est = estimate_memory(workload, int(request.get("gpus", 1)), gpu)
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


def capacity_gib(case: dict[str, Any], kb: KnowledgeBase) -> float:
    gpu = resolve_gpu(case.get("gpu"), kb)
    if gpu and case.get("memory_scope") == "per_gpu":
        card = kb.gpus[gpu]
        if abs(card.memory_gb - float(case["memory_gb"])) < 1.0:
            return usable_gib(card)
    return float(case["memory_gb"]) - C.CUDA_CONTEXT_GIB


def evaluate(cases: list[dict[str, Any]], runner: Runner) -> list[Row]:
    rows: list[Row] = []
    for case in cases:
        row = Row(case)
        try:
            request = to_request(case, runner.kb)
            per_gpu, total = runner.estimate_for(request)
        except Skip as why:
            row.skipped = str(why)
            rows.append(row)
            continue
        except Exception as exc:  # a bad mapping must not hide the other cases
            row.skipped = f"error: {type(exc).__name__}: {exc}"
            rows.append(row)
            continue
        value = per_gpu if case.get("memory_scope") == "per_gpu" else total
        row.estimate = value
        relation = case.get("memory_relation")
        if relation in ("peak", "requirement"):
            row.error = (value - float(case["memory_gb"])) / float(case["memory_gb"]) * 100
        elif relation == "fits_within":
            row.verdict = value <= capacity_gib(case, runner.kb)
        elif relation == "oom_above":
            row.verdict = value > capacity_gib(case, runner.kb)
        rows.append(row)
    return rows


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def context_stated(case: dict[str, Any]) -> bool:
    """The source gave the tokens in flight (or said it measured weights/model states only)."""
    return case.get("seq_len") is not None or case.get("gen_len") is not None or weights_only(case)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="store_true", help="use the rules directly even if ask exists")
    parser.add_argument("--group", help="only groups whose name contains this text")
    parser.add_argument("--quiet", action="store_true", help="summary only")
    args = parser.parse_args(argv)
    path = Path(os.environ.get(GROUNDTRUTH_ENV) or DEFAULT_GROUNDTRUTH)
    cases: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    if args.group:
        cases = [c for c in cases if args.group in str(c["group"])]
    kb = load_knowledge()
    runner = Runner(kb, use_ask=not args.rules and ask_available())
    rows = evaluate(cases, runner)
    if not args.quiet:
        print(f"{'case':<100} {'published':>9} {'estimate':>9} {'error%':>8}")
        for r in rows:
            cid = str(r.case["id"])[:100]
            if r.skipped:
                continue
            pub = f"{float(r.case['memory_gb']):9.2f}"
            est = f"{r.estimate:9.2f}" if r.estimate is not None else " " * 9
            if r.error is not None:
                tail = f"{r.error:+8.1f}"
            else:
                tail = f"{'ok' if r.verdict else 'WRONG':>8} ({r.case['memory_relation']})"
            print(f"{cid:<100} {pub} {est} {tail}")
        print("\nper group (signed error %: median, min, max, n):")
        for group, errs in sorted(by_group(rows).items(), key=lambda kv: -statistics.median(map(abs, kv[1]))):
            print(f"  {group:<40} {statistics.median(errs):+7.1f} {min(errs):+7.1f} {max(errs):+7.1f} "
                  f"{len(errs):4d}")
        skipped = [r for r in rows if r.skipped]
        if skipped:
            print(f"\nskipped ({len(skipped)}):")
            for r in skipped:
                print(f"  {r.case['id']}: {r.skipped}")
    s = summary(rows)
    print(f"\npath: {'bot.reply.answer.answer_request (ask)' if runner.use_ask else 'rules'}; groundtruth: {path}")
    if runner.dropped:
        print(f"keys ask does not accept (dropped on the ask path): {runner.dropped}")
    print(f"evaluated {s['evaluated']} cases ({s['error_cases']} peak/requirement, "
          f"{s['verdicts']} inequality), "
          f"skipped {s['skipped']}")
    print(f"median |error| {s['median_abs_error_pct']:.1f}%   p90 |error| {s['p90_abs_error_pct']:.1f}%   "
          f"verdicts right {s['verdicts_right']}/{s['verdicts']}")
    for label, subset in (("context stated by the source", [r for r in rows if context_stated(r.case)]),
                          ("context not stated (ask's default 4096 applies)",
                           [r for r in rows if not context_stated(r.case)]),
                          ("measured", [r for r in rows if r.case.get("kind") == "measured"]),
                          ("stated (rules of thumb, READMEs)",
                           [r for r in rows if r.case.get("kind") == "stated"])):
        t = summary(subset)
        print(f"  {label:<50} n={t['error_cases']:3d}  median {t['median_abs_error_pct']:5.1f}%  "
              f"p90 {t['p90_abs_error_pct']:5.1f}%  verdicts {t['verdicts_right']}/{t['verdicts']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
