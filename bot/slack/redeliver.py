"""At-least-once answering with REDIS_URL: acknowledged events that no worker finished are answered by another.

The bot acknowledges an event at once and answers it from a thread pool; a worker killed in between (OOM,
SIGKILL, a crash) lost those answers silently (16 of 80 in bench/load.py's worker-killed scenario). With a
Redis store the de-duplication middleware journals each acknowledged event (RedisStore.journal_add) and the
listener clears it once answered (journal_done). A reaper thread in every worker claims entries older than
REDELIVER_AFTER_S — each claimed by exactly one worker — and dispatches them again through the app, marked
as a redelivery: the de-duplication claim is skipped (the dead worker holds it) and the conversation is
checked first for an answer that was posted just before the worker died (bot.slack.dedupe), so the output
stays de-duplicated. A redelivery older than Slack's 5-minute signature window is refused by Bolt and
dropped. Without Redis (one process) there is nothing to hand over: a killed process restarts empty.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from slack_bolt import App, BoltRequest

log = logging.getLogger(__name__)

REDELIVER_AFTER_S = float(os.environ.get("GPU_ADVISOR_REDELIVER_AFTER_S", "60") or 60)
"""Longer than any answer takes while its worker lives (Retry-After waits included), so a slow answer is
not answered twice; short enough that the user still sees it."""
SWEEP_EVERY_S = 2.0

_started_in: set[int] = set()
_lock = threading.Lock()


def ensure_reaper(app: App, store: Any) -> None:
    """Start this process's reaper once (after gunicorn's fork: threads do not survive it)."""
    if getattr(store, "journal_claim_stale", None) is None:
        return
    with _lock:
        if os.getpid() in _started_in:
            return
        _started_in.add(os.getpid())
    threading.Thread(target=_sweep_forever, args=(app, store), name="gpu-advisor-redeliver", daemon=True).start()


def sweep(app: App, store: Any, older_than_s: float = REDELIVER_AFTER_S) -> int:
    """Claim and re-dispatch stale journal entries once; returns how many were dispatched."""
    count = 0
    for event_id, body, headers in store.journal_claim_stale(older_than_s):
        headers = {**headers, "x-slack-retry-num": headers.get("x-slack-retry-num") or "1",
                   "x-slack-retry-reason": "redelivery"}
        try:
            response = app.dispatch(BoltRequest(body=body, headers=headers,
                                                context={"gpu_advisor_redelivery": True}))
        except Exception:
            log.exception("redelivery failed", extra={"kind": "redelivery", "event_id": event_id})
            continue
        log.warning("answering an event whose worker died", extra={"kind": "redelivery", "event_id": event_id,
                                                                   "status": response.status})
        count += 1
    return count


def _sweep_forever(app: App, store: Any) -> None:
    stop = threading.Event()
    while not stop.wait(SWEEP_EVERY_S):
        try:
            sweep(app, store)
        except Exception:
            log.exception("redelivery sweep failed", extra={"kind": "redelivery"})
