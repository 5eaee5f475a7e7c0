"""The Web API client: pointed at SLACK_API_URL, with patient retries for 429, 5xx and connection errors, and
posts paced per channel; `PatientRespond` gives response_url (/gpu, buttons, shortcut) the same retries."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from slack_bolt.context.respond import Respond
from slack_bolt.context.respond.internals import _build_message
from slack_sdk import WebClient
from slack_sdk.http_retry import RetryHandler
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import BackoffRetryIntervalCalculator
from slack_sdk.webhook import WebhookClient, WebhookResponse

from bot.slack.logs import quiet_retry_noise
from bot.slack.settings import Settings

WEB_API_TIMEOUT_S = 10
RATE_LIMIT_RETRIES = 10
"""429s are waited out (each for its Retry-After) this many times: a delayed reply is still a reply. Three
lost 4 of 2,582 answers at a 20 % 429 rate and 11 of 20 in a one-channel burst (issue 11)."""
SERVER_ERROR_RETRIES = 6
"""500/503 are retried with backoff (0.5, 1, 2, 4, 8, 16 s): at a 30 % error rate, 4 retries still lost about one
answer in 400 (bench/load.py response_url-500)."""
CHANNEL_POST_INTERVAL_S = 1.0
"""Slack allows about one message a second per channel (chat.postMessage, "Rate limits"); a burst into one
channel is spread out here instead of being answered with 429s."""



def retry_handlers(backoff_factor: float = 0.5) -> list[RetryHandler]:
    """429 → wait Retry-After and retry; 500/503 and connection errors → retry with backoff. After the
    last retry the call raises and the listener's guard logs it once; the process keeps serving."""
    backoff = BackoffRetryIntervalCalculator(backoff_factor=backoff_factor)
    return [
        ConnectionErrorRetryHandler(max_retry_count=2, interval_calculator=backoff),
        RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
        ServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES, interval_calculator=backoff),
    ]


class ChannelPacer:
    """One post at a time per channel within this process, each starting at least `interval_s` after the
    previous one finished (its 429 retries included), so retries do not collide with the next paced post.
    Different channels do not wait for each other. It lives on the front end, not on a WebClient: Bolt
    gives each request a fresh WebClient."""

    def __init__(self, interval_s: float = CHANNEL_POST_INTERVAL_S) -> None:
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._turns: dict[str, tuple[threading.Lock, list[float]]] = {}

    @contextmanager
    def turn(self, channel: str) -> Iterator[None]:
        with self._lock:
            if len(self._turns) > 10_000:
                now = time.monotonic()
                self._turns = {c: t for c, t in self._turns.items() if t[0].locked() or t[1][0] > now}
            lock, ready_at = self._turns.setdefault(channel, (threading.Lock(), [0.0]))
        with lock:
            delay = ready_at[0] - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            try:
                yield
            finally:
                ready_at[0] = time.monotonic() + self.interval_s


class PatientRespond(Respond):
    """Bolt's `respond` (response_url) with the Web API's retry handlers: Bolt's own retries connection
    errors only, so one 429 or 500 from response_url lost a /gpu, button or shortcut answer."""

    def __call__(self, text: str | dict[str, Any] = "", **fields: Any) -> WebhookResponse:  # type: ignore[override]
        if self.response_url is None:
            raise ValueError("respond is unsupported here as there is no response_url")
        client = WebhookClient(url=self.response_url, proxy=self.proxy, ssl=self.ssl, timeout=WEB_API_TIMEOUT_S,
                               retry_handlers=retry_handlers(), logger=logging.getLogger("slack_sdk.webhook.client"))
        message = _build_message(**text) if isinstance(text, dict) else _build_message(text=text, **fields)
        return client.send_dict(message)


def build_web_client(settings: Settings, *, backoff_factor: float = 0.5) -> WebClient:
    quiet_retry_noise("slack_sdk.web", "slack_sdk.webhook.client")
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=WEB_API_TIMEOUT_S,
        retry_handlers=retry_handlers(backoff_factor),
        logger=logging.getLogger("slack_sdk.web"),
    )


