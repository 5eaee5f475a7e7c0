"""`python -m bot serve`: the Bolt app behind gunicorn (HTTP mode).

    POST /slack/events   events, /gpu, interactivity and shortcuts (Bolt's WSGI adapter; Bolt verifies the
                         X-Slack-Signature of every request and refuses forged or stale ones with 401)
    GET  /healthz        200 "ok" (liveness; touches nothing outside the process)

The app is built once in the master before gunicorn forks (so a broken setup fails at start with one
line, and workers share the loaded knowledge base). Without REDIS_URL the state store lives in memory,
so a single worker process is used (threads give the concurrency); with REDIS_URL, WEB_CONCURRENCY
worker processes (default 2) share de-duplication, rate limits and threads through Redis.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from bot.errors import ConfigError
from bot.slack.settings import Settings

log = logging.getLogger("bot.slack.server")

MAX_BODY_BYTES = 1 << 20
"""Slack's payloads are a few KiB; anything far larger is not from Slack."""
THREADS = 8

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def make_wsgi_app(bolt_app: Any, path: str = "/slack/events") -> WSGIApp:
    """Route /healthz ourselves and everything at `path` to Bolt's WSGI adapter (which keeps Bolt's
    signature verification: it hands the raw body and headers to `App.dispatch`)."""
    from bot.slack.app import wsgi_handler

    handler = wsgi_handler(bolt_app, path=path)

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        route = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET")
        if route == "/healthz" and method in ("GET", "HEAD"):
            start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "3")])
            return [b"ok\n"]
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > MAX_BODY_BYTES:
            start_response("413 Payload Too Large", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"Payload Too Large"]
        started = time.perf_counter()
        seen: dict[str, str] = {}

        def recording_start_response(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            seen["status"] = status
            return start_response(status, headers, *args)

        body = handler(environ, recording_start_response)
        status = int((seen.get("status") or "0").split(" ", 1)[0] or 0)
        fields = {"kind": "http", "method": method, "path": route, "status": status,
                  "ack_ms": round((time.perf_counter() - started) * 1000, 1),
                  "retry_num": environ.get("HTTP_X_SLACK_RETRY_NUM")}
        if status == 401:
            log.warning("request refused: bad or stale signature", extra=fields)
        elif status >= 400:
            log.info("request not handled", extra=fields)
        else:
            log.debug("request acknowledged", extra=fields)
        return body

    return app


def _gunicorn_application(wsgi: WSGIApp, options: dict[str, Any]) -> Any:
    from gunicorn.app.base import BaseApplication

    class GunicornApp(BaseApplication):
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> WSGIApp:
            return wsgi

    return GunicornApp()


def gunicorn_options(settings: Settings) -> dict[str, Any]:
    from bot.slack.logs import logging_config

    workers = (settings.web_concurrency or 2) if settings.redis_url else 1
    host = os.environ.get("HOST", "0.0.0.0")
    return {
        "bind": f"{host}:{settings.port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": THREADS,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": settings.log_level.lower(),
        "logconfig_dict": logging_config(settings.log_level),
        "proc_name": "gpu-advisor",
        "control_socket_disable": True,
    }


def _check_token(settings: Settings) -> str | None:
    """auth.test once at start-up: a rejected token is a config error; an unreachable API is only logged
    (the app retries on its first request)."""
    from slack_sdk import WebClient
    from slack_sdk.errors import SlackApiError

    try:
        client = WebClient(token=settings.bot_token, base_url=settings.api_url, timeout=5, retry_handlers=[])
        client.auth_test()
    except SlackApiError as error:
        code = error.response.get("error") if error.response is not None else None
        if code in ("invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"):
            return f"SLACK_BOT_TOKEN was rejected by the Slack Web API at {settings.api_url} ({code})"
        log.warning("auth.test failed at start-up; continuing", extra={"error": str(code)})
    except Exception as error:
        log.warning("Slack Web API unreachable at start-up; continuing",
                    extra={"error": type(error).__name__})
    return None


def main() -> int:
    try:
        settings = Settings.from_env()
        settings.require_http()
    except ConfigError as error:
        print(f"gpu-advisor serve: {error}", file=sys.stderr)
        return 2
    from bot.slack.logs import install_excepthook, setup_logging

    setup_logging(settings.log_level, settings.secrets)
    install_excepthook()
    problem = _check_token(settings)
    if problem:
        print(f"gpu-advisor serve: {problem}", file=sys.stderr)
        return 2
    from bot.slack.app import build_app

    wsgi = make_wsgi_app(build_app(settings))
    log.info("starting HTTP server", extra={"path": "/slack/events", "port": settings.port})
    try:
        _gunicorn_application(wsgi, gunicorn_options(settings)).run()
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return 0
