"""The answer as `ask --json` prints it, with its rendered text: what the reply tests assert on."""

from __future__ import annotations

from typing import Any

from bot.reply.render import render_text
from bot.service import ask
from knowledge.loader import default_knowledge

KB = default_knowledge()


def ask_json(text: str, **flags: object) -> dict[str, Any]:
    result = ask({"text": text, **flags})
    return {**result.as_json(), "text": render_text(result, KB)}
