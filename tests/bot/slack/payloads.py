"""Slack request payloads and request signing, as Slack sends them (shared by tests and bench/load.py).

Signing: `v0=` + HMAC-SHA256(signing secret, f"v0:{timestamp}:{body}"), in X-Slack-Signature, with
X-Slack-Request-Timestamp (api.slack.com "Verifying requests from Slack").
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
import uuid
from typing import Any
from urllib.parse import urlencode

from tests.bot.slack.fake_slack import BOT_USER_ID, TEAM_ID

_counter = itertools.count(1)


def sign(secret: str, body: str, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={digest}"}


def _ts() -> str:
    return f"{int(time.time())}.{next(_counter):06d}"


def event_id() -> str:
    return "Ev" + uuid.uuid4().hex[:12].upper()


def event_callback(event: dict[str, Any], *, eid: str | None = None) -> dict[str, Any]:
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "api_app_id": "A0APP",
        "event": event,
        "type": "event_callback",
        "event_id": eid or event_id(),
        "event_time": int(time.time()),
        "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}],
    }


def mention(text: str, *, channel: str = "C0GENERAL", user: str = "U0ALICE", ts: str | None = None,
            thread_ts: str | None = None, eid: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "app_mention", "user": user, "text": f"<@{BOT_USER_ID}> {text}",
                             "ts": ts or _ts(), "channel": channel, "event_ts": ts or _ts()}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event_callback(event, eid=eid)


def dm(text: str, *, channel: str = "D0ALICE", user: str = "U0ALICE", eid: str | None = None,
       **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "message", "channel_type": "im", "user": user, "text": text,
                             "ts": _ts(), "channel": channel, "event_ts": _ts(), **extra}
    return event_callback(event, eid=eid)


def home_opened(user: str = "U0ALICE") -> dict[str, Any]:
    return event_callback({"type": "app_home_opened", "user": user, "channel": "D0ALICE", "tab": "home",
                           "event_ts": _ts()})


def command(text: str, *, response_url: str, channel: str = "C0GENERAL", user: str = "U0ALICE",
            trigger_id: str | None = None) -> dict[str, str]:
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "team_domain": "fake",
        "channel_id": channel,
        "channel_name": "general",
        "user_id": user,
        "user_name": "alice",
        "command": "/gpu",
        "text": text,
        "api_app_id": "A0APP",
        "response_url": response_url,
        "trigger_id": trigger_id or f"{next(_counter)}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex[:16]}",
    }


def block_action(button: dict[str, Any], *, response_url: str, channel: str = "C0GENERAL",
                 user: str = "U0ALICE", message_ts: str | None = None, ephemeral: bool = False) -> dict[str, Any]:
    container: dict[str, Any] = {"type": "message", "message_ts": message_ts or _ts(), "channel_id": channel,
                                 "is_ephemeral": ephemeral}
    return {
        "type": "block_actions",
        "user": {"id": user, "username": "alice", "team_id": TEAM_ID},
        "api_app_id": "A0APP",
        "token": "legacy-verification-token",
        "container": container,
        "trigger_id": f"{next(_counter)}.{uuid.uuid4().hex[:20]}",
        "team": {"id": TEAM_ID, "domain": "fake"},
        "channel": {"id": channel, "name": "general"},
        "response_url": response_url,
        "actions": [{"action_id": button["action_id"], "block_id": "gpu_advisor_actions",
                     "text": button.get("text", {"type": "plain_text", "text": "x"}),
                     "value": button.get("value", ""), "type": "button", "action_ts": _ts()}],
    }


def message_shortcut(text: str, *, response_url: str | None, channel: str = "C0GENERAL",
                     user: str = "U0ALICE") -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "message_action",
        "callback_id": "size_message",
        "trigger_id": f"{next(_counter)}.{uuid.uuid4().hex[:20]}",
        "team": {"id": TEAM_ID, "domain": "fake"},
        "channel": {"id": channel, "name": "general"},
        "user": {"id": user, "name": "alice"},
        "message_ts": _ts(),
        "message": {"type": "message", "user": "U0BOB", "text": text, "ts": _ts()},
        "token": "legacy-verification-token",
    }
    if response_url:
        body["response_url"] = response_url
    return body


def encode(payload: dict[str, Any]) -> tuple[str, str]:
    """(body, content type) exactly as Slack sends each kind: events as JSON, slash commands as a form,
    interactivity as a form with one `payload` field holding JSON."""
    if payload.get("type") == "event_callback":
        return json.dumps(payload), "application/json"
    if "command" in payload:
        return urlencode(payload), "application/x-www-form-urlencoded"
    return urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded"


def signed(secret: str, payload: dict[str, Any], *, timestamp: int | None = None,
           retry_num: int | None = None) -> tuple[str, dict[str, str]]:
    """(body, headers) ready to POST to /slack/events."""
    body, ctype = encode(payload)
    headers = {"Content-Type": ctype, **sign(secret, body, timestamp)}
    if retry_num is not None:
        headers["X-Slack-Retry-Num"] = str(retry_num)
        headers["X-Slack-Retry-Reason"] = "http_timeout"
    return body, headers


def buttons_of(blocks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """action_id → button element, from rendered blocks."""
    found: dict[str, dict[str, Any]] = {}
    for block in blocks or []:
        if block.get("type") == "actions":
            for element in block.get("elements", []):
                if element.get("action_id"):
                    found[element["action_id"]] = element
    return found


def sign_json(secret: str, payload: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """A signed JSON body of any shape (url_verification and the like)."""
    body = json.dumps(payload)
    return body, {"Content-Type": "application/json", **sign(secret, body)}
