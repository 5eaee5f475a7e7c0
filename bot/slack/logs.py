"""Structured JSON logs for the Slack front end, with secrets redacted.

One JSON object per line on stderr: `ts`, `level`, `logger`, `msg`, and whichever of the fields in
`FIELDS` a call passed through `extra=` (event id, retry number, intent, model, latency, …), plus `exc`
with the traceback when there is one.

`RedactFilter` sits on the handler, so every record that reaches it — ours, Bolt's, slack_sdk's,
gunicorn's — is scrubbed: anything shaped like a Slack token (xoxb-, xoxp-, xapp-, xoxe-, …) and every
configured secret value is replaced before formatting. The formatter scrubs its output once more, so
text that only appears while formatting (a traceback, an argument's repr) is covered too.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Iterable
from typing import Any

TOKEN_RE = re.compile(r"\b(?:xox[a-z]|xapp)-[0-9A-Za-z][0-9A-Za-z\-]*")
REDACTED = "[redacted]"

FIELDS = (
    "kind",
    "event_id",
    "delivery",
    "retry_num",
    "retry_reason",
    "user",
    "channel",
    "thread_key",
    "intent",
    "model",
    "latency_ms",
    "ack_ms",
    "status",
    "path",
    "method",
    "error",
    "port",
)
"""Extra fields copied into the JSON object when a log call passes them in `extra=`."""

_secrets: set[str] = set()


def add_secrets(values: Iterable[str | None]) -> None:
    """Register exact secret values (signing secret, tokens, REDIS_URL) for redaction everywhere."""
    for value in values:
        if value and len(value) >= 6:
            _secrets.add(value)


def redact(text: str) -> str:
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return TOKEN_RE.sub(lambda m: m.group(0)[:5] + REDACTED, text)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return redact(str(value))


class RedactFilter(logging.Filter):
    """Replaces tokens and secrets in a record's message, arguments and extra fields."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must not lose the record
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        for name in FIELDS:
            if name in record.__dict__:
                record.__dict__[name] = _redact_value(record.__dict__[name])
        return True


class RetryNoiseFilter(logging.Filter):
    """slack_sdk logs an ERROR for every failed attempt of a Web API call, before its retry handlers
    retry it. Those attempts are demoted to DEBUG: the caller logs the final failure once, with the
    delivery's event id, when the retries are exhausted."""

    PREFIX = "Failed to send a request to Slack API server"

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.ERROR and str(record.msg).startswith(self.PREFIX):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True


def quiet_retry_noise(*logger_names: str) -> None:
    """Install `RetryNoiseFilter` on the given loggers (idempotent)."""
    for name in logger_names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RetryNoiseFilter) for f in logger.filters):
            logger.addFilter(RetryNoiseFilter())


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return redact(json.dumps(entry, ensure_ascii=False, default=str))


def logging_config(level: str = "INFO") -> dict[str, Any]:
    """A `logging.config.dictConfig` dict: JSON lines on stderr for the root, gunicorn and Bolt loggers."""
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "json",
        "filters": ["redact"],
        "stream": "ext://sys.stderr",
    }
    quiet = "WARNING" if level not in ("DEBUG",) else "DEBUG"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": "bot.slack.logs.RedactFilter"}},
        "formatters": {"json": {"()": "bot.slack.logs.JsonFormatter"}},
        "handlers": {"json": handler},
        "root": {"level": level, "handlers": ["json"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["json"], "propagate": False},
            # Per-request access lines would double the volume; bot.slack.server logs refusals and slow acks.
            "gunicorn.access": {"level": "WARNING", "handlers": ["json"], "propagate": False},
            # slack_sdk logs every request at DEBUG; keep it out of INFO logs.
            "slack_sdk": {"level": quiet},
            "urllib3": {"level": "WARNING"},
        },
    }


def setup_logging(level: str = "INFO", secrets: Iterable[str | None] = ()) -> None:
    """Configure process-wide JSON logging (idempotent) and register secrets for redaction."""
    import logging.config

    add_secrets(secrets)
    logging.config.dictConfig(logging_config(level))
    logging.captureWarnings(True)


def install_excepthook() -> None:
    """Route uncaught exceptions through the (redacting) logging setup instead of raw stderr."""

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        logging.getLogger("bot").critical("uncaught exception", exc_info=(kind, value, tb))

    sys.excepthook = hook
