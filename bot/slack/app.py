"""The Slack front end: a Bolt app whose listeners turn Slack payloads into `Advisor.respond` calls.

This is the only module that imports slack_bolt. Every listener is thin: it reads (text, thread key,
user) from the payload, then `SlackFrontEnd.answer` checks the per-user limit, asks the advisor, renders
Block Kit and delivers it (thread reply, DM, `response_url`, `chat.update`). Failures are logged with the
delivery's event id and told to the user as one short line; no exception text reaches Slack.

Surfaces (see manifest.yml):
    app_mention          reply in the thread (thread_ts = event.thread_ts or event.ts)
    message.im           answer every human DM; edits, deletions, other subtypes and bots are ignored
    /gpu                 ack at once, then an ephemeral answer via response_url; `/gpu` or `/gpu help` = help
    gpu_advisor.* buttons recompute with the button's overrides and update the message in place
    size_message         message shortcut: sizes the message's text, ephemeral (or DM without response_url)
    app_home_opened      publishes the Home tab
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from slack_bolt import App, BoltContext, BoltRequest, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import RetryHandler
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import BackoffRetryIntervalCalculator

from bot.errors import BadRequestError
from bot.ports import AdvisorLike
from bot.service import language_of
from bot.slack.logs import quiet_retry_noise
from bot.slack.settings import Settings

log = logging.getLogger("bot.slack.app")

ACTION_PREFIX = "gpu_advisor."
POST_ACTION_ID = "gpu_advisor.post"
"""The "Post to channel" button; every other `gpu_advisor.*` button recomputes with its overrides."""
SHORTCUT_CALLBACK_ID = "size_message"
COMMAND = "/gpu"
HELP_WORDS = frozenset({"", "help", "-h", "--help", "?", "？", "帮助", "幫助", "使用说明", "说明"})
QUESTIONS_PER_MINUTE = 20
WEB_API_TIMEOUT_S = 10

# --- the shapes this module codes against (bot/service.py, bot/render.py, bot/state.py) --------------




class StoreLike(Protocol):
    def get_question(self, thread_key: str) -> Any: ...
    def put_question(self, thread_key: str, q: Any) -> None: ...
    def first_delivery(self, delivery_id: str) -> bool: ...
    def allow(self, user_id: str, limit: int = ..., window_s: int = ...) -> bool: ...
    def recent(self, user_id: str) -> list[str]: ...


class RendererLike(Protocol):
    def render_blocks(
        self, answer: Any, *, thread_key: str = "", ephemeral: bool = False, kb: Any = None,
        show_maths: bool = False,
    ) -> tuple[list[dict[str, Any]], str]: ...
    def render_home(self, recent: list[str], kb: Any = None) -> dict[str, Any]: ...


# --- text we build ourselves -----------------------------------------------------------------------


ERROR_LINE = {
    "en": "Sorry, something went wrong on my side while sizing that. Please try again in a minute.",
    "zh-Hans": "抱歉，我这边处理时出了点问题，请稍后再试。",
    "zh-Hant": "抱歉，我這邊處理時出了點問題，請稍後再試。",
}
RATE_LIMITED_LINE = {
    "en": f"You're asking faster than I can size (limit: {QUESTIONS_PER_MINUTE} questions a minute). "
    "Give me a moment and ask again.",
    "zh-Hans": f"提问太快了（每分钟最多 {QUESTIONS_PER_MINUTE} 个问题），请稍等片刻再问。",
    "zh-Hant": f"提問太快了（每分鐘最多 {QUESTIONS_PER_MINUTE} 個問題），請稍等片刻再問。",
}
BAD_REQUEST_LINE = {
    "en": "I couldn't use that: {detail}",
    "zh-Hans": "无法处理这个请求：{detail}",
    "zh-Hant": "無法處理這個請求：{detail}",
}


def escape(text: str) -> str:
    """Slack's mrkdwn escaping: &, <, > so user text can never become a mention, broadcast or link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_BROADCAST = re.compile(r"<!(channel|here|everyone|subteam\^[^>]*)(\|[^>]*)?>", re.IGNORECASE)


def defuse(value: Any) -> Any:
    """Last line of defence on everything we send: no <!channel>/<!here>/<!everyone>/<!subteam^…> ever
    leaves the bot, even if a renderer forgot to escape the user's text."""
    if isinstance(value, str):
        return _BROADCAST.sub(lambda m: "&lt;" + m.group(0)[1:-1] + "&gt;", value)
    if isinstance(value, list):
        return [defuse(item) for item in value]
    if isinstance(value, dict):
        return {key: defuse(item) for key, item in value.items()}
    return value


