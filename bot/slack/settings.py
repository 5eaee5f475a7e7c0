"""Settings of the Slack front end, read from the environment (design.md, "Settings").

    SLACK_BOT_TOKEN       xoxb-… bot token (HTTP and Socket Mode)
    SLACK_SIGNING_SECRET  verifies every HTTP request from Slack (HTTP mode refuses to start without it)
    SLACK_APP_TOKEN       xapp-… app-level token with connections:write (Socket Mode only)
    SLACK_API_URL         Web API base URL, default https://slack.com/api/ (tests point it at a local server)
    PORT                  HTTP port for `serve`, default 3000
    REDIS_URL             shared state across replicas; in-memory when unset
    LOG_LEVEL             DEBUG | INFO | WARNING | ERROR, default INFO
    WEB_CONCURRENCY       gunicorn worker processes for `serve` (only honoured with REDIS_URL, see server.py)

Secrets never appear in `repr()`/`str()` of a `Settings`, so logging one is safe.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bot.errors import ConfigError

DEFAULT_API_URL = "https://slack.com/api/"
DEFAULT_PORT = 3000
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _clean(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


@dataclass(frozen=True)
class Settings:
    bot_token: str | None = field(default=None, repr=False)
    signing_secret: str | None = field(default=None, repr=False)
    app_token: str | None = field(default=None, repr=False)
    api_url: str = DEFAULT_API_URL
    port: int = DEFAULT_PORT
    redis_url: str | None = field(default=None, repr=False)
    """May carry a password (redis://:secret@host), so it is treated as a secret too."""
    log_level: str = "INFO"
    web_concurrency: int | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        api_url = _clean(env.get("SLACK_API_URL")) or DEFAULT_API_URL
        parts = urlsplit(api_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(f"SLACK_API_URL must be an http(s) URL like {DEFAULT_API_URL}, not {api_url!r}")
        if not api_url.endswith("/"):
            # slack_sdk joins base_url + method name, so a missing slash would call ".../apichat.postMessage".
            api_url += "/"
        port_text = _clean(env.get("PORT"))
        try:
            port = int(port_text) if port_text else DEFAULT_PORT
        except ValueError:
            raise ConfigError(f"PORT must be a whole number, not {port_text!r}") from None
        if not 0 <= port <= 65535:
            raise ConfigError(f"PORT must be between 0 and 65535, not {port}")
        level = (_clean(env.get("LOG_LEVEL")) or "INFO").upper()
        if level not in _LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, not {level!r}")
        concurrency_text = _clean(env.get("WEB_CONCURRENCY"))
        try:
            concurrency = int(concurrency_text) if concurrency_text else None
        except ValueError:
            raise ConfigError(f"WEB_CONCURRENCY must be a whole number, not {concurrency_text!r}") from None
        return cls(
            bot_token=_clean(env.get("SLACK_BOT_TOKEN")),
            signing_secret=_clean(env.get("SLACK_SIGNING_SECRET")),
            app_token=_clean(env.get("SLACK_APP_TOKEN")),
            api_url=api_url,
            port=port,
            redis_url=_clean(env.get("REDIS_URL")),
            log_level=level,
            web_concurrency=concurrency,
        )

    # --- what each mode needs -------------------------------------------------------------------------

    def require_http(self) -> None:
        """Raise ConfigError naming the first missing setting of `serve`."""
        if not self.signing_secret:
            raise ConfigError(
                "SLACK_SIGNING_SECRET is not set: `serve` cannot verify requests from Slack without it "
                "(Slack app settings → Basic Information → Signing Secret)"
            )
        if not self.bot_token:
            raise ConfigError("SLACK_BOT_TOKEN is not set: `serve` needs the bot token (xoxb-…) to reply")

    def require_socket(self) -> None:
        """Raise ConfigError naming the first missing setting of `socket`."""
        if not self.app_token:
            raise ConfigError(
                "SLACK_APP_TOKEN is not set: Socket Mode needs an app-level token (xapp-…) "
                "with the connections:write scope"
            )
        if not self.bot_token:
            raise ConfigError("SLACK_BOT_TOKEN is not set: Socket Mode needs the bot token (xoxb-…) to reply")

    def implied_mode(self) -> str:
        """The mode `python -m bot` without a subcommand should run: socket, serve or console."""
        if self.bot_token and self.app_token:
            return "socket"
        if self.bot_token and self.signing_secret:
            return "serve"
        return "console"

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every secret value, for the log redaction filter."""
        return tuple(s for s in (self.bot_token, self.signing_secret, self.app_token, self.redis_url) if s)

    @property
    def log_level_number(self) -> int:
        return int(logging.getLevelName(self.log_level))

    def __repr__(self) -> str:
        def shown(value: str | None) -> str:
            return "<set>" if value else "<unset>"

        return (
            f"Settings(bot_token={shown(self.bot_token)}, signing_secret={shown(self.signing_secret)}, "
            f"app_token={shown(self.app_token)}, api_url={self.api_url!r}, port={self.port}, "
            f"redis_url={shown(self.redis_url)}, log_level={self.log_level!r}, "
            f"web_concurrency={self.web_concurrency})"
        )

    __str__ = __repr__
