"""`Advisor`: the conversation around `answer()`, shared by every front end.

Slack, the console and `ask` differ only in how text arrives and how the reply leaves. Everything in
between — the length guard, parsing, follow-ups within a thread, explicit overrides from flags or
buttons, remembering the thread's last question — lives here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.answer import answer
from bot.answer_model import Answer, Query
from bot.conversation import follow_up
from bot.overrides import apply_overrides
from bot.parse import parse
from bot.question import Lang, Question
from bot.state import MemoryStore, StateStore
from knowledge.base import KnowledgeBase
from knowledge.loader import default_knowledge

MAX_MESSAGE_CHARS = 4000
"""Longer messages get a polite refusal: a GPU question fits in a few lines, and a pasted log or
document would only produce a misreading (Slack itself allows 40,000)."""

SIZING_INTENTS = frozenset({"recommend", "check", "compare", "model_info"})


def too_long_refusal(text: str, lang: Lang) -> Answer | None:
    """The polite refusal for a message over MAX_MESSAGE_CHARS, or None when it is short enough."""
    if len(text) <= MAX_MESSAGE_CHARS:
        return None
    return Answer(intent="unknown", query=Query(lang=lang), error="too-long",
                  understood={"length": len(text), "limit": MAX_MESSAGE_CHARS})


@dataclass(frozen=True)
class Reply:
    question: Question
    answer: Answer
    show_maths: bool = False


class Advisor:
    def __init__(self, kb: KnowledgeBase | None = None, store: StateStore | None = None) -> None:
        self.kb = kb or default_knowledge()
        self.store: StateStore = store if store is not None else MemoryStore()

    def respond(self, text: str, thread_key: str, *, user_id: str | None = None,
                overrides: Mapping[str, Any] | None = None, lang: str | None = None) -> Reply:
        overrides = dict(overrides or {})
        show_maths = bool(overrides.pop("show_maths", False))
        refusal = too_long_refusal(text, _guess_lang(text))
        if refusal is not None:
            return Reply(Question(text=text[:200], intent="unknown", lang=refusal.query.lang), refusal)
        previous = self.store.get_question(thread_key) if thread_key else None
        if text.strip():
            question = follow_up(previous, parse(text, self.kb))
        elif previous is not None and (overrides or show_maths):
            question = previous
        else:
            question = Question(text="", intent="help")
        if overrides:
            question = apply_overrides(question, overrides, self.kb)
        if lang in ("en", "zh-Hans", "zh-Hant"):
            forced: Lang = lang  # type: ignore[assignment]
            question = question.model_copy(update={"lang": forced})
        result = answer(question, self.kb)
        if thread_key and question.intent in SIZING_INTENTS:
            self.store.put_question(thread_key, question)
        if user_id and text.strip():
            self.store.push_recent(user_id, text.strip()[:300])
        return Reply(question, result, show_maths)


    def replay(self, thread_key: str, *, show_maths: bool = False) -> Reply | None:
        """The thread's last sized question answered again (e.g. "Post to channel"), or None."""
        question = self.store.get_question(thread_key) if thread_key else None
        if question is None:
            return None
        return Reply(question, answer(question, self.kb), show_maths)


def _guess_lang(text: str) -> Lang:
    sample = text[:500]
    return "zh-Hans" if any("\u4e00" <= ch <= "\u9fff" for ch in sample) else "en"
