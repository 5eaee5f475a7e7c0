"""Middleware of the Bolt app (each says why it exists)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltContext, BoltRequest, BoltResponse

from bot.slack.delivery import read_delivery
from bot.slack.frontend import StoreLike

log = logging.getLogger(__name__)


def deduplication(store: StoreLike) -> Callable[..., BoltResponse | None]:
    """The de-duplication middleware over `store` (Bolt injects its arguments by name)."""

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

    return deduplicate


def patient_respond(context: BoltContext, next: Callable[[], None]) -> None:
    """Give every listener's `respond` (response_url) the Web API's retries (bot.slack.client.PatientRespond)."""
    from bot.slack.client import PatientRespond

    if context.response_url:
        context["respond"] = PatientRespond(response_url=context.response_url)
    next()
