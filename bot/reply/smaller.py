"""The smaller models a model's makers released in the same line (DeepSeek-R1's distills), for a card that cannot
hold the model asked about: "can my 8 GB laptop run deepseek-r1?" is No for the 671B model and Yes for the
distills people actually run on it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.reply.defaults import workload_for
from bot.reply.model import CheckOut
from bot.reply.ollama_defaults import machine_vram_gib
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules.alternatives import HOME_GGUF_QUANT, home_gguf_workload
from rules.limits import fits_on, needed_gib
from rules.types import Pick, Workload

SMALLER_VERSIONS_AT = 2.0
"""The smaller versions are offered when the model needs more than this many times what the card gives it: out of
reach (671B on an 8 GB laptop), not a few GiB short, where more cards or a quantisation are the answer."""
MAX_SMALLER_SHOWN = 3
"""The largest few that fit: a Slack reader compares three options."""


def _fitting(workload: Workload, gpu: GPU, count: int) -> tuple[Workload, float] | None:
    """The workload as the question's defaults give it, else as a Q4_K_M GGUF on llama.cpp (the file people run a
    model one size too big with at home), with what it needs per card, when that fits `count` × `gpu`."""
    tries = [workload]
    if workload.model.arch == "decoder" and workload.quant != HOME_GGUF_QUANT:
        tries.append(home_gguf_workload(replace(workload, engine_version=None)))
    for candidate in tries:
        ok, estimate = fits_on(candidate, gpu, count)
        if ok:
            return candidate, needed_gib(estimate)
    return None


def smaller_versions_figure(question: Question, model_id: str, gpu: GPU | None, count: int,
                            kb: KnowledgeBase) -> list[dict[str, Any]]:
    """The largest smaller versions of `model_id` that fit the card asked about, each in the format that fits
    (its own release's precision, else Q4_K_M), with their need per card; [] when none is listed or none fits."""
    model = kb.models.get(model_id)
    if model is None or gpu is None or not model.smaller_versions:
        return []
    found: list[dict[str, Any]] = []
    for smaller_id in model.smaller_versions:
        smaller = kb.models.get(smaller_id)
        if smaller is None:
            continue
        # the question's own format ("Q4_K_M") carries over; unstated, each model's release precision applies
        workload, _ = workload_for(question, smaller, gpu, machine_vram_gib(question, gpu, None))
        fit = _fitting(workload, gpu, count)
        if fit is not None:
            found.append({"model": smaller_id, "params_b": smaller.params_b, "precision": fit[0].precision,
                          "quant": fit[0].quant, "engine": fit[0].engine, "per_gpu_gb": round(fit[1], 2),
                          "gpu": gpu.id, "count": count})
    found.sort(key=lambda f: -float(f["params_b"]))
    return found[:MAX_SMALLER_SHOWN]


def smaller_for(question: Question, model_id: str, gpu: GPU | None, count: int, check: CheckOut | None,
                picks: list[Pick], kb: KnowledgeBase) -> list[dict[str, Any]]:
    """The smaller versions for the card asked about when the model needs over SMALLER_VERSIONS_AT times what it
    gives; with no card asked about and no pick that holds the model ("消费级显卡跑 DeepSeek-R1"), for one of the
    card that came closest."""
    if check is not None:
        far = check.memory_per_gpu_gb > SMALLER_VERSIONS_AT * check.limit_gb
        return smaller_versions_figure(question, model_id, gpu, count, kb) if far else []
    if gpu is None and picks and not any(pick.fits for pick in picks):
        return smaller_versions_figure(question, model_id, kb.gpus.get(picks[0].gpu_id), 1, kb)
    return []
