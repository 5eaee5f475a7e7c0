"""Which request this is: its identity for de-duplication, Slack's retry number, and its log fields."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from slack_bolt import BoltContext, BoltRequest


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


