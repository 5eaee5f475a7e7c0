"""`kb models | head` and `ask --json - | head`: a reader that goes away ends the command quietly.

The reader's end of the pipe is closed before the command writes anything, so every write meets EPIPE
deterministically (a real `head` may or may not exit before the writer's buffer fills).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run_into_closed_pipe(args: list[str], stdin_text: str = "") -> subprocess.CompletedProcess[bytes]:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin_text.encode(), stdout=write_end,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=120, check=False)
    finally:
        os.close(write_end)


def test_kb_models_into_a_closed_pipe_ends_quietly() -> None:
    done = _run_into_closed_pipe(["kb", "models"])
    assert done.stderr.decode() == ""
    assert done.returncode == 141


def test_ask_json_lines_into_a_closed_pipe_ends_quietly() -> None:
    questions = "\n".join(["what GPU for ChatGLM-6B inference", "Qwen-7B LoRA"] * 3) + "\n"
    done = _run_into_closed_pipe(["ask", "--json", "-"], questions)
    assert b"Traceback" not in done.stderr and b"BrokenPipe" not in done.stderr, done.stderr.decode()
    assert done.returncode == 141


def test_kb_models_through_head_prints_the_first_line_only() -> None:
    done = subprocess.run(f"{sys.executable} -m bot kb models | head -n 1", shell=True, capture_output=True,
                          cwd=ROOT, timeout=120, check=False)
    assert len(done.stdout.decode().splitlines()) == 1
    assert b"Traceback" not in done.stderr
