"""A text plus explicit flags answered: the `ask` command line and its JSON-line form.

The flags override what the text says; flags that name a workload make a generic text a sizing question; a
pasted config.json names the model the question is about (bot.reply.config_models).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.reply.answer import answer
from bot.reply.config_models import attach_config_model
from bot.reply.model import Answer
from bot.reply.overrides import apply_overrides
from bot.understand.pasted_config import split_pasted_config
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.hub import ConfigFetcher
from knowledge.loader import default_knowledge

SIZING_FLAGS = frozenset({"model", "params_b", "task", "precision", "quant", "engine", "context", "batch", "gpu",
                          "gpus"})
"""Flags that name a workload: with any of them, a generic text ("how much memory") is a sizing question."""



def answer_request(request: Mapping[str, Any], kb: KnowledgeBase | None = None, *,
                   fetch_config: ConfigFetcher | None = None) -> Answer:
    """Answer a text plus explicit flags (the `ask` command line and its JSON-line form)."""
    from bot.understand.parse import parse  # the parser is the heaviest import; scripts that pass flags only skip it

    kb = kb or default_knowledge()
    text, pasted = split_pasted_config(str(request.get("text") or ""))
    flags = {k: v for k, v in request.items() if k != "text" and v is not None}
    # flags alone name a job; nothing at all asks what the bot does (audit 29 LOW-109: "" gave a size chart)
    question = parse(text, kb) if text else Question(text="", intent="recommend" if flags else "help")
    if flags:
        question = apply_overrides(question, flags, kb)
        if SIZING_FLAGS & set(flags) and question.intent in ("faq", "help", "unknown") and "intent" not in flags:
            # `ask "how much memory" --model qwen2-7b`: the flags name a workload, so it is a sizing question
            question = question.model_copy(update={"intent": "check" if question.gpu else "recommend"})
        if not text and question.intent == "recommend" and question.gpu and "intent" not in flags:
            question = question.model_copy(update={"intent": "check"})
    question, kb, refusal = attach_config_model(question, kb, pasted=pasted, fetch=fetch_config)
    return refusal or answer(question, kb)


__all__ = ["SIZING_FLAGS", "answer_request"]
