"""Shared by the benches: a request dict (bench/accuracy.py's `to_request`) → the rules' Workload."""

from __future__ import annotations

from typing import Any

from knowledge.base import KnowledgeBase
from rules.types import Workload

WORKLOAD_KEYS = ("task", "precision", "quant", "engine", "context", "batch", "gen_tokens", "zero_stage",
                 "gradient_checkpointing", "lora_rank", "optimizer", "flash_attention", "offload", "pure_16bit",
                 "train_embeddings")
"""Request keys that are Workload fields (the others name the model and the cards)."""

DEFAULT_CONTEXT = 4096
"""bot.answer's default context, capped at the model's window."""


def workload_for(request: dict[str, Any], kb: KnowledgeBase) -> Workload:
    """The Workload the rules size for `request` (a generic model when the request gives only params_b)."""
    from rules import generic_model

    model = kb.model(request["model"]) if "model" in request else generic_model(request["params_b"])
    kwargs = {k: request[k] for k in WORKLOAD_KEYS if k in request}
    if "context" not in kwargs:
        kwargs["context"] = min(DEFAULT_CONTEXT, model.max_context or DEFAULT_CONTEXT)
    return Workload(model=model, **kwargs)
