"""The few lines the Slack front end writes itself, and the escaping that keeps user text inert.

Anything a user typed that goes back into Slack passes `escape` (so `<!channel>` cannot ping anyone);
`defuse` is the last line of defence over whole payloads.
"""

from __future__ import annotations

import re
from typing import Any

QUESTIONS_PER_MINUTE = 20

ERROR_LINE = {
    "en": "Sorry, something went wrong on my side while sizing that. Please try again in a minute.",
    "zh-Hans": "抱歉，我这边处理时出了点问题，请稍后再试。",
    "zh-Hant": "抱歉，我這邊處理時出了點問題，請稍後再試。",
}
RATE_LIMITED_LINE = {
    "en": f"You're asking faster than I can size (limit: {QUESTIONS_PER_MINUTE} questions a minute). "
    "Give me a moment and ask again.",
    "zh-Hans": f"提问太快了（每分钟最多 {QUESTIONS_PER_MINUTE} 个问题），请稍等片刻再问。",
    "zh-Hant": f"提問太快了（每分鐘最多 {QUESTIONS_PER_MINUTE} 個問題），請稍等片刻再問。",
}
CONTEXT_LOST_LINE = {
    "en": "I lost the thread's context; here is the answer to this message alone.",
    "zh-Hans": "我丢失了这个对话的上下文；以下只回答这条消息。",
    "zh-Hant": "我遺失了這個對話的上下文；以下只回答這條消息。",
}
BAD_REQUEST_LINE = {
    "en": "I couldn't use that: {detail}",
    "zh-Hans": "无法处理这个请求：{detail}",
    "zh-Hant": "無法處理這個請求：{detail}",
}


def escape(text: str) -> str:
    """Slack's mrkdwn escaping: &, <, > so user text can never become a mention, broadcast or link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_BROADCAST = re.compile(r"<!(channel|here|everyone|subteam\^[^>]*)(\|[^>]*)?>", re.IGNORECASE)


def defuse(value: Any) -> Any:
    """Last line of defence on everything we send: no <!channel>/<!here>/<!everyone>/<!subteam^…> ever
    leaves the bot, even if a renderer forgot to escape the user's text."""
    if isinstance(value, str):
        return _BROADCAST.sub(lambda m: "&lt;" + m.group(0)[1:-1] + "&gt;", value)
    if isinstance(value, list):
        return [defuse(item) for item in value]
    if isinstance(value, dict):
        return {key: defuse(item) for key, item in value.items()}
    return value


