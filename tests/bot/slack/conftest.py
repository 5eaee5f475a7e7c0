"""Fixtures for the Slack front-end tests: the fake Web API, a listener-level app, a real `serve` process."""

from __future__ import annotations

import functools
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot.slack.fake_slack import FakeSlack

ROOT = Path(__file__).resolve().parents[3]
SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
BOT_TOKEN = "xoxb-1111111111-2222222222-TESTtokenSHOULDneverLEAK"
APP_TOKEN = "xapp-1-A0APP-3333333333-TESTappTOKENneverLEAKS"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@functools.lru_cache(maxsize=1)
def real_pipeline_works() -> bool:
    """True when bot.service + bot.reply.render can answer a question (else e2e runs use tests/bot/slack/fakes)."""
    try:
        from bot.reply.render import render_blocks
        from bot.service import Advisor

        reply = Advisor().respond("what GPU for ChatGLM-6B inference", "probe:1")
        render_blocks(reply.answer, thread_key="probe:1")
        return bool(reply.answer.picks)
    except Exception:
        return False


@pytest.fixture
def fake_slack() -> Iterator[FakeSlack]:
    with FakeSlack(bot_token=BOT_TOKEN, app_token=APP_TOKEN) as slack:
        yield slack


def bot_env(fake: FakeSlack, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "REDIS_URL"))}
    env.update({
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": fake.api_url,
        "LOG_LEVEL": "DEBUG",
        "HOST": "127.0.0.1",
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
    })
    if not real_pipeline_works():
        env["GPU_ADVISOR_FAKE_PIPELINE"] = "1"
    env.update(extra)
    return env


def bot_command(mode: str) -> list[str]:
    if real_pipeline_works():
        return [sys.executable, "-m", "bot", mode]
    return [sys.executable, "-m", "tests.bot.slack.run_bot", mode]


class ServeProcess:
    def __init__(self, fake: FakeSlack, log_path: Path, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(bot_command("serve"), cwd=ROOT, env=bot_env(fake, PORT=str(self.port), **env),
                                        stdout=self._log, stderr=subprocess.STDOUT)
        self.wait_healthy()

    def wait_healthy(self, timeout: float = 30.0) -> None:
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited with {self.process.returncode}:\n{self.logs()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=0.5) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"serve did not become healthy:\n{self.logs()[-3000:]}")

    def logs(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self) -> int:
        self.process.terminate()
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._log.close()
        return code


def post(url: str, body: str, headers: dict[str, str], timeout: float = 10.0) -> tuple[int, str, float]:
    """POST and return (status, body, seconds)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode(), time.perf_counter() - started
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace"), time.perf_counter() - started


def everything(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)