# --- deliveries: identity, retries, de-duplication -------------------------------------------------


@dataclass
class Delivery:
    key: str | None
    """What makes this delivery unique (event id, trigger id, action + message ts); None = not deduped."""
    event_id: str | None
    retry_num: int | None
    retry_reason: str | None
    received: float
    """time.perf_counter() when the request entered the app."""

    def log_fields(self) -> dict[str, Any]:
        return {"event_id": self.event_id or self.key, "retry_num": self.retry_num,
                "retry_reason": self.retry_reason}


def delivery_key(body: Mapping[str, Any]) -> str | None:
    """The identity of one user-visible request, the same for Slack's retries and duplicate deliveries."""
    kind = body.get("type")
    if kind == "event_callback":
        event_id = body.get("event_id")
        return f"event:{event_id}" if event_id else None
    if kind == "block_actions":
        actions = body.get("actions") or [{}]
        action_ts = actions[0].get("action_ts")
        message_ts = (body.get("container") or {}).get("message_ts")
        if action_ts and message_ts:
            return f"action:{action_ts}:{message_ts}"
        trigger = body.get("trigger_id")
        return f"trigger:{trigger}" if trigger else None
    if body.get("command") or kind in ("message_action", "shortcut", "view_submission"):
        trigger = body.get("trigger_id")
        return f"trigger:{trigger}" if trigger else None
    return None


def _header(request: BoltRequest, name: str) -> str | None:
    values = request.headers.get(name) or []
    return values[0] if values else None


def read_delivery(request: BoltRequest, body: Mapping[str, Any]) -> Delivery:
    retry = _header(request, "x-slack-retry-num")
    try:
        retry_num = int(retry) if retry is not None else None
    except ValueError:
        retry_num = None
    return Delivery(
        key=delivery_key(body),
        event_id=body.get("event_id") if isinstance(body.get("event_id"), str) else None,
        retry_num=retry_num,
        retry_reason=_header(request, "x-slack-retry-reason"),
        received=time.perf_counter(),
    )


def delivery_of(context: BoltContext) -> Delivery:
    found = context.get("gpu_advisor_delivery")
    return found if isinstance(found, Delivery) else Delivery(None, None, None, None, time.perf_counter())


# --- the Web API client ----------------------------------------------------------------------------


def retry_handlers(backoff_factor: float = 0.5) -> list[RetryHandler]:
    """429 → wait Retry-After and retry; 500/503 and connection errors → retry with backoff. After the
    last retry the call raises and the listener's guard logs it once; the process keeps serving."""
    backoff = BackoffRetryIntervalCalculator(backoff_factor=backoff_factor)
    return [
        ConnectionErrorRetryHandler(max_retry_count=2, interval_calculator=backoff),
        RateLimitErrorRetryHandler(max_retry_count=3),
        ServerErrorRetryHandler(max_retry_count=2, interval_calculator=backoff),
    ]


def build_web_client(settings: Settings, *, backoff_factor: float = 0.5) -> WebClient:
    quiet_retry_noise("slack_sdk.web", "slack_sdk.webhook.client")
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=WEB_API_TIMEOUT_S,
        retry_handlers=retry_handlers(backoff_factor),
        logger=logging.getLogger("slack_sdk.web"),
    )


# --- payload helpers -------------------------------------------------------------------------------


def _thread_key(channel: str, thread_ts: str | None) -> str:
    from bot.state import thread_key

    return thread_key(channel, thread_ts)


def is_from_bot(event: Mapping[str, Any]) -> bool:
    return bool(event.get("bot_id") or event.get("bot_profile") or event.get("subtype") == "bot_message")


def is_dm(event: Mapping[str, Any]) -> bool:
    channel = str(event.get("channel") or "")
    return event.get("channel_type") == "im" or channel.startswith("D")


def _answer_facts(reply: Any) -> dict[str, Any]:
    answer = getattr(reply, "answer", None)
    query = getattr(answer, "query", None)
    return {"intent": getattr(answer, "intent", None), "model": getattr(query, "model", None)}


