"""De-duplication that survives the loss of the store: every answer the bot posts carries the event id it
answers (message metadata), so a Slack retry can be recognised from the conversation itself.

Why: while Redis is down (or after it restarted empty) a retry that reaches another replica is unknown to
that replica's store; without this it was answered twice (84-135 duplicates per outage run). Only retries
(X-Slack-Retry-Num ≥ 1) are checked, so a normal delivery costs no extra call.

Reading a channel thread needs `channels:history` (`groups:history` for private channels); DMs need
`im:history`, which the manifest has. Without the scope the check finds nothing and the retry is answered
(a duplicate is better than a lost answer); the refusal is logged once.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

log = logging.getLogger(__name__)

ANSWER_EVENT_TYPE = "gpu_advisor_answer"
LOOK_BACK = 100
"""Messages read from the thread (or the DM after the event) when looking for our answer."""

_scope_warned: set[str] = set()


def answer_metadata(event_id: str | None) -> dict[str, Any] | None:
    """The metadata an answer to `event_id` carries (None when the event has no id)."""
    if not event_id:
        return None
    return {"event_type": ANSWER_EVENT_TYPE, "event_payload": {"event_id": event_id}}


def carries(message: Any, event_id: str) -> bool:
    metadata = message.get("metadata") if isinstance(message, dict) else None
    if not isinstance(metadata, dict) or metadata.get("event_type") != ANSWER_EVENT_TYPE:
        return False
    payload = metadata.get("event_payload")
    return isinstance(payload, dict) and payload.get("event_id") == event_id


def already_answered(client: WebClient, *, channel: str, thread_ts: str | None, event_ts: str | None,
                     event_id: str) -> bool:
    """True when the conversation already holds our answer to `event_id`. Never raises: on any failure the
    answer is given (False)."""
    try:
        if thread_ts:
            result = client.conversations_replies(channel=channel, ts=thread_ts, include_all_metadata=True,
                                                  limit=LOOK_BACK)
        else:
            result = client.conversations_history(channel=channel, oldest=event_ts or "0", inclusive=True,
                                                  include_all_metadata=True, limit=LOOK_BACK)
    except SlackApiError as error:
        code = str(error.response.get("error") if error.response is not None else "")
        if code not in _scope_warned:
            _scope_warned.add(code)
            log.warning("cannot read the conversation to recognise a retry; answering it",
                        extra={"kind": "duplicate", "error": code})
        return False
    except Exception as error:
        log.info("conversation unreadable; answering the retry", extra={"kind": "duplicate",
                                                                        "error": type(error).__name__})
        return False
    return any(carries(message, event_id) for message in result.get("messages") or [])
