"""Stand-ins for bot.service.Advisor and bot.reply.render with the same shapes, for listener tests (fast, and
independent of the sizing rules) and for the e2e server while the real pipeline cannot answer yet.

The fake advisor "recommends" a GPU by a tiny table; the fake renderer echoes the question's text
escaped (or, with `escape_user_text=False`, raw — to prove bot.slack.app's last line of defence).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Any

from bot.reply.model import Answer, PickOut, Query
from bot.state import MemoryStore
from bot.understand.question import Question

TABLE = {
    "chatglm-6b": ("chatglm-6b", "rtx-4090"),
    "baichuan2-13b": ("baichuan2-13b", "a100-80g"),
    "llama-3-70b": ("llama-3-70b", "h100-80g"),
}


@dataclass(frozen=True)
class Reply:
    question: Question
    answer: Answer
    show_maths: bool = False


class FakeAdvisor:
    def __init__(self, store: Any = None, *, fail_on: str | None = None) -> None:
        self.store = store if store is not None else MemoryStore()
        self.fail_on = fail_on
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def respond(self, text: str, thread_key: str, *, user_id: str | None = None,
                overrides: dict[str, object] | None = None, lang: str | None = None) -> Reply:
        with self._lock:
            self.calls.append({"text": text, "thread_key": thread_key, "user_id": user_id,
                               "overrides": dict(overrides or {})})
        if self.fail_on and self.fail_on in text:
            raise RuntimeError("boom: secret internals xoxb-123-should-not-leak")
        overrides = dict(overrides or {})
        show_maths = bool(overrides.pop("show_maths", False))
        previous = self.store.get_question(thread_key)
        clean = re.sub(r"<@[A-Z0-9]+>\s*", "", text).strip()
        if clean:
            question = self._parse(clean, previous)
        elif previous is not None and (overrides or show_maths):
            question = previous
        else:
            question = Question(text="", intent="help")
        if overrides:
            question = question.model_copy(update={k: v for k, v in overrides.items()
                                                   if k in ("precision", "task", "budget")})
        if question.intent == "recommend":
            self.store.put_question(thread_key, question)
        if user_id and clean:
            self.store.push_recent(user_id, clean)
        return Reply(question, self._answer(question), show_maths)

    def replay(self, thread_key: str) -> Reply | None:
        question = self.store.get_question(thread_key)
        return None if question is None else Reply(question, self._answer(question))

    def _parse(self, text: str, previous: Question | None) -> Question:
        lang = "zh-Hans" if re.search(r"[\u4e00-\u9fff]", text) else "en"
        if text.lower() == "help":
            return Question(text=text, intent="help", lang=lang)
        lowered = text.lower()
        for name, (model, _gpu) in TABLE.items():
            if name in lowered:
                return Question(text=text, intent="recommend", model=model, lang=lang, task="inference")
        if previous is not None:
            precision = "int4" if "int4" in lowered else previous.precision
            return previous.model_copy(update={"text": text, "precision": precision})
        return Question(text=text, intent="recommend", lang=lang, task="inference")

    @staticmethod
    def _answer(question: Question) -> Answer:
        if question.intent == "help":
            return Answer(intent="help", query=Query(lang=question.lang), understood={"text": question.text})
        gpu = next((g for m, g in TABLE.values() if m == question.model), "l4")
        if question.precision == "int4":
            gpu = "rtx-4060-ti-16g"
        if question.budget:
            gpu = "t4"
        pick = PickOut(gpu=gpu, count=1, fits=True, memory_per_gpu_gb=14.2, headroom_gb=9.8)
        return Answer(intent="recommend", query=Query(model=question.model, task=question.task,
                                                       precision=question.precision, budget=question.budget,
                                                       lang=question.lang),
                      picks=[pick], understood={"text": question.text})


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class FakeRenderer:
    ACTIONS = (("int4", "Try INT4", {"precision": "int4"}), ("training", "Show training", {"task": "lora"}),
               ("cheaper", "Cheaper options", {"budget": True}), ("maths", "Show the maths", {"show_maths": True}))

    def __init__(self, *, escape_user_text: bool = True) -> None:
        self.escape_user_text = escape_user_text

    def render_blocks(self, answer: Answer, *, thread_key: str = "", ephemeral: bool = False, kb: Any = None,
                      show_maths: bool = False) -> tuple[list[dict[str, Any]], str]:
        said = str(answer.understood.get("text", ""))
        said = _escape(said) if self.escape_user_text else said
        if answer.intent == "help":
            text = "Ask me which GPU you need, e.g. `what GPU for ChatGLM-6B inference`."
            return [{"type": "section", "text": {"type": "mrkdwn", "text": text}}], text
        top = answer.picks[0].gpu if answer.picks else "none"
        text = f"You asked: {said}\nTop pick: {top}" + ("\nMaths: weights 12.0 GB" if show_maths else "")

        def button(action: str, label: str, overrides: dict[str, Any]) -> dict[str, Any]:
            return {"type": "button", "text": {"type": "plain_text", "text": label},
                    "action_id": f"gpu_advisor.{action}",
                    "value": json.dumps({"thread": thread_key, "overrides": overrides})}

        buttons = [button(*spec) for spec in self.ACTIONS]
        if ephemeral:
            buttons.append(button("post", "Post to channel", {}))
        blocks: list[dict[str, Any]] = [{"type": "section", "text": {"type": "mrkdwn", "text": text}},
                  {"type": "actions", "block_id": "gpu_advisor_actions", "elements": buttons}]
        return blocks, text

    def render_home(self, recent: list[str], kb: Any = None) -> dict[str, Any]:
        lines = "\n".join(f"• {_escape(q)}" for q in recent) or "No questions yet."
        return {"type": "home", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": lines}}]}

    def render_notice(self, key: str, lang: str = "en", **values: Any) -> str:
        return {"error": "Sorry, something went wrong on my side. Please try again.",
                "rate_limited": f"You're asking faster than I can answer ({values.get('limit')} a minute).",
                "context_lost": "I lost the thread's context; here is the answer to this message alone."}[key]


def install(escape_user_text: bool = True) -> None:
    """Make bot.slack.app.build_app use the fakes by default (for a `serve`/`socket` subprocess)."""
    import bot.slack.app

    def fake_defaults(settings: Any, store: Any, kb: Any) -> tuple[Any, Any, Any, Any]:
        the_store = store if store is not None else MemoryStore()
        return FakeAdvisor(the_store), the_store, FakeRenderer(escape_user_text=escape_user_text), None

    bot.slack.app._default_dependencies = fake_defaults
