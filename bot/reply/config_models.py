"""Models the knowledge base does not hold, sized from their config.json: a Hub id in the text
("what GPU for Qwen/Qwen3-0.6B") or a config pasted into the message.

`attach_config_model` runs between parsing and `answer()`: it imports the config with the same importer as
`kb import`, caches it in the user knowledge directory (so a follow-up in the thread, or the next process,
finds it), and hands `answer()` a knowledge base that holds it. The network is the injected `fetch`
function; with none, only configs already cached are used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from bot.reply.model import Answer, Query
from bot.understand.pasted_config import config_label
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.errors import KnowledgeError
from knowledge.hub import (
    HUB_ID,
    ConfigFetcher,
    cached_model,
    hub_model_id,
    import_from_hub,
    looks_like_repo_id,
    model_from_config,
    user_kb_dir,
)
from knowledge.importer import write_user_entry
from knowledge.schema import Model

CONFIG_ERROR = "config-unavailable"
"""`Answer.error` when a named Hub model or a pasted config could not be sized; `understood` says why."""


def _with_model(kb: KnowledgeBase, model: Model) -> KnowledgeBase:
    return dataclasses.replace(kb, models={**kb.models, model.id: model})


def _asking_about(question: Question, model: Model, text: str) -> Question:
    stated = [*question.stated, "model"] if "model" not in question.stated else list(question.stated)
    intent = "recommend" if question.intent in ("help", "unknown", "faq") else question.intent
    return question.model_copy(update={"model": model.id, "model_text": text, "model_score": 1.0,
                                       "model_suggestions": [], "params_b": None, "stated": stated,
                                       "intent": intent})


def _refusal(question: Question, subject: str, reason: str) -> Answer:
    return Answer(intent="unknown", query=Query(lang=question.lang), error=CONFIG_ERROR,
                  understood={"subject": subject, "reason": reason})


def pasted_model_id(config: dict[str, Any]) -> str:
    """A stable id per distinct config: its label plus a short digest of its content."""
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    slug = re.sub(r"[^a-z0-9._-]+", "-", config_label(config).lower()).strip("-._")[:60] or "model"
    return f"pasted--{slug}-{digest}"


_SHAPE_KEYS = ("model_type", "architectures")
"""Keys that name the model's family, whose importer defaults then say its MLP and head."""


def _readings(pasted: dict[str, Any]) -> list[dict[str, Any]]:
    """The pasted config, and, when it names neither its family nor its activation or head tying, the readings
    of what it leaves out: a gated (SiLU) MLP, as every grouped-query decoder since Llama 2 has, and an untied
    head, as the 7B-and-up ones have."""
    if any(key in pasted for key in _SHAPE_KEYS):
        return [pasted]
    acts = [{}] if ("hidden_act" in pasted or "activation_function" in pasted) else [{"hidden_act": "silu"}, {}]
    ties = [{}] if "tie_word_embeddings" in pasted else [{"tie_word_embeddings": False}, {}]
    return [{**pasted, **act, **tie} for act in acts for tie in ties]


def _closest_reading(pasted: dict[str, Any], label: str, stated_params_b: float | None) -> Model:
    """The model a pasted config describes: with its parameter count stated beside it ("— 14.8B params"), the
    reading of the keys it leaves out that comes to that count; else the first (audit 34 M-123: a Qwen3-14B shape
    without `hidden_act` had been sized with a two-matrix MLP and a tied head, 10.43B against the 14.8B written)."""
    model_id = pasted_model_id(pasted)
    models = [model_from_config(reading, model_id, name=label, source="config.json pasted into a message")
              for reading in _readings(pasted)]
    if stated_params_b is None:
        return models[0]
    return min(models, key=lambda m: abs(m.params_b - stated_params_b))


def _hub_ids(text: str, kb: KnowledgeBase) -> list[str]:
    return [m.group(0) for m in HUB_ID.finditer(text)
            if looks_like_repo_id(m.group(0)) and kb.model_index.exact(m.group(0)) is None]


def attach_config_model(question: Question, kb: KnowledgeBase, *, pasted: dict[str, Any] | None = None,
                        fetch: ConfigFetcher | None = None,
                        directory: Path | None = None) -> tuple[Question, KnowledgeBase, Answer | None]:
    """(question, knowledge base holding its model, None) or (question, kb, a refusal that says why)."""
    directory = directory or user_kb_dir()
    if pasted is not None:
        label = config_label(pasted)
        try:
            model = _closest_reading(pasted, label, question.params_b)
        except KnowledgeError as exc:
            return question, kb, _refusal(question, label, str(exc))
        with contextlib.suppress(OSError, KnowledgeError):  # a cache for follow-ups; this answer does not need it
            write_user_entry(model, directory)
        return _asking_about(question, model, label), _with_model(kb, model), None
    if question.model and question.model not in kb.models:
        cached = cached_model(question.model, directory)  # a follow-up about a model imported earlier
        return (question, _with_model(kb, cached), None) if cached else (question, kb, None)
    for repo_id in _hub_ids(question.text, kb)[:1]:
        # The exact repo named wins over a similar name the parser matched ("acme/Qwen2.5-7B-ft" is not
        # Qwen2.5-7B); when it cannot be fetched, the parser's match still answers, and only a question
        # with no model at all is refused.
        found = cached_model(hub_model_id(repo_id), directory)
        if found is None and fetch is not None:
            try:
                found = import_from_hub(repo_id, fetch, directory)
            except KnowledgeError as exc:
                if question.model is None:
                    return question, kb, _refusal(question, repo_id, str(exc))
        if found is not None:
            return _asking_about(question, found, repo_id), _with_model(kb, found), None
    return question, kb, None
