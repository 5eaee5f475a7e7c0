"""`python -m bot serve`: the Bolt app behind gunicorn (HTTP mode).

    POST /slack/events   events, /gpu, interactivity and shortcuts: bot.slack.guard checks X-Slack-Signature on
                         the raw bytes first (forged/stale → 401, signed but unreadable → 400), then Bolt
    GET  /healthz        200 "ok" (liveness; touches nothing outside the process)

The app is built once in the master before gunicorn forks (so a broken setup fails at start with one
line, and workers share the loaded knowledge base). Without REDIS_URL the state store lives in memory,
so a single worker process is used (threads give the concurrency); with REDIS_URL, WEB_CONCURRENCY
worker processes (default 2) share de-duplication, rate limits and threads through Redis.

gunicorn is configured as its documentation says (our defaults, then ./gunicorn.conf.py, then GUNICORN_CMD_ARGS).

In production a buffering reverse proxy (nginx, a cloud load balancer, the platform's router) must sit in
front: gunicorn's gthread worker gives each connection a thread while it reads the request, so a few dozen
clients trickling headers or bodies hold every thread and Slack's requests wait (measured: 40 slow
connections timed out every ack for 20 s). gunicorn's own deployment guide asks for such a proxy for that
reason; a proxy that buffers whole requests hands gunicorn only complete ones. Binding to 127.0.0.1 or a
private network behind it (HOST) keeps slow clients away from gunicorn itself.
"""

from __future__ import annotations

import logging
import os
import shlex
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


def make_wsgi_app(bolt_app: Any, path: str = "/slack/events", *, signing_secret: str | None = None) -> WSGIApp:
    """Route /healthz ourselves and everything else through the signature guard (bot.slack.guard: forged,
    stale and unreadable requests are refused before anything parses them) to Bolt's WSGI adapter.

    `signing_secret` defaults to the Bolt app's own."""
    from bot.slack.app import wsgi_handler
    from bot.slack.guard import verified_first

    handler = wsgi_handler(bolt_app, path=path)
    secret = signing_secret if signing_secret is not None else str(getattr(bolt_app, "_signing_secret", "") or "")

    def bolt(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        seen: dict[str, str] = {}

        def recording_start_response(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            seen["status"] = status
            return start_response(status, headers, *args)

        body = handler(environ, recording_start_response)
        status = int((seen.get("status") or "0").split(" ", 1)[0] or 0)
        fields = {"kind": "http", "method": environ.get("REQUEST_METHOD"), "path": environ.get("PATH_INFO"),
                  "status": status, "ack_ms": round((time.perf_counter() - started) * 1000, 1),
                  "retry_num": environ.get("HTTP_X_SLACK_RETRY_NUM")}
        if status == 401:
            log.warning("request refused: bad or stale signature", extra=fields)
        elif status >= 400:
            log.info("request not handled", extra=fields)
        else:
            log.debug("request acknowledged", extra=fields)
        return body

    guarded = verified_first(bolt, secret, limit=MAX_BODY_BYTES)

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "") == "/healthz" and environ.get("REQUEST_METHOD", "GET") in ("GET", "HEAD"):
            start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "3")])
            return [b"ok\n"]
        return guarded(environ, start_response)

    return app


def gunicorn_application(wsgi: WSGIApp, options: dict[str, Any], environ: dict[str, str] | None = None) -> Any:
    """gunicorn's `Application` serving `wsgi`, configured as gunicorn itself would be: our `options` first,
    then ./gunicorn.conf.py (or the file GUNICORN_CMD_ARGS names with --config), then GUNICORN_CMD_ARGS —
    so an operator tunes the server the way gunicorn's documentation says. sys.argv is never read (it holds
    `python -m bot serve`'s own arguments)."""
    from gunicorn.app.base import Application
    from gunicorn.config import get_default_config_file

    env = os.environ if environ is None else environ

    class GunicornApp(Application):
        def init(self, parser: Any, opts: Any, args: Any) -> None:
            return None

        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)
            parser = self.cfg.parser()
            raw = env.get("GUNICORN_CMD_ARGS", "")
            env_args = parser.parse_args(shlex.split(raw)) if raw.strip() else None
            config_file = (env_args.config if env_args is not None else None) or get_default_config_file()
            if config_file:
                self.load_config_from_file(config_file)
            if env_args is not None:
                for key, value in vars(env_args).items():
                    if value is not None and key != "args":
                        self.cfg.set(key.lower(), value)

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
        "keepalive": 5,  # deploy/nginx.conf closes idle upstream connections first (4 s), or a POST meets a 502
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

    wsgi = make_wsgi_app(build_app(settings), signing_secret=settings.signing_secret or "")
    log.info("starting HTTP server", extra={"path": "/slack/events", "port": settings.port})
    try:
        gunicorn_application(wsgi, gunicorn_options(settings)).run()
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return 0
