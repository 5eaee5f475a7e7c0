"""Advice an engineer would sign: ../shared/examples/advice.yaml through `ask --json`, check by check.

Each case is a question and checks on the JSON answer (the file's header defines the check language: eq, in,
between, le, le_or_null, present, absent, contains, all_le, not_in_if_pick_pre_ampere, any). The question goes
through `bot.service.ask`, the same code path as `gpu-advisor ask --json`.

    python bench/advice.py                    # one line per case, then the summary
    python bench/advice.py --file other.yaml  # another file in the same format
    python bench/advice.py --verbose          # the answer's key figures for every case

Cases that use a key of the runtime and cost issues (query.kv_cache, engine unsloth, query.tokens, speed.train_hours,
cost, prices) are counted apart as well, so progress on the advice issue alone stays visible.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_FILE = Path(__file__).resolve().parents[1].parent / "shared/examples/advice.yaml"
LATER_KEYS = ("query.kv_cache", "query.tokens", "speed.train_hours", "cost", "prices")
MISSING = object()
PRE_AMPERE_ARCHITECTURES = ("pascal", "volta", "turing", "maxwell", "kepler")


def lookup(data: Any, path: str) -> Any:
    """`picks.0.gpu` → data["picks"][0]["gpu"]; MISSING where the path does not exist."""
    node = data
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
    return node


def _is_pre_ampere(gpu_id: str | None) -> bool:
    from knowledge.loader import default_knowledge

    gpu = default_knowledge().gpus.get(gpu_id or "")
    return gpu is not None and any(a in (gpu.architecture or "").lower() for a in PRE_AMPERE_ARCHITECTURES)


def check(answer: Mapping[str, Any], spec: Mapping[str, Any]) -> tuple[bool, str]:
    """(holds, what was seen) for one check of the file's language."""
    if "any" in spec:
        results = [check(answer, sub) for sub in spec["any"]]
        return any(ok for ok, _ in results), " | ".join(seen for _, seen in results)
    path = spec["path"]
    value = lookup(answer, path)
    seen = f"{path}={'<missing>' if value is MISSING else value!r}"
    if "present" in spec:
        present = value is not MISSING and value is not None and value != []
        return present == bool(spec["present"]), seen
    if "absent" in spec:
        return value is MISSING or value is None, seen
    if "le_or_null" in spec:
        return value is MISSING or value is None or (_number(value) is not None and value <= spec["le_or_null"]), seen
    if value is MISSING:
        return False, seen
    if "eq" in spec:
        return value == spec["eq"], seen
    if "in" in spec:
        return value in spec["in"], seen
    if "between" in spec:
        lo, hi = (float(bound) for bound in spec["between"])  # PyYAML reads 2.9e11 (no exponent sign) as text
        return _number(value) is not None and lo <= value <= hi, seen
    if "le" in spec:
        return _number(value) is not None and value <= float(spec["le"]), seen
    if "contains" in spec:
        return isinstance(value, str) and str(spec["contains"]).lower() in value.lower(), seen
    if "all_le" in spec:
        field, bound = spec["all_le"]["field"], spec["all_le"]["value"]
        items = value if isinstance(value, list) else []
        worst = max((item.get(field, 0) for item in items), default=None)
        return bool(items) and all(item.get(field, 0) <= bound for item in items), f"{path}: max {field}={worst}"
    if "not_in_if_pick_pre_ampere" in spec:
        top = lookup(answer, "picks.0.gpu")
        if top is MISSING or not _is_pre_ampere(top):
            return True, f"{seen} (top pick {top} is not pre-Ampere)"
        return value not in spec["not_in_if_pick_pre_ampere"], f"{seen} on {top}"
    raise ValueError(f"unknown check {spec}")


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _later(case: Mapping[str, Any]) -> bool:
    text = yaml.safe_dump(case.get("checks"))
    return any(key in text for key in LATER_KEYS) or "unsloth" in text


def run(path: Path, verbose: bool) -> int:
    from bot.service import ask

    cases = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    passed = passed_now = now = 0
    for index, case in enumerate(cases, 1):
        answer = ask({"text": case["text"]}).as_json()
        results = [check(answer, spec) for spec in case["checks"]]
        ok = all(r for r, _ in results)
        passed += ok
        if not _later(case):
            now += 1
            passed_now += ok
        mark = "PASS" if ok else "FAIL"
        later = " (runtime/cost issue)" if _later(case) else ""
        print(f"{mark} {index:2d} {case['text']}{later}")
        for holds, seen in results:
            if verbose or not holds:
                print(f"       {'ok ' if holds else 'no '} {seen}")
        if verbose:
            est = answer.get("estimate") or {}
            picks = ", ".join(f"{p['count']}x {p['gpu']}" for p in (answer.get("picks") or [])[:3])
            print(f"       per card {est.get('per_gpu_gb')} GiB; picks {picks}; speed {answer.get('speed')}")
    print(f"\n{passed}/{len(cases)} cases pass; {passed_now}/{now} of those without runtime/cost keys")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if not args.file.exists():
        print(f"advice file not found: {args.file}")
        return 0
    return run(args.file, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
