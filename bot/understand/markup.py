"""Slack markup out of a message: mentions dropped, links to their labels, entities unescaped.

Runs first, so that nothing downstream can mistake `<@U123>` or `<!channel>` for words of the question.
"""

from __future__ import annotations

import re

_SLACK_TAG = re.compile(r"<([^<>]*)>")
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")


def _slack_tag(match: re.Match[str]) -> str:
    inner = match.group(1)
    target, _, label = inner.partition("|")
    if target.startswith("@"):  # user mention
        return ""
    if target.startswith("!"):  # <!here>, <!channel>, <!subteam^ID|@team>, <!date^…|fallback>
        return label if target.startswith("!date") else ""
    if target.startswith("#"):  # channel link
        return f"#{label}" if label else ""
    if label:
        return label
    return target[len("mailto:"):] if target.startswith("mailto:") else target


def strip_slack_markup(text: str) -> str:
    """`<@U123>` mentions removed, `<url|label>` → label, `<url>` → url, `&amp; &lt; &gt;` unescaped."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = _SLACK_TAG.sub(_slack_tag, text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return re.sub(r"[ \t]{2,}", " ", text).strip()

