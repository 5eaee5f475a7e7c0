"""The Web API client: pointed at SLACK_API_URL, with retries for 429, 5xx and connection errors."""

from __future__ import annotations

import logging

from slack_sdk import WebClient
from slack_sdk.http_retry import RetryHandler
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import BackoffRetryIntervalCalculator

from bot.slack.logs import quiet_retry_noise
from bot.slack.settings import Settings

WEB_API_TIMEOUT_S = 10



def retry_handlers(backoff_factor: float = 0.5) -> list[RetryHandler]:
    """429 → wait Retry-After and retry; 500/503 and connection errors → retry with backoff. After the
    last retry the call raises and the listener's guard logs it once; the process keeps serving."""
    backoff = BackoffRetryIntervalCalculator(backoff_factor=backoff_factor)
    return [
        ConnectionErrorRetryHandler(max_retry_count=2, interval_calculator=backoff),
        RateLimitErrorRetryHandler(max_retry_count=3),
        ServerErrorRetryHandler(max_retry_count=2, interval_calculator=backoff),
    ]


def build_web_client(settings: Settings, *, backoff_factor: float = 0.5) -> WebClient:
    quiet_retry_noise("slack_sdk.web", "slack_sdk.webhook.client")
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=WEB_API_TIMEOUT_S,
        retry_handlers=retry_handlers(backoff_factor),
        logger=logging.getLogger("slack_sdk.web"),
    )


