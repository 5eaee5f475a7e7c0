"""Payload shapes Bolt cannot digest, refused before Bolt looks at them.

Bolt builds every listener's and middleware's arguments eagerly, so a `block_actions` body with no actions
(or `"actions": null`) raised IndexError/TypeError inside Bolt — a 500 and a traceback for a request Slack
never sends but a replay or a bug can. Such bodies are acknowledged with 200 and one log line: there is
nothing to answer. Field-level oddities (missing channel, non-string text) are the listeners' business.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from slack_bolt import App, BoltRequest, BoltResponse

log = logging.getLogger(__name__)


def unusable(body: Mapping[str, Any]) -> str | None:
    """Why Bolt could not process `body`, or None when it can."""
    kind = body.get("type")
    if kind == "event_callback" and not isinstance(body.get("event"), dict):
        return "event is not an object"
    if kind == "block_actions":
        actions = body.get("actions")
        if not isinstance(actions, list) or not actions:
            return "no actions"
        if not all(isinstance(a, dict) and isinstance(a.get("action_id"), str) for a in actions):
            return "an action without an action_id"
    return None


class ShapeCheckedApp(App):
    """Bolt's App, refusing (200, one log line) the bodies `unusable` names before dispatching."""

    def dispatch(self, req: BoltRequest) -> BoltResponse:
        body = req.body if isinstance(req.body, dict) else {}
        problem = unusable(body)
        if problem is not None:
            log.info("request ignored: %s", problem, extra={"kind": "malformed", "type": body.get("type")})
            return BoltResponse(status=200, body="")
        return super().dispatch(req)
