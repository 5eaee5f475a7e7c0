"""Latency of the answer pipeline, in process and from a cold start.

Answers the example questions (../shared/examples/questions.yaml) round-robin N times (default 1,000)
through the same `Advisor.respond` every front end uses, timing parse + answer and render separately,
then times a fresh `python -m bot ask` process to its first answer.

    .venv/bin/python bench/latency.py [--answers 1000]

Goal (issue 2): p99 under 5 ms per answer, start-up under 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = Path(os.environ.get("GPU_ADVISOR_EXAMPLES", ROOT.parent / "shared/examples/questions.yaml"))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=1000)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from bot.reply.render import render_blocks, render_text
    from bot.service import Advisor

    questions = [case["text"] for case in yaml.safe_load(EXAMPLES.read_text(encoding="utf-8"))]
    advisor = Advisor()
    for text in questions:  # warm caches (templates compile once, like a long-running bot)
        reply = advisor.respond(text, "")
        render_text(reply.answer)
        render_blocks(reply.answer, thread_key="warm")
    answer_ms: list[float] = []
    render_ms: list[float] = []
    for i in range(args.answers):
        text = questions[i % len(questions)]
        start = time.perf_counter()
        reply = advisor.respond(text, "")
        middle = time.perf_counter()
        render_blocks(reply.answer, thread_key="bench")
        end = time.perf_counter()
        answer_ms.append((middle - start) * 1000)
        render_ms.append((end - middle) * 1000)
    total_ms = [a + r for a, r in zip(answer_ms, render_ms, strict=True)]
    print(f"{args.answers} answers over {len(questions)} example questions")
    for name, values in (("parse+answer", answer_ms), ("render (Block Kit)", render_ms), ("total", total_ms)):
        print(f"  {name:20} p50 {statistics.median(values):6.2f} ms   p99 {percentile(values, 0.99):6.2f} ms"
              f"   max {max(values):6.2f} ms")

    starts = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bot", "ask", "what GPU for ChatGLM-6B inference"], cwd=ROOT,
                       check=True, capture_output=True)
        starts.append(time.perf_counter() - start)
    print(f"  start-up to first answer (python -m bot ask, 3 runs): best {min(starts):.2f} s, "
          f"median {statistics.median(starts):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
