"""The Slack front end: a Bolt app whose listeners turn Slack payloads into `Advisor.respond` calls.

This is the only module that imports slack_bolt. Every listener is thin: it reads (text, thread key,
user) from the payload, then `SlackFrontEnd.answer` checks the per-user limit, asks the advisor, renders
Block Kit and delivers it (thread reply, DM, `response_url`, `chat.update`). Failures are logged with the
delivery's event id and told to the user as one short line; no exception text reaches Slack.

The app is assembled here: `build_app` wires the advisor, store and renderer into `SlackFrontEnd`, then
the middleware and listeners (`bot.slack.listeners`); `wsgi_handler` and `socket_mode_handler` adapt it to
the HTTP server and Socket Mode.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from bot.ports import AdvisorLike
from bot.slack.client import CHANNEL_POST_INTERVAL_S, ChannelPacer, build_web_client
from bot.slack.frontend import RendererLike, SlackFrontEnd, StoreLike
from bot.slack.listeners import register
from bot.slack.settings import Settings
from bot.slack.shapes import ShapeCheckedApp

# --- the app ---------------------------------------------------------------------------------------


def _default_dependencies(
    settings: Settings, store: StoreLike | None, kb: Any
) -> tuple[AdvisorLike, StoreLike, RendererLike, Any]:
    import os

    import bot.reply.render as renderer
    from bot.service import Advisor
    from bot.state import store_from_env
    from knowledge.loader import default_knowledge

    environ = dict(os.environ)
    if settings.redis_url:
        environ["REDIS_URL"] = settings.redis_url
    the_store = store if store is not None else store_from_env(environ)
    the_kb = kb if kb is not None else default_knowledge()
    return Advisor(kb=the_kb, store=the_store), the_store, renderer, the_kb  # type: ignore[arg-type]


def build_app(
    settings: Settings,
    *,
    advisor: AdvisorLike | None = None,
    store: StoreLike | None = None,
    renderer: RendererLike | None = None,
    kb: Any = None,
    client: WebClient | None = None,
    listener_threads: int = 16,
    post_interval_s: float = CHANNEL_POST_INTERVAL_S,
) -> App:
    """The Bolt app for both HTTP (`serve`) and Socket Mode (`socket`).

    Request signatures are verified by Bolt's RequestVerification middleware with
    `settings.signing_secret` (forged or >5-minute-old requests get 401 before any listener runs).
    The WebClient points at `settings.api_url` and retries 429/5xx/connection errors.
    """
    if advisor is None or store is None or renderer is None:
        defaults = _default_dependencies(settings, store, kb)
        advisor = advisor or defaults[0]
        store = store or defaults[1]
        renderer = renderer or defaults[2]
        kb = kb if kb is not None else defaults[3]
    front = SlackFrontEnd(advisor, store, renderer, kb, ChannelPacer(post_interval_s))
    app = ShapeCheckedApp(
        client=client or build_web_client(settings),
        signing_secret=settings.signing_secret or "",
        # auth.test runs lazily on the first request instead of at import, so building the app (and
        # gunicorn forking workers) needs no network; `serve` checks the token once at start-up.
        token_verification_enabled=False,
        process_before_response=False,
        listener_executor=ThreadPoolExecutor(max_workers=listener_threads, thread_name_prefix="gpu-advisor"),
        logger=logging.getLogger("slack_bolt"),
    )
    register(app, front)
    return app


def wsgi_handler(app: App, path: str = "/slack/events") -> Any:
    """Bolt's WSGI adapter for `serve` (it passes the raw body and headers to `App.dispatch`, so Bolt's
    signature check runs on every request)."""
    from slack_bolt.adapter.wsgi import SlackRequestHandler

    return SlackRequestHandler(app, path=path)


def socket_mode_handler(app: App, app_token: str) -> Any:
    """Bolt's websocket-client Socket Mode adapter for `socket`; it asks apps.connections.open on the
    app's WebClient (SLACK_API_URL) for the WebSocket URL."""
    from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler

    return SocketModeHandler(app, app_token=app_token, web_client=app.client,
                             logger=logging.getLogger("slack_sdk.socket_mode"))


