"""Understand: any message (English, Simplified/Traditional Chinese, Slack markup) → a `Question`.

Knows nothing of replies, rendering or Slack. `parse` reads one message; `follow_up` merges a thread's
follow-up ("what about int4?") into the previous question; `detect_lang` is the one language detector.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot._lazy import lazy_exports

if TYPE_CHECKING:
    from bot.understand.followup import follow_up, is_follow_up
    from bot.understand.lang import detect_lang
    from bot.understand.markup import strip_slack_markup
    from bot.understand.parse import parse
    from bot.understand.question import Question

__all__ = ["Question", "detect_lang", "follow_up", "is_follow_up", "parse", "strip_slack_markup"]
__getattr__ = lazy_exports(__name__, {
    "Question": "question", "detect_lang": "lang", "follow_up": "followup", "is_follow_up": "followup",
    "parse": "parse", "strip_slack_markup": "markup",
})
