"""What the front ends (console, Slack) need from the service, as protocols.

Front ends depend on these shapes rather than on `bot.service.Advisor` itself, so their tests can hand
them a small fake advisor and need neither the knowledge base nor the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bot.reply.model import Answer
from bot.understand.question import Question


class ReplyLike(Protocol):
    @property
    def question(self) -> Question: ...

    @property
    def answer(self) -> Answer: ...


class AdvisorLike(Protocol):
    def respond(
        self,
        text: str,
        thread_key: str,
        *,
        user_id: str | None = None,
        overrides: Mapping[str, Any] | None = None,
        lang: str | None = None,
    ) -> ReplyLike: ...

    def replay(self, thread_key: str) -> ReplyLike | None: ...
