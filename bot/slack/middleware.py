"""Middleware of the Bolt app (each says why it exists)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import App, BoltContext, BoltRequest, BoltResponse

from bot.slack.delivery import read_delivery
from bot.slack.frontend import StoreLike
from bot.slack.redeliver import ensure_reaper

log = logging.getLogger(__name__)


JOURNALED_EVENTS = frozenset({"app_mention", "message"})
"""The events answered from the thread pool after the ack, journaled for redelivery (bot.slack.redeliver)."""


def deduplication(store: StoreLike, app: App | None = None) -> Callable[..., BoltResponse | None]:
    """The de-duplication middleware over `store` (Bolt injects its arguments by name); with `app`, it also
    starts this process's redelivery reaper on the first request (bot.slack.redeliver)."""

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
        if app is not None:
            ensure_reaper(app, store)
        delivery = read_delivery(request, body)
        context["gpu_advisor_delivery"] = delivery
        context["gpu_advisor_store"] = store
        redelivery = bool(request.context.get("gpu_advisor_redelivery"))
        if redelivery:  # set only in process by bot.slack.redeliver: the dead worker had claimed this id
            context["gpu_advisor_redelivery"] = True
        elif delivery.key is not None and not _claim(store, request, body, delivery.key, delivery.event_id):
            log.info("duplicate delivery ignored", extra={"kind": "duplicate", "delivery": delivery.key,
                                                         **delivery.log_fields()})
            return BoltResponse(status=200, body="")
        next()
        return None

    return deduplicate


def _claim(store: StoreLike, request: BoltRequest, body: dict[str, Any], key: str, event_id: str | None) -> bool:
    """The store's first_delivery; for the events answered after the ack, claimed and journaled for
    redelivery in one step when the store can (RedisStore.first_delivery_journaled, bot.slack.redeliver)."""
    event = body.get("event")
    claim_journaled = getattr(store, "first_delivery_journaled", None)
    if (claim_journaled is not None and event_id and request.raw_body and isinstance(event, dict)
            and event.get("type") in JOURNALED_EVENTS):
        headers = {name: (values[0] if values else "") for name, values in request.headers.items()}
        return bool(claim_journaled(key, event_id, request.raw_body, headers))
    return store.first_delivery(key)


def patient_respond(context: BoltContext, next: Callable[[], None]) -> None:
    """Give every listener's `respond` (response_url) the Web API's retries (bot.slack.client.PatientRespond)."""
    from bot.slack.client import PatientRespond

    if context.response_url:
        context["respond"] = PatientRespond(response_url=context.response_url)
    next()
