"""The answer as `ask --json` prints it, with its rendered text: what the reply tests assert on."""

from __future__ import annotations

from typing import Any

from bot.reply.render import render_text
from bot.service import ask
from bot.understand.followup import follow_up
from bot.understand.parse import parse
from bot.understand.question import Question
from knowledge.loader import default_knowledge

KB = default_knowledge()


def ask_json(text: str, **flags: object) -> dict[str, Any]:
    result = ask({"text": text, **flags})
    return {**result.as_json(), "text": render_text(result, KB)}


def thread(*texts: str) -> Question:
    """The question the last of `texts` asks, each read as a follow-up of the ones before (as a Slack thread is)."""
    question = parse(texts[0], KB)
    for text in texts[1:]:
        question = follow_up(question, parse(text, KB), KB)
    return question
