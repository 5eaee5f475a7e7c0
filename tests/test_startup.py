"""`python -m bot ask` pays only for what answering needs: no Slack, HTTP server or Redis client is imported on
the way to a console answer (each costs 0.1-0.2 s of start-up here; bench/latency.py prints the total)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def modules_imported_by_ask() -> set[str]:
    """Every module the real `ask` process imports, read from CPython's own -X importtime report."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SLACK_", "REDIS_"))}
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "bot", "ask", "what GPU for ChatGLM-6B inference"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.strip(), "ask printed no answer"
    return {match.group(1) for match in re.finditer(r"^import time:.*\|\s*([\w.]+)\s*$", run.stderr, re.MULTILINE)}


def test_the_report_is_read(modules_imported_by_ask: set[str]) -> None:
    assert {"bot.console.cli", "knowledge.loader", "yaml"} <= modules_imported_by_ask


@pytest.mark.parametrize("package", ["slack_bolt", "slack_sdk", "gunicorn", "websocket"])
def test_ask_imports_no_slack_or_server_code(modules_imported_by_ask: set[str], package: str) -> None:
    assert package not in modules_imported_by_ask


def test_ask_does_not_import_redis(modules_imported_by_ask: set[str]) -> None:
    assert "redis" not in modules_imported_by_ask
