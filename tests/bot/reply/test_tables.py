"""Picks and comparisons as tables: Markdown, CSV, rich on a terminal (never breaking a word), plain when piped."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from bot.console.cli import main
from bot.reply.model import Answer
from bot.reply.render import render_csv, render_markdown, render_terminal, render_text
from bot.service import ask
from knowledge.loader import default_knowledge

ROOT = Path(__file__).resolve().parents[3]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def picks_answer() -> Answer:
    return ask({"text": "Qwen-7B inference"}, fetch_config=None)


def _pick_names(answer: Answer) -> list[str]:
    kb = default_knowledge()
    return [f"{p.count}× {kb.gpus[p.gpu].name.removeprefix('NVIDIA ')}" for p in answer.picks]


def test_csv_is_the_picks(picks_answer: Answer) -> None:
    rows = list(csv.reader(io.StringIO(render_csv(picks_answer))))
    assert rows[0][:2] == ["#", "GPU"]
    assert [r[1] for r in rows[1:]] == _pick_names(picks_answer)
    used = rows[0].index("GiB used")  # the figures are GiB, as the text labels them (audit 30 LOW-138)
    assert [float(r[used]) for r in rows[1:]] == [round(p.memory_per_gpu_gb, 1) for p in picks_answer.picks]
    where = rows[0].index("cloud · instance")
    assert all(r[where].split(" ")[0] in ("AWS", "Alibaba", "Lambda", "Hyperstack", "Verda", "Nebius", "GCP", "")
               for r in rows[1:])


def test_markdown_has_the_table_and_the_rest_as_text(picks_answer: Answer) -> None:
    text = render_markdown(picks_answer)
    table_lines = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table_lines) == 2 + len(picks_answer.picks)  # header, rule, one line per pick
    assert table_lines[1].startswith("| ---: | --- | ---: |")
    assert "Memory needed" in text and "Assumed:" in text


@pytest.mark.parametrize("width", [60, 80, 100, 140])
def test_terminal_tables_fit_and_never_break_a_word(picks_answer: Answer, width: int) -> None:
    out = render_terminal(picks_answer, width=width, color=False)
    assert max(cell_len(line) for line in out.splitlines()) <= width
    words = {w for p in picks_answer.picks for w in [*(_pick_names(picks_answer)), p.instance or ""]
             for w in w.split()}
    lines = out.splitlines()
    for word in words:
        assert any(word in line for line in lines), f"{word!r} was broken at width {width}"


def test_a_terminal_too_narrow_gets_records_not_cropped_columns(picks_answer: Answer) -> None:
    out = render_terminal(picks_answer, width=30, color=False)
    assert "GPU: " + _pick_names(picks_answer)[0] in out and "┃" not in out


def test_traditional_chinese_table() -> None:
    answer = ask({"text": "Qwen-7B 推理要幾張卡"}, fetch_config=None)
    out = render_terminal(answer, width=120, color=False)
    assert "顯卡" in out and "显卡" not in out


def test_compare_table(picks_answer: Answer) -> None:
    answer = ask({"text": "H100 vs A100 vs L40S for Qwen-14B inference"}, fetch_config=None)
    rows = list(csv.reader(io.StringIO(render_csv(answer))))
    assert [r[0] for r in rows[1:]] == ["H100 SXM5 80GB", "A100 80GB", "L40S"]


def test_ask_format_flags() -> None:
    out = io.StringIO()
    assert main(["ask", "--format", "csv", "Qwen-7B inference"], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue().startswith("#,GPU,")
    out = io.StringIO()
    assert main(["ask", "--format", "md", "Qwen-7B inference"], stdout=out, stderr=io.StringIO()) == 0
    assert "| # | GPU |" in out.getvalue()


def test_piped_ask_is_plain_text(picks_answer: Answer) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "ask", "Qwen-7B inference"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=True)
    assert done.stdout == render_text(picks_answer) + "\n"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_ask_on_a_terminal_prints_a_table() -> None:
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "LINES": "40", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "ask", "Qwen-7B inference"], stdout=slave,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=120)
    os.close(master)
    out = ANSI.sub("", b"".join(chunks).decode())
    assert proc.returncode == 0
    assert "┃ GPU" in out and "│" in out


def test_a_compare_shows_the_peak_the_job_computes_at() -> None:
    # A LoRA in bf16: the 4090's fp32-accumulate 165.2 TFLOPS beside the A100's 312, not its fp16-accumulate 330.
    from bot.reply.render import render_text
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    text = render_text(answer_request({"text": "4090 vs A100 for Llama 3 8B LoRA"}, kb), kb=kb)
    assert "165.2 TFLOPS bf16" in text and "312 TFLOPS bf16" in text and "330.3" not in text
