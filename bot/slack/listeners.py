"""The listeners: each reads text, thread and user from its payload and hands them to `SlackFrontEnd`.

Surfaces (see manifest.yml):
Surfaces (see manifest.yml):
    app_mention          reply in the thread (thread_ts = event.thread_ts or event.ts)
    message.im           answer every human DM; edits, deletions, other subtypes and bots are ignored
    /gpu                 ack at once, then an ephemeral answer via response_url; `/gpu` or `/gpu help` = help
    gpu_advisor.* buttons recompute with the button's overrides and update the message in place
    size_message         message shortcut: sizes the message's text, ephemeral (or DM without response_url)
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.slack.dedupe import already_answered, answer_metadata
from bot.slack.delivery import Delivery, delivery_of
from bot.slack.frontend import (
    Notify,
    SlackFrontEnd,
    carried_slots_of,
    is_dm,
    is_from_bot,
    parse_value,
    thread_key_of,
)
from bot.slack.lines import defuse
from bot.slack.middleware import deduplication, patient_respond

log = logging.getLogger(__name__)

ACTION_PREFIX = "gpu_advisor."
POST_ACTION_ID = "gpu_advisor.post"
"""The "Post to channel" button; every other `gpu_advisor.*` button recomputes with its overrides."""
SHORTCUT_CALLBACK_ID = "size_message"
COMMAND = "/gpu"
HELP_WORDS = frozenset({"", "help", "-h", "--help", "?", "？", "帮助", "幫助", "使用说明", "说明"})


def paced_post(front: SlackFrontEnd, client: WebClient, context: BoltContext, *, channel: str,
               thread_ts: str | None, event_ts: str | None = None) -> Callable[[list[dict[str, Any]], str], None]:
    """Post an answer into `channel` (threaded), one at a time per channel, carrying the event id in the message
    metadata so a retry can be recognised from the conversation even when the store lost it.

    When the delivery was checked against the conversation on arrival (a retry, or the store cannot be trusted),
    it is checked again just before posting: another replica may have been answering the same event meanwhile
    (a copy that arrived while Redis was down), and its answer may have landed while this one was computed."""
    delivery = delivery_of(context)
    metadata = answer_metadata(delivery.event_id)
    recheck = needs_conversation_check(context)

    def send(blocks: list[dict[str, Any]], text: str) -> None:
        with front.pacer.turn(channel):
            if recheck and delivery.event_id and already_answered(
                    client, channel=channel, thread_ts=thread_ts, event_ts=event_ts, event_id=delivery.event_id):
                log.info("answered meanwhile by another replica; not posting again",
                         extra={"kind": "duplicate", **delivery.log_fields()})
                return
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, blocks=blocks, text=text, metadata=metadata)

    return send


def needs_conversation_check(context: BoltContext) -> bool:
    """A Slack retry, a redelivery, or any delivery while the shared store's memory cannot be trusted (Redis
    down, just back, or emptied: bot/state.py "Degradation"), where a copy may have reached another replica."""
    delivery = delivery_of(context)
    store = context.get("gpu_advisor_store")
    doubtful = getattr(store, "reliable", getattr(store, "available", True)) is False
    return bool(delivery.event_id) and bool(delivery.retry_num or doubtful or context.get("gpu_advisor_redelivery"))


def register(app: App, front: SlackFrontEnd) -> None:
    """Attach the middleware and listeners to `app`."""
    store = front.store
    app.use(patient_respond)
    app.use(deduplication(store, app))

    @app.event("app_mention")
    @journaled(store)
    def on_mention(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        if is_from_bot(event) or is_dm(event):  # DMs are answered by on_message
            return
        channel, user = event.get("channel"), event.get("user")
        if not isinstance(channel, str) or not channel:
            log.info("mention without a channel ignored", extra={"kind": "malformed",
                                                                 **delivery_of(context).log_fields()})
            return
        thread_ts = event.get("thread_ts") or event.get("ts") or event.get("event_ts")
        if seen_in_conversation(client, context, channel=channel, thread_ts=thread_ts, event=event):
            return
        send = paced_post(front, client, context, channel=channel, thread_ts=thread_ts,
                          event_ts=str(event.get("ts") or "") or None)

        def notify(line: str) -> None:
            if user:
                client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, text=line)
            else:
                client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=line)

        front.answer("mention", context, text=text_of(event), key=thread_key_of(channel, thread_ts),
                     user=user, send=send, notify=notify, follow_up=bool(event.get("thread_ts")))

    @app.event("message")
    @journaled(store)
    def on_message(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        # Only human DMs: edits (message_changed), deletions and every other subtype, and any bot's
        # messages (our own replies included) are acknowledged and ignored.
        if not is_dm(event) or event.get("subtype") or is_from_bot(event) or not event.get("user"):
            return
        channel, user = event.get("channel"), event["user"]
        if not isinstance(channel, str) or not channel:
            log.info("DM without a channel ignored", extra={"kind": "malformed", **delivery_of(context).log_fields()})
            return
        thread_ts = event.get("thread_ts")
        if seen_in_conversation(client, context, channel=channel, thread_ts=thread_ts, event=event):
            return
        send = paced_post(front, client, context, channel=channel, thread_ts=thread_ts,
                          event_ts=str(event.get("ts") or "") or None)

        def notify(line: str) -> None:
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=line)

        front.answer("dm", context, text=text_of(event), key=thread_key_of(channel, thread_ts),
                     user=user, send=send, notify=notify, follow_up=True)

    @app.command(COMMAND)
    def on_command(ack: Callable[..., Any], command: dict[str, Any], respond: Callable[..., Any],
                   context: BoltContext) -> None:
        ack()  # first: Slack wants the 200 within 3 s; the answer follows through response_url
        text = (command.get("text") or "").strip()
        if text.lower() in HELP_WORDS:
            text = "help"
        # Each /gpu is its own conversation, so the buttons of an older answer recompute that answer.
        key = thread_key_of(command["channel_id"], f"cmd-{command.get('trigger_id') or time.time()}")

        def send(blocks: list[dict[str, Any]], fallback: str) -> None:
            check_webhook(respond(blocks=blocks, text=fallback, response_type="ephemeral"))

        def notify(line: str) -> None:
            check_webhook(respond(text=line, response_type="ephemeral"))

        front.answer("command", context, text=text, key=key, user=command.get("user_id"), send=send,
                     notify=notify, ephemeral=True)

    @app.action(re.compile(r"^" + re.escape(ACTION_PREFIX)))
    def on_button(ack: Callable[..., Any], body: dict[str, Any], action: dict[str, Any], client: WebClient,
                  respond: Callable[..., Any], context: BoltContext) -> None:
        ack()
        thread, overrides = parse_value(action.get("value"))
        user = (body.get("user") or {}).get("id")
        container = body.get("container") or {}
        channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
        ephemeral = bool(container.get("is_ephemeral"))
        if thread is None:
            log.warning("button without a thread",
                        extra={"kind": "action", **delivery_of(context).log_fields()})
            return

        def notify(line: str) -> None:
            check_webhook(respond(text=line, response_type="ephemeral", replace_original=False))

        if action.get("action_id") == POST_ACTION_ID:
            _post_to_channel(front, context, thread=thread, overrides=overrides, user=user, channel=channel,
                             client=client, respond=respond, notify=notify,
                             carried_slots=carried_slots_of(action.get("value")))
            return

        def send(blocks: list[dict[str, Any]], fallback: str) -> None:
            if ephemeral or not container.get("message_ts") or not channel:
                check_webhook(respond(blocks=blocks, text=fallback, replace_original=True))
            else:
                client.chat_update(channel=channel, ts=container["message_ts"], blocks=blocks, text=fallback)

        front.answer("action", context, text="", key=thread, user=user, send=send, notify=notify,
                     ephemeral=ephemeral, overrides=overrides, carried_slots=carried_slots_of(action.get("value")))

    @app.shortcut(SHORTCUT_CALLBACK_ID)
    def on_size_message(ack: Callable[..., Any], shortcut: dict[str, Any], client: WebClient,
                        respond: Callable[..., Any], context: BoltContext) -> None:
        ack()
        message = shortcut.get("message")
        text = text_of(message) if isinstance(message, dict) else ""
        user = (shortcut.get("user") or {}).get("id")
        channel = (shortcut.get("channel") or {}).get("id") or ""
        key = thread_key_of(channel, f"shortcut-{shortcut.get('trigger_id') or time.time()}")
        has_url = bool(shortcut.get("response_url"))

        def deliver(**message_args: Any) -> None:
            if has_url:
                check_webhook(respond(response_type="ephemeral", **message_args))
            elif user:  # no response_url: answer in the user's DM with the app (Messages tab)
                client.chat_postMessage(channel=user, **message_args)

        front.answer("shortcut", context, text=text, key=key, user=user,
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


ListenerFn = Callable[..., None]


def journaled(store: Any) -> Callable[[ListenerFn], ListenerFn]:
    """Clear the event's journal entry (bot.slack.redeliver) once its listener is done, however it ends."""

    def wrap(listener: ListenerFn) -> ListenerFn:
        @functools.wraps(listener)
        def run(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
            try:
                listener(event, client, context)
            finally:
                done = getattr(store, "journal_done", None)
                event_id = delivery_of(context).event_id
                if done is not None and event_id:
                    done(event_id)

        return run

    return wrap


def seen_in_conversation(client: WebClient, context: BoltContext, *, channel: str, thread_ts: str | None,
                         event: dict[str, Any]) -> bool:
    """True when our answer to this delivery is already in the conversation (bot.slack.dedupe); only asked
    when `needs_conversation_check`, so a normal delivery costs no extra call."""
    delivery = delivery_of(context)
    if not delivery.event_id or not needs_conversation_check(context):
        return False
    ts = event.get("ts")
    found = already_answered(client, channel=channel, thread_ts=thread_ts,
                             event_ts=ts if isinstance(ts, str) else None, event_id=delivery.event_id)
    if found:
        log.info("retry already answered (found in the conversation)",
                 extra={"kind": "duplicate", **delivery.log_fields()})
    return found


def text_of(event: dict[str, Any]) -> str:
    """The event's text; anything but a string (a bug or a forgery: Slack always sends one) reads as empty."""
    text = event.get("text")
    return text if isinstance(text, str) else ""


def check_webhook(response: Any) -> None:
    status = getattr(response, "status_code", 200)
    if status != 200:
        raise RuntimeError(f"response_url answered HTTP {status}")


def _post_to_channel(front: SlackFrontEnd, context: BoltContext, *, thread: str, overrides: dict[str, object],
                     user: str | None, channel: str | None, client: WebClient, respond: Callable[..., Any],
                     notify: Notify, carried_slots: object = None) -> None:
    """Post an ephemeral answer publicly: chat.postMessage when the bot is in the channel, else
    response_url with response_type=in_channel (works without chat:write.public); then remove the
    ephemeral copy. Follow-up mentions in the posted message's thread continue the same question."""
    posted: dict[str, str] = {}

    def send(blocks: list[dict[str, Any]], fallback: str) -> None:
        if channel:
            try:
                with front.pacer.turn(channel):
                    result = client.chat_postMessage(channel=channel, blocks=blocks, text=fallback)
                posted["ts"] = str(result.get("ts") or "")
            except SlackApiError as error:
                if error.response.get("error") not in ("not_in_channel", "channel_not_found"):
                    raise
        if not posted.get("ts"):
            check_webhook(respond(blocks=blocks, text=fallback, response_type="in_channel",
                                   replace_original=False))

    # ephemeral=False renders the public form (no "Post to channel" button); user=None: not rate-limited.
    reply = front.answer("post", context, text="", key=thread, user=None, send=send, notify=notify,
                         overrides=overrides, ephemeral=False, replay=True, carried_slots=carried_slots)
    if reply is None:
        return
    if channel and posted.get("ts"):
        try:
            front.store.put_question(thread_key_of(channel, posted["ts"]), reply.question)
        except Exception:
            log.warning("could not link the posted answer's thread", exc_info=True,
                        extra={"kind": "post", **delivery_of(context).log_fields()})
    front.guarded("post", context, lambda: check_webhook(respond(delete_original=True)))

