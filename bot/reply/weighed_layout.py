"""A replica layout the question weighs against the one it sizes ("tensor parallel over all 4 … would TP=2 x 2
replicas be better?"): the same users on that layout, in one line beside the reply's own figures."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import rules
from bot.reply.request_pace import sequences_held
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules.fit import limit_gib
from rules.limits import fits_on, needed_gib
from rules.types import Workload


def weighed_layout_figure(question: Question, workload: Workload, kb: KnowledgeBase) -> dict[str, Any] | None:
    """{cards, replicas, gpu, users_each, fits, per_gpu_gb, limit_gb, decode_tokens_per_s, sequences_each}: the
    users split over the replicas weighed, each replica's need and per-user decode, and what a replica holds."""
    layout = question.weighed_layout
    gpu = kb.gpus.get(question.gpu or "")
    if layout is None or gpu is None or workload.task != "inference" or workload.model.arch != "decoder":
        return None
    cards, replicas = layout
    if question.gpu_count and cards * replicas != question.gpu_count:
        return None  # another machine than the one asked about: not the same cards laid out otherwise
    users = max(1, question.users or question.batch or workload.batch)
    each = replace(workload, batch=max(1, math.ceil(users / replicas)))
    fits, estimate = fits_on(each, gpu, cards)
    figure: dict[str, Any] = {"cards": cards, "replicas": replicas, "gpu": gpu.id, "users_each": each.batch,
                              "fits": fits, "per_gpu_gb": round(needed_gib(estimate), 1),
                              "limit_gb": round(limit_gib(each, gpu), 1)}
    if fits:
        figure["decode_tokens_per_s"] = round(rules.estimate_speed(each, gpu, cards).decode_tokens_per_s or 0.0, 1)
        figure["sequences_each"] = sequences_held(each, gpu, cards)
    return figure


def fewer_in_tensor_parallel(question: Question, workload: Workload, picks: list[Any],
                             kb: KnowledgeBase) -> dict[str, Any] | None:
    """{gpu, count, per_gpu_gb, replica_cards, users}: fewer of the first pick's card holding every sequence asked
    with tensor parallelism, when that pick lays the load out as one-card replicas (the priced instances), so a
    "how many" is not answered with more cards than the job needs (audit 37 M-143: 3 L20s for Phi-4 at 50
    concurrent, where 2 in TP hold it)."""
    first = picks[0] if picks else None
    gpu = kb.gpus.get(first.gpu_id) if first is not None else None
    users = question.users or question.batch
    if (first is None or gpu is None or not first.fits or not first.replicas or first.replicas < 2
            or first.count != first.replicas or workload.task != "inference" or workload.model.arch != "decoder"
            or not users):
        return None
    whole = replace(workload, batch=max(1, users))
    for cards in (n for n in rules.constants.TP_DEGREES if 1 < n < first.count):
        fits, estimate = fits_on(whole, gpu, cards)
        if fits:
            return {"gpu": gpu.id, "count": cards, "per_gpu_gb": round(needed_gib(estimate), 1),
                    "replica_cards": first.count, "users": users}
    return None
