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
from bot.slack.lines import (
    BAD_REQUEST_LINE,
    CONTEXT_LOST_LINE,
    ERROR_LINE,
    QUESTIONS_PER_MINUTE,
    RATE_LIMITED_LINE,
    defuse,
    escape,
)
from bot.state import carried, carry

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


def carried_slots_of(raw: str | None) -> object:
    """The question slots a button carries in its value ("q"), or None."""
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return None
    return value.get("q") if isinstance(value, dict) else None


BUTTON_VALUE_MAX = 2000
"""Slack's limit on a button's value."""


def with_carried_question(blocks: list[dict[str, Any]], question: Any) -> list[dict[str, Any]]:
    """Every gpu_advisor.* button's value gains the question's essential slots ("q"), so the button still
    works when the thread's stored question is gone (expired, Redis restarted or down). A value that would
    exceed Slack's limit is left as it was."""
    if question is None:
        return blocks
    try:
        slots = carry(question)
    except Exception:  # a stand-in question (tests, an older pipeline): nothing to carry
        return blocks
    for block in blocks:
        elements = block.get("elements") if isinstance(block, dict) else None
        for element in elements if isinstance(elements, list) else []:
            if not (isinstance(element, dict) and str(element.get("action_id", "")).startswith("gpu_advisor.")):
                continue
            try:
                value = json.loads(element.get("value") or "{}")
            except ValueError:
                continue
            if isinstance(value, dict):
                encoded = json.dumps({**value, "q": slots}, separators=(",", ":"), ensure_ascii=False)
                if len(encoded) <= BUTTON_VALUE_MAX:
                    element["value"] = encoded
    return blocks


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
        carried_slots: object = None,
        follow_up: bool = False,
    ) -> Any:
        """Limit → Advisor.respond → render_blocks → send; returns the Reply (None when not answered).

        `replay`: re-answer the thread's stored question as it is (the "Post to channel" button).
        `carried_slots`: the question a button carried, used when the store no longer has the thread's.
        `follow_up`: the message continues a conversation; if the store is down its context is lost, and the
        reply says so in one line."""
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
            with carried(key, carried_slots):
                if replay and not overrides:
                    reply = self._replay(key)
                else:
                    reply = self.advisor.respond(text, key, user_id=user, overrides=overrides or None)
            if kind == "action" and not text and getattr(reply.answer, "intent", None) == "help":
                # The thread's question is gone and the button carried none: keep the answer on screen.
                raise BadRequestError("I no longer have that question (they expire after a day); ask again")
            lang = getattr(getattr(reply.answer, "query", None), "lang", lang) or lang
            blocks, fallback = self.renderer.render_blocks(
                reply.answer, thread_key=key, ephemeral=ephemeral, kb=self.kb,
                show_maths=bool(getattr(reply, "show_maths", False)))
            blocks = with_carried_question(blocks, getattr(reply, "question", None))
            if follow_up and getattr(self.store, "available", True) is False:
                blocks = [{"type": "context", "elements": [{"type": "mrkdwn",
                                                            "text": self.notice("context_lost", lang)}]}, *blocks]
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
        lines = {"rate_limited": RATE_LIMITED_LINE, "context_lost": CONTEXT_LOST_LINE}.get(key, ERROR_LINE)
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


