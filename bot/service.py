"""`Advisor`: the conversation around `answer()`, shared by every front end.

Slack, the console and `ask` differ only in how text arrives and how the reply leaves. Everything in
between — the length guard, parsing, follow-ups within a thread, explicit overrides from flags or
buttons, remembering the thread's last question — lives here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.reply.answer import answer
from bot.reply.config_models import attach_config_model
from bot.reply.model import Answer, Query
from bot.reply.overrides import apply_overrides
from bot.reply.request import answer_request
from bot.state import MemoryStore, StateStore
from bot.understand.followup import follow_up
from bot.understand.lang import detect_lang
from bot.understand.logs import fold_repeated_records
from bot.understand.parse import parse
from bot.understand.pasted_config import split_pasted_config
from bot.understand.question import Lang, Question
from knowledge.base import KnowledgeBase
from knowledge.hub import ConfigFetcher, fetch_hub_config
from knowledge.loader import default_knowledge

MAX_MESSAGE_CHARS = 4000
"""Longer messages get a polite refusal: a GPU question fits in a few lines, and a pasted document would only
produce a misreading (Slack itself allows 40,000). A pasted log is first read with its repeated records once
(`within_length`), which brings a minute of vLLM metrics lines and the question after them within it."""

SIZING_INTENTS = frozenset({"recommend", "check", "compare", "model_info"})


def within_length(text: str) -> tuple[str, int, Answer | None]:
    """The message as it will be read, how many repeated log records were dropped to bring it within
    MAX_MESSAGE_CHARS (bot.understand.logs; a message within it is read as written), and the polite refusal, in
    its own language, when it is still too long."""
    folded, dropped = fold_repeated_records(text) if len(text) > MAX_MESSAGE_CHARS else (text, 0)
    if len(folded) <= MAX_MESSAGE_CHARS:
        return folded, dropped, None
    return folded, dropped, Answer(intent="unknown", query=Query(lang=language_of(folded)), error="too-long",
                                   understood={"length": len(folded), "limit": MAX_MESSAGE_CHARS})


def said_folded(result: Answer, folded: int) -> Answer:
    """The answer to a folded paste says so: what was not read is not silently lost."""
    if folded:
        result.understood = {**result.understood, "records_folded": folded}
    return result


def ask(request: Mapping[str, Any], kb: KnowledgeBase | None = None,
        fetch_config: ConfigFetcher | None = fetch_hub_config) -> Answer:
    """One stateless answer to a text plus explicit flags (`ask` and its JSON lines), behind the same length
    guard as every conversation."""
    text, folded, refusal = within_length(str(request.get("text") or ""))
    if refusal is not None:
        return refusal
    request = {**request, "text": text} if folded else request
    return said_folded(answer_request(request, kb, fetch_config=fetch_config), folded)


@dataclass(frozen=True)
class Reply:
    question: Question
    answer: Answer
    show_maths: bool = False


class Advisor:
    def __init__(self, kb: KnowledgeBase | None = None, store: StateStore | None = None,
                 fetch_config: ConfigFetcher | None = fetch_hub_config) -> None:
        self.kb = kb or default_knowledge()
        self.store: StateStore = store if store is not None else MemoryStore()
        self.fetch_config = fetch_config
        """Hub id → config.json for models the knowledge base lacks (None: offline, cached imports only)."""

    def respond(self, text: str, thread_key: str, *, user_id: str | None = None,
                overrides: Mapping[str, Any] | None = None, lang: str | None = None) -> Reply:
        overrides = dict(overrides or {})
        show_maths = bool(overrides.pop("show_maths", False))
        text, folded, refusal = within_length(text)
        if refusal is not None:
            return Reply(Question(text=text[:200], intent="unknown", lang=refusal.query.lang), refusal)
        previous = self.store.get_question(thread_key) if thread_key else None
        text, pasted = split_pasted_config(text)
        if text.strip():
            question = follow_up(previous, parse(text, self.kb, previous.model if previous else None), self.kb)
        elif previous is not None and (overrides or show_maths):
            question = previous
        else:
            question = Question(text="", intent="help")
        if overrides:
            question = apply_overrides(question, overrides, self.kb)
        if lang in ("en", "zh-Hans", "zh-Hant"):
            forced: Lang = lang  # type: ignore[assignment]
            question = question.model_copy(update={"lang": forced})
        question, kb, refusal = attach_config_model(question, self.kb, pasted=pasted, fetch=self.fetch_config)
        result = refusal or answer(question, kb)
        if thread_key and question.intent in SIZING_INTENTS:
            self.store.put_question(thread_key, with_answered_pick(question, result))
        if user_id and text.strip():
            self.store.push_recent(user_id, text.strip()[:300])
        return Reply(question, said_folded(result, folded), show_maths)


    def replay(self, thread_key: str, *, show_maths: bool = False) -> Reply | None:
        """The thread's last sized question answered again (e.g. "Post to channel"), or None."""
        question = self.store.get_question(thread_key) if thread_key else None
        if question is None:
            return None
        question, kb, refusal = attach_config_model(question, self.kb)
        return Reply(question, refusal or answer(question, kb), show_maths)


def with_answered_pick(question: Question, result: Answer) -> Question:
    """The question as the thread remembers it: with the set-up its reply recommended when it named no card, so a
    later card is weighed against that set-up (bot.understand.followup)."""
    top = next((p for p in result.picks if p.fits), None)
    if question.gpu is not None or top is None or question.intent == "compare":
        return question.model_copy(update={"answered_pick": None})
    return question.model_copy(update={"answered_pick": (top.gpu, top.count)})


def language_of(text: str | None) -> Lang:
    """The language of a message, by the one detector every reply and notice uses (the parser's)."""
    return detect_lang(text[:MAX_MESSAGE_CHARS]) if text else "en"
