"""Slack: the Bolt app, its listeners, the HTTP server (`serve`) and Socket Mode (`socket`), settings and logs.

The only room that imports slack_bolt. Listeners are thin: they read text, thread and user from a payload and
hand them to the advisor service; the renderer turns the answer into Block Kit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot._lazy import lazy_exports

if TYPE_CHECKING:
    from bot.slack.app import build_app
    from bot.slack.settings import Settings

__all__ = ["Settings", "build_app"]
__getattr__ = lazy_exports(__name__, {"Settings": "settings", "build_app": "app"})
