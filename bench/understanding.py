"""Question-understanding accuracy on the shared example questions.

Runs every question of ../shared/examples/questions.yaml (override with GPU_ADVISOR_EXAMPLES) through
`python -m bot ask --json -` in one process (one question per line on stdin, one JSON object per line
back) and prints the share of expected fields that come out right, then each miss. When `bot.console.cli` does not
exist yet, or the command fails, the questions go through `bot.understand.parse.parse` in-process instead (a note says
so). A list under `expect` means any one of its values is right.

    .venv/bin/python bench/understanding.py [--in-process] [--quiet] [--latency]

`--latency` also times `parse()` in-process over the same questions (after one warm-up pass; 200 rounds)
and prints p50 / p99 / max per question.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared/examples/questions.yaml"
FIELDS = ("intent", "model", "params_b", "task", "precision", "context", "batch", "gpu", "gpu_count", "lang")


def load_examples(path: Path | None = None) -> list[dict[str, Any]]:
    path = path or Path(os.environ.get("GPU_ADVISOR_EXAMPLES") or EXAMPLES)
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return [item for item in data if isinstance(item, dict) and "text" in item]


def via_cli(texts: list[str]) -> list[dict[str, Any]] | None:
    """Each question's `intent` + `query` from `python -m bot ask --json -`, or None if that is unavailable."""
    sys.path.insert(0, str(ROOT))
    try:
        if importlib.util.find_spec("bot.console.cli") is None:
            print("note: bot/cli.py does not exist yet; parsing in-process with bot.understand.parse.parse")
            return None
    except (ImportError, ValueError):
        print("note: bot.console.cli cannot be imported; parsing in-process with bot.understand.parse.parse")
        return None
    lines = "".join(json.dumps({"text": t}, ensure_ascii=False) + "\n" for t in texts)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "ask", "--json", "-"], input=lines, capture_output=True, text=True,
            cwd=ROOT, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"note: `python -m bot ask --json -` failed ({exc}); parsing in-process")
        return None
    rows = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or len(rows) != len(texts):
        tail = (proc.stderr.strip().splitlines() or ["no error output"])[-1]
        print(f"note: `python -m bot ask --json -` exited {proc.returncode} with {len(rows)} of {len(texts)} "
              f"answers ({tail}); parsing in-process")
        return None
    out = []
    for row in rows:
        data = json.loads(row)
        out.append({"intent": data.get("intent"), **(data.get("query") or {})})
    return out


def in_process(texts: list[str]) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT))
    from bot.understand.parse import parse
    from knowledge.loader import load_knowledge

    kb = load_knowledge()
    return [parse(t, kb).model_dump() for t in texts]


def same(field: str, got: Any, want: Any) -> bool:
    wanted = want if isinstance(want, list) else [want]
    for value in wanted:
        if field == "params_b" and got is not None and value is not None:
            try:
                if abs(float(got) - float(value)) <= 0.01 * max(1.0, float(value)):
                    return True
            except (TypeError, ValueError):
                pass
        elif got == value:
            return True
    return False


def score(examples: list[dict[str, Any]], results: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    right = total = 0
    misses: list[str] = []
    for example, got in zip(examples, results, strict=True):
        for key, want in (example.get("expect") or {}).items():
            if key not in FIELDS:
                continue
            total += 1
            if same(key, got.get(key), want):
                right += 1
            else:
                misses.append(f"{example['text']!r}: {key} = {got.get(key)!r}, expected {want!r}")
    return right, total, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--in-process", action="store_true", help="call parse() directly, skip the CLI")
    parser.add_argument("--quiet", action="store_true", help="print the figure only")
    parser.add_argument("--latency", action="store_true", help="also time parse() in-process (p50/p99)")
    args = parser.parse_args(argv)
    examples = load_examples()
    texts = [str(e["text"]) for e in examples]
    results = None if args.in_process else via_cli(texts)
    source = "python -m bot ask --json -"
    if results is None:
        results = in_process(texts)
        source = "bot.understand.parse.parse (in-process)"
    right, total, misses = score(examples, results)
    share = 100.0 * right / total if total else 100.0
    print(f"understanding: {right}/{total} expected fields right = {share:.1f}% "
          f"({len(examples)} questions, via {source})")
    if not args.quiet:
        for miss in misses:
            print("  miss:", miss)
    if args.latency:
        latency(texts)
    return 0


def latency(texts: list[str], rounds: int = 200) -> None:
    import time

    sys.path.insert(0, str(ROOT))
    from bot.understand.parse import parse
    from knowledge.loader import load_knowledge

    kb = load_knowledge()
    for text in texts:
        parse(text, kb)  # warm-up: builds the name vocabulary once per knowledge base
    timings: list[float] = []
    for _ in range(rounds):
        for text in texts:
            start = time.perf_counter()
            parse(text, kb)
            timings.append(time.perf_counter() - start)
    timings.sort()

    def pct(p: float) -> float:
        return 1e3 * timings[min(len(timings) - 1, int(p * len(timings)))]

    print(f"parse latency over {len(texts)} questions x {rounds}: p50 {pct(0.5):.3f} ms, p99 {pct(0.99):.3f} ms, "
          f"max {1e3 * timings[-1]:.3f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
