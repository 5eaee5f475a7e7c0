"""Reply: a `Question` → an `Answer` (numbers, no words) → words for a transport.

`answer()` is the one pipeline every front end calls: it fills defaults (stated back as assumptions), asks the
rules for the estimate, picks and fit, and attaches FAQ entries. `render_text` and `render_blocks` turn the
same `Answer` into terminal text or Slack Block Kit through the same templates. Knows nothing of Slack's
transport or the console.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot._lazy import lazy_exports

if TYPE_CHECKING:
    from bot.reply.answer import answer
    from bot.reply.model import Answer
    from bot.reply.overrides import apply_overrides
    from bot.reply.render import render_blocks, render_text
    from bot.reply.request import answer_request

__all__ = ["Answer", "answer", "answer_request", "apply_overrides", "render_blocks", "render_text"]
__getattr__ = lazy_exports(__name__, {
    "Answer": "model", "answer": "answer", "answer_request": "request", "apply_overrides": "overrides",
    "render_blocks": "render", "render_text": "render",
})
