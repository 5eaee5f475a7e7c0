"""Messages that are not questions but still deserve a human answer: a thank-you gets "you're welcome", not
"I didn't understand that as a GPU question" (audit 29 LOW-101)."""

from __future__ import annotations

import re

THANKS = re.compile(
    r"\s*(?:thanks?(?:\s+(?:a\s+lot|so\s+much|again))?|thank\s+you(?:\s+(?:so\s+much|very\s+much))?|thx|ty|cheers|"
    r"谢谢(?:你|您|啦|了)?|多谢|感谢(?:你|您)?|謝謝(?:你|您|啦|了)?|感謝(?:你|您)?|多謝)\s*[!！.。~～]*\s*",
    re.IGNORECASE)
"""A whole message of thanks, in English or Chinese."""

__all__ = ["THANKS"]
