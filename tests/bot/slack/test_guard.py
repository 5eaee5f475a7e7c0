"""The signature guard in front of Bolt and the gunicorn configuration of `serve` (issue 11)."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.slack.app import build_app
from bot.slack.server import gunicorn_application, gunicorn_options, make_wsgi_app
from bot.slack.settings import Settings
from bot.state import MemoryStore
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import BOT_TOKEN, SIGNING_SECRET
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.slack.fakes import FakeAdvisor, FakeRenderer


@pytest.fixture
def wsgi(fake_slack: FakeSlack) -> Any:
    settings = Settings.from_env({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                                  "SLACK_API_URL": fake_slack.api_url})
    store = MemoryStore()
    app = build_app(settings, advisor=FakeAdvisor(store), store=store, renderer=FakeRenderer(), kb=object())
    yield make_wsgi_app(app)
    app.listener_runner.listener_executor.shutdown(wait=True)


def call(wsgi: Any, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    environ: dict[str, Any] = {"REQUEST_METHOD": "POST", "PATH_INFO": "/slack/events", "QUERY_STRING": "",
                               "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
                               "CONTENT_TYPE": headers.pop("Content-Type", "application/json"),
                               "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "3000", "SERVER_PROTOCOL": "HTTP/1.1",
                               "wsgi.url_scheme": "http"}
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    seen: dict[str, str] = {}

    def start_response(status: str, _headers: list[tuple[str, str]], *_: Any) -> None:
        seen["status"] = status

    chunks: Iterable[bytes] = wsgi(environ, start_response)
    return int(seen["status"].split()[0]), b"".join(chunks)


def test_forged_large_body_is_refused_with_one_short_line(wsgi: Any, caplog: pytest.LogCaptureFixture) -> None:
    marker = "FORGED" * 150_000  # ~900 KB, under the size limit
    body = ('{"type":"event_callback","event_id":"Ev1","event":{"type":"app_mention","text":"' + marker + '"}}')
    headers = {"Content-Type": "application/json", **p.sign("not-the-secret", body)}
    with caplog.at_level(logging.DEBUG):
        status, _ = call(wsgi, body.encode(), headers)
    assert status == 401
    assert "FORGEDFORGED" not in caplog.text
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and len(refused[0].getMessage()) < 200


@pytest.mark.parametrize("timestamp", ["abc", "", "1e9", "17000000000000000000000000"])
def test_non_numeric_or_absurd_timestamp_is_401(wsgi: Any, timestamp: str) -> None:
    body = '{"type":"event_callback","event_id":"Ev2","event":{}}'
    headers = {"Content-Type": "application/json", "X-Slack-Request-Timestamp": timestamp,
               "X-Slack-Signature": "v0=00"}
    assert call(wsgi, body.encode(), headers)[0] == 401


@pytest.mark.parametrize(("body", "ctype"), [
    ("{not json", "application/json"),
    ("[1, 2]", "application/json"),
    ("payload=%7Bnot+json", "application/x-www-form-urlencoded"),
    ("{broken", "application/x-www-form-urlencoded"),
])
def test_signed_but_unparsable_body_is_400(wsgi: Any, body: str, ctype: str) -> None:
    headers = {"Content-Type": ctype, **p.sign(SIGNING_SECRET, body)}
    assert call(wsgi, body.encode(), headers)[0] == 400


def test_signed_stale_request_is_401_and_fresh_one_passes(wsgi: Any) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference")
    body, headers = p.signed(SIGNING_SECRET, payload, timestamp=int(time.time()) - 600)
    assert call(wsgi, body.encode(), dict(headers))[0] == 401
    body, headers = p.signed(SIGNING_SECRET, payload)
    assert call(wsgi, body.encode(), dict(headers)) == (200, b"")


# --- gunicorn configuration ------------------------------------------------------------------------


def _app_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, conf: str | None, cmd_args: str | None) -> Any:
    monkeypatch.chdir(tmp_path)
    if conf is not None:
        (tmp_path / "gunicorn.conf.py").write_text(conf)
    monkeypatch.setattr("sys.argv", ["gpu-advisor", "serve", "--not-a-gunicorn-flag"])
    environ = {"GUNICORN_CMD_ARGS": cmd_args} if cmd_args is not None else {}
    options = gunicorn_options(Settings.from_env({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": "s"}))
    return gunicorn_application(lambda environ, start: [], options, environ)


def test_gunicorn_uses_our_options_without_conf_or_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app_in(tmp_path, monkeypatch, None, None)
    assert app.cfg.timeout == 30 and app.cfg.threads == 8


def test_gunicorn_conf_file_overrides_our_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app_in(tmp_path, monkeypatch, "timeout = 61\nthreads = 3\n", None)
    assert app.cfg.timeout == 61 and app.cfg.threads == 3


def test_gunicorn_cmd_args_override_the_conf_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app_in(tmp_path, monkeypatch, "timeout = 61\nthreads = 3\n", "--timeout 90")
    assert app.cfg.timeout == 90 and app.cfg.threads == 3