def _parse_value(raw: str | None) -> tuple[str | None, dict[str, object]]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return None, {}
    if not isinstance(value, dict):
        return None, {}
    thread = value.get("thread")
    overrides = value.get("overrides")
    return (thread if isinstance(thread, str) else None), (overrides if isinstance(overrides, dict) else {})


Send = Callable[[list[dict[str, Any]], str], Any]
Notify = Callable[[str], Any]


class SlackFrontEnd:
    """What the listeners share: the advisor, the store, the renderer and the answer path."""

    def __init__(self, advisor: AdvisorLike, store: StoreLike, renderer: RendererLike, kb: Any) -> None:
        self.advisor = advisor
        self.store = store
        self.renderer = renderer
        self.kb = kb

    # The one path every question takes.
    def answer(
        self,
        kind: str,
        context: BoltContext,
        *,
        text: str,
        key: str,
        user: str | None,
        send: Send,
        notify: Notify,
        ephemeral: bool = False,
        overrides: dict[str, object] | None = None,
        replay: bool = False,
    ) -> Any:
        """Limit → Advisor.respond → render_blocks → send; returns the Reply (None when not answered).

        `replay`: re-answer the thread's stored question as it is (the "Post to channel" button)."""
        delivery = delivery_of(context)
        fields: dict[str, Any] = {"kind": kind, "user": user, **delivery.log_fields()}
        lang = language_of(text)
        try:
            if user and not self.store.allow(user, QUESTIONS_PER_MINUTE, 60):
                log.info("rate limited", extra=fields)
                # One notice per user per minute: a flood of questions must not become a flood of notices.
                if self.store.first_delivery(f"ratelimit-notice:{user}:{int(time.time() // 60)}"):
                    notify(self.notice("rate_limited", lang))
                return None
            if replay and not overrides:
                reply = self._replay(key)
            else:
                reply = self.advisor.respond(text, key, user_id=user, overrides=overrides or None)
            lang = getattr(getattr(reply.answer, "query", None), "lang", lang) or lang
            blocks, fallback = self.renderer.render_blocks(
                reply.answer, thread_key=key, ephemeral=ephemeral, kb=self.kb,
                show_maths=bool(getattr(reply, "show_maths", False)))
            send(defuse(blocks), defuse(fallback))
        except BadRequestError as error:
            log.warning("bad request", extra={**fields, "error": str(error)})
            self._tell(notify, BAD_REQUEST_LINE.get(lang, BAD_REQUEST_LINE["en"]).format(
                detail=escape(str(error))[:300]), fields)
            return None
        except Exception:
            log.exception("handler failed", extra=fields)
            self._tell(notify, self.notice("error", lang), fields)
            return None
        log.info("answered", extra={**fields, **_answer_facts(reply),
                                    "latency_ms": round((time.perf_counter() - delivery.received) * 1000, 1)})
        return reply

    def _replay(self, key: str) -> Any:
        """The stored question of `key`, answered again unchanged."""
        reply = self.advisor.replay(key)
        if reply is None:
            raise BadRequestError("I no longer have that question (they expire after a day); ask again")
        return reply

    def notice(self, key: str, lang: str) -> str:
        """One escaped line in the user's language: bot.reply.render.render_notice, or the local copy."""
        render_notice = getattr(self.renderer, "render_notice", None)
        if render_notice is not None:
            try:
                return str(render_notice(key, lang, limit=QUESTIONS_PER_MINUTE))
            except Exception:
                log.warning("render_notice failed; using the built-in line", exc_info=True)
        lines = RATE_LIMITED_LINE if key == "rate_limited" else ERROR_LINE
        return escape(lines.get(lang, lines["en"]))

    @staticmethod
    def _tell(notify: Notify, line: str, fields: dict[str, Any]) -> None:
        try:
            notify(defuse(line))
        except Exception as error:  # already logged above; say why the user was not told, once, briefly
            log.warning("could not tell the user about the failure",
                        extra={**fields, "error": type(error).__name__})

    def guarded(self, kind: str, context: BoltContext, work: Callable[[], Any]) -> None:
        """For listeners that do not answer a question (Home tab, Post to channel): log any failure once."""
        fields = {"kind": kind, **delivery_of(context).log_fields()}
        try:
            work()
        except Exception:
            log.exception("handler failed", extra=fields)
            return
        latency = round((time.perf_counter() - delivery_of(context).received) * 1000, 1)
        log.info("done", extra={**fields, "latency_ms": latency})


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
    front = SlackFrontEnd(advisor, store, renderer, kb)
    app = App(
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


def register(app: App, front: SlackFrontEnd) -> None:
    """Attach the middleware and listeners to `app`."""
    store = front.store

    @app.use
    def deduplicate(request: BoltRequest, body: dict[str, Any], context: BoltContext,
                    next: Callable[[], None]) -> BoltResponse | None:
        """Answer each user-visible request once, whatever Slack redelivers.

        Slack redelivers an event when it did not see our 200 in time (X-Slack-Retry-Num: 1, 2, 3), and
        with several replicas or a reconnecting socket the same event can arrive twice. Dropping every
        request with a retry header would lose the answer whenever the first delivery never reached
        us, so instead we claim the delivery's identity (event_id; trigger_id for commands and shortcuts;
        action_ts + message ts for buttons) with the store's atomic set-if-absent `first_delivery`
        (shared through Redis across replicas): the first copy to arrive — original or retry — is
        answered, every later copy is acknowledged with 200 and does nothing. It runs after Bolt's
        signature check, so forged requests cannot claim an id."""
        delivery = read_delivery(request, body)
        context["gpu_advisor_delivery"] = delivery
        if delivery.key is not None and not store.first_delivery(delivery.key):
            log.info("duplicate delivery ignored", extra={"kind": "duplicate", "delivery": delivery.key,
                                                         **delivery.log_fields()})
            return BoltResponse(status=200, body="")
        next()
        return None

    @app.event("app_mention")
    def on_mention(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        if is_from_bot(event) or is_dm(event):  # DMs are answered by on_message
            return
        channel, user = event["channel"], event.get("user")
        thread_ts = event.get("thread_ts") or event["ts"]

        def send(blocks: list[dict[str, Any]], text: str) -> None:
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, blocks=blocks, text=text)

        def notify(line: str) -> None:
            if user:
                client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, text=line)
            else:
                client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=line)

        front.answer("mention", context, text=event.get("text") or "", key=_thread_key(channel, thread_ts),
                     user=user, send=send, notify=notify)

    @app.event("message")
    def on_message(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        # Only human DMs: edits (message_changed), deletions and every other subtype, and any bot's
        # messages (our own replies included) are acknowledged and ignored.
        if not is_dm(event) or event.get("subtype") or is_from_bot(event) or not event.get("user"):
            return
        channel, user = event["channel"], event["user"]
        thread_ts = event.get("thread_ts")

        def send(blocks: list[dict[str, Any]], text: str) -> None:
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, blocks=blocks, text=text)

        def notify(line: str) -> None:
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=line)

        front.answer("dm", context, text=event.get("text") or "", key=_thread_key(channel, thread_ts),
                     user=user, send=send, notify=notify)

    @app.command(COMMAND)
    def on_command(ack: Callable[..., Any], command: dict[str, Any], respond: Callable[..., Any],
                   context: BoltContext) -> None:
        ack()  # first: Slack wants the 200 within 3 s; the answer follows through response_url
        text = (command.get("text") or "").strip()
        if text.lower() in HELP_WORDS:
            text = "help"
        # Each /gpu is its own conversation, so the buttons of an older answer recompute that answer.
        key = _thread_key(command["channel_id"], f"cmd-{command.get('trigger_id') or time.time()}")

        def send(blocks: list[dict[str, Any]], fallback: str) -> None:
            _check_webhook(respond(blocks=blocks, text=fallback, response_type="ephemeral"))

        def notify(line: str) -> None:
            _check_webhook(respond(text=line, response_type="ephemeral"))

        front.answer("command", context, text=text, key=key, user=command.get("user_id"), send=send,
                     notify=notify, ephemeral=True)

    @app.action(re.compile(r"^" + re.escape(ACTION_PREFIX)))
    def on_button(ack: Callable[..., Any], body: dict[str, Any], action: dict[str, Any], client: WebClient,
                  respond: Callable[..., Any], context: BoltContext) -> None:
        ack()
        thread, overrides = _parse_value(action.get("value"))
        user = (body.get("user") or {}).get("id")
        container = body.get("container") or {}
        channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
        ephemeral = bool(container.get("is_ephemeral"))
        if thread is None:
            log.warning("button without a thread",
                        extra={"kind": "action", **delivery_of(context).log_fields()})
            return

        def notify(line: str) -> None:
            _check_webhook(respond(text=line, response_type="ephemeral", replace_original=False))

        if action.get("action_id") == POST_ACTION_ID:
            _post_to_channel(front, context, thread=thread, overrides=overrides, user=user, channel=channel,
                             client=client, respond=respond, notify=notify)
            return

        def send(blocks: list[dict[str, Any]], fallback: str) -> None:
            if ephemeral or not container.get("message_ts") or not channel:
                _check_webhook(respond(blocks=blocks, text=fallback, replace_original=True))
            else:
                client.chat_update(channel=channel, ts=container["message_ts"], blocks=blocks, text=fallback)

        front.answer("action", context, text="", key=thread, user=user, send=send, notify=notify,
                     ephemeral=ephemeral, overrides=overrides)

    @app.shortcut(SHORTCUT_CALLBACK_ID)
    def on_size_message(ack: Callable[..., Any], shortcut: dict[str, Any], client: WebClient,
                        respond: Callable[..., Any], context: BoltContext) -> None:
        ack()
        message = shortcut.get("message") or {}
        user = (shortcut.get("user") or {}).get("id")
        channel = (shortcut.get("channel") or {}).get("id") or ""
        key = _thread_key(channel, f"shortcut-{shortcut.get('trigger_id') or time.time()}")
        has_url = bool(shortcut.get("response_url"))

        def deliver(**message_args: Any) -> None:
            if has_url:
                _check_webhook(respond(response_type="ephemeral", **message_args))
            elif user:  # no response_url: answer in the user's DM with the app (Messages tab)
                client.chat_postMessage(channel=user, **message_args)

        front.answer("shortcut", context, text=message.get("text") or "", key=key, user=user,
                     send=lambda blocks, text: deliver(blocks=blocks, text=text),
                     notify=lambda line: deliver(text=line), ephemeral=has_url)

    @app.event("app_home_opened")
    def on_home(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        if event.get("tab", "home") != "home" or not event.get("user"):
            return
        user = event["user"]

        def publish() -> None:
            view = front.renderer.render_home(store.recent(user), front.kb)
            client.views_publish(user_id=user, view=defuse(view))

        front.guarded("home", context, publish)

    @app.error
    def on_error(error: Exception, body: dict[str, Any], context: BoltContext) -> None:
        """Anything that escaped a listener or middleware: log it with the delivery's id, never echo it."""
        delivery = context.get("gpu_advisor_delivery") if context is not None else None
        fields = (delivery.log_fields() if isinstance(delivery, Delivery)
                  else {"event_id": (body or {}).get("event_id")})
        log.error("unhandled error", exc_info=error, extra={"kind": "error", **fields})


def _check_webhook(response: Any) -> None:
    status = getattr(response, "status_code", 200)
    if status != 200:
        raise RuntimeError(f"response_url answered HTTP {status}")


def _post_to_channel(front: SlackFrontEnd, context: BoltContext, *, thread: str, overrides: dict[str, object],
                     user: str | None, channel: str | None, client: WebClient, respond: Callable[..., Any],
                     notify: Notify) -> None:
    """Post an ephemeral answer publicly: chat.postMessage when the bot is in the channel, else
    response_url with response_type=in_channel (works without chat:write.public); then remove the
    ephemeral copy. Follow-up mentions in the posted message's thread continue the same question."""
    posted: dict[str, str] = {}

    def send(blocks: list[dict[str, Any]], fallback: str) -> None:
        if channel:
            try:
                result = client.chat_postMessage(channel=channel, blocks=blocks, text=fallback)
                posted["ts"] = str(result.get("ts") or "")
            except SlackApiError as error:
                if error.response.get("error") not in ("not_in_channel", "channel_not_found"):
                    raise
        if not posted.get("ts"):
            _check_webhook(respond(blocks=blocks, text=fallback, response_type="in_channel",
                                   replace_original=False))

    # ephemeral=False renders the public form (no "Post to channel" button); user=None: not rate-limited.
    reply = front.answer("post", context, text="", key=thread, user=None, send=send, notify=notify,
                         overrides=overrides, ephemeral=False, replay=True)
    if reply is None:
        return
    if channel and posted.get("ts"):
        try:
            front.store.put_question(_thread_key(channel, posted["ts"]), reply.question)
        except Exception:
            log.warning("could not link the posted answer's thread", exc_info=True,
                        extra={"kind": "post", **delivery_of(context).log_fields()})
    front.guarded("post", context, lambda: _check_webhook(respond(delete_original=True)))
