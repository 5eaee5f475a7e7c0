"""Mixture-of-experts decode on Apple silicon (llama.cpp Metal): the rules against published speeds, and the fit of
rules.speed_constants.METAL_MOE_EXPERT_VISIT_S, in-sample and left-one-source-out.

    python bench/apple_moe.py

Rows: bench/groundtruth/apple_moe/rows.yaml (those with `fit`: llama.cpp and Ollama, MoE and dense). For each MoE
row the per-visit cost it implies is (1/measured − 1/modelled without it) / (MoE layers × experts per token); the
constant is the median of the per-source medians. Left-one-source-out refits it without each source and scores that
source's rows with the refit.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from statistics import median
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from knowledge.loader import default_knowledge
from rules import speed_constants as S
from rules.speed import _moe_layers, unified_memory_decode_tokens_per_s
from rules.types import Workload

ROWS = Path(__file__).resolve().parent / "groundtruth" / "apple_moe" / "rows.yaml"


def _cases() -> list[dict[str, Any]]:
    kb = default_knowledge()
    out = []
    for row in yaml.safe_load(ROWS.read_text()):
        fit = row.get("fit")
        if not fit:
            continue
        model = kb.models[fit["kb_model"]]
        workload = Workload(model=model, task="inference", precision=fit["precision"], quant=fit["quant"],
                            engine="llama.cpp", context=512, batch=1)
        visits = _moe_layers(workload, model.moe) * model.moe.experts_per_token if model.moe else 0
        out.append({"id": row["id"], "group": fit["group"], "workload": workload, "visits": visits,
                    "bandwidth": float(row["bandwidth_gbps"]), "measured": float(row["decode_tokens_per_s"])})
    return out


def _modelled(case: dict[str, Any], visit_s: float) -> float:
    """The rules' decode with `visit_s` in place of the fitted constant."""
    without = S.METAL_MOE_EXPERT_VISIT_S
    S.METAL_MOE_EXPERT_VISIT_S = 0.0
    try:
        base = unified_memory_decode_tokens_per_s(replace(case["workload"]), case["bandwidth"])
    finally:
        S.METAL_MOE_EXPERT_VISIT_S = without
    return 1.0 / (1.0 / base + visit_s * case["visits"])


def _fit(cases: list[dict[str, Any]]) -> float:
    by_group: dict[str, list[float]] = {}
    for case in cases:
        if case["visits"]:
            implied = (1.0 / case["measured"] - 1.0 / _modelled(case, 0.0)) / case["visits"]
            by_group.setdefault(case["group"], []).append(implied)
    return median(median(values) for values in by_group.values())


def _summary(errors: list[float]) -> str:
    ordered = sorted(abs(e) for e in errors)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median |error| {100 * median(ordered):.1f}%  p90 {100 * p90:.1f}%  (n={len(ordered)})"


def main() -> None:
    cases = _cases()
    fitted = _fit(cases)
    print(f"METAL_MOE_EXPERT_VISIT_S: shipped {S.METAL_MOE_EXPERT_VISIT_S * 1e6:.1f} µs, refit on all sources "
          f"{fitted * 1e6:.1f} µs")
    moe = [c for c in cases if c["visits"]]
    dense = [c for c in cases if not c["visits"]]
    for label, subset in (("MoE", moe), ("dense", dense)):
        before = [(_modelled(c, 0.0) - c["measured"]) / c["measured"] for c in subset]
        shipped = [(_modelled(c, S.METAL_MOE_EXPERT_VISIT_S) - c["measured"]) / c["measured"] for c in subset]
        print(f"{label:5s} without the constant: {_summary(before)}")
        print(f"{label:5s} with it (shipped):     {_summary(shipped)}")
    held_out = []
    for group in sorted({c["group"] for c in moe}):
        refit = _fit([c for c in cases if c["group"] != group])
        held_out += [(_modelled(c, refit) - c["measured"]) / c["measured"] for c in moe if c["group"] == group]
    print(f"MoE   left-one-source-out:   {_summary(held_out)}")
    for case in cases:
        modelled = _modelled(case, S.METAL_MOE_EXPERT_VISIT_S)
        print(f"  {case['id']:6s} {case['workload'].model.id:30s} {case['bandwidth']:5.0f} GB/s  measured "
              f"{case['measured']:6.1f}  modelled {modelled:6.1f}  ({100 * (modelled / case['measured'] - 1):+.0f}%)")


if __name__ == "__main__":
    main()
