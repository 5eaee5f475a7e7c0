"""`SlackFrontEnd`: one delivery turned into one answer — rate limit, advisor, render, send, and one
short line to the user when something fails (never an exception text).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from slack_bolt import BoltContext

from bot.errors import BadRequestError
from bot.ports import AdvisorLike
from bot.service import language_of
from bot.slack.client import ChannelPacer
from bot.slack.delivery import delivery_of
from bot.slack.lines import BAD_REQUEST_LINE, ERROR_LINE, QUESTIONS_PER_MINUTE, RATE_LIMITED_LINE, defuse, escape

log = logging.getLogger(__name__)


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




def thread_key_of(channel: str, thread_ts: str | None) -> str:
    from bot.state import thread_key

    return thread_key(channel, thread_ts)


def is_from_bot(event: Mapping[str, Any]) -> bool:
    return bool(event.get("bot_id") or event.get("bot_profile") or event.get("subtype") == "bot_message")


def is_dm(event: Mapping[str, Any]) -> bool:
    channel = str(event.get("channel") or "")
    return event.get("channel_type") == "im" or channel.startswith("D")


def answer_facts(reply: Any) -> dict[str, Any]:
    answer = getattr(reply, "answer", None)
    query = getattr(answer, "query", None)
    return {"intent": getattr(answer, "intent", None), "model": getattr(query, "model", None)}


def parse_value(raw: str | None) -> tuple[str | None, dict[str, object]]:
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

    def __init__(self, advisor: AdvisorLike, store: StoreLike, renderer: RendererLike, kb: Any,
                 pacer: ChannelPacer | None = None) -> None:
        self.advisor = advisor
        self.store = store
        self.renderer = renderer
        self.kb = kb
        self.pacer = pacer or ChannelPacer()

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
            try:
                send(defuse(blocks), defuse(fallback))
            except TimeoutError:
                # The request left; Slack may well have posted it after our client gave up. Telling the user
                # it failed would show an answer and an error line together, so only the log hears of it.
                log.warning("reply sent, not confirmed in time", extra=fields)
                return reply
        except BadRequestError as error:
            log.warning("bad request", extra={**fields, "error": str(error)})
            self._tell(notify, BAD_REQUEST_LINE.get(lang, BAD_REQUEST_LINE["en"]).format(
                detail=escape(str(error))[:300]), fields)
            return None
        except Exception:
            log.exception("handler failed", extra=fields)
            self._tell(notify, self.notice("error", lang), fields)
            return None
        log.info("answered", extra={**fields, **answer_facts(reply),
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


