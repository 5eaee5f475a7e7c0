"""A reasoning model sized at a default context far shorter than the thinking it does.

"DeepSeek-R1-Distill-Llama-70B 要幾張 H100 才能跑 64 人同時使用" was sized at the 4,096-token default with no word
that its replies run to thousands of tokens of chain of thought (audit 29 LOW-116): the KV cache at a realistic
length is several times the one shown. With no length stated, the reply says what its makers evaluate it at
(`details.reasoning_generation_tokens`, from their model cards) and what the same cards need there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.reply.formatting import gb, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules.limits import fits_on, needed_gib
from rules.types import Workload


def reasoning_length_figure(question: Question, workload: Workload, gpu: GPU | None,
                            count: int) -> dict[str, Any] | None:
    """{tokens, gpu, count, per_gpu_gb, fits} for the job at its makers' generation length on the cards sized,
    when a reasoning model is served with no length stated; None otherwise."""
    tokens = workload.model.details.get("reasoning_generation_tokens")
    if (not isinstance(tokens, int) or gpu is None or workload.task != "inference" or "context" in question.stated
            or tokens <= workload.context):
        return None
    window = workload.model.max_context
    length = min(tokens, window) if window else tokens
    fits, estimate = fits_on(replace(workload, context=length), gpu, count)
    return {"tokens": tokens, "context": length, "gpu": gpu.id, "count": count,
            "per_gpu_gb": round(needed_gib(estimate), 1), "fits": fits}


def reasoning_length_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    figure = answer.reasoning_length
    model = kb.models.get(answer.query.model or "")
    if not figure or model is None:
        return ""
    return t("reasoning_length_fits" if figure["fits"] else "reasoning_length_no", model=model.name,
             tokens=f"{figure['tokens']:,}", sized=f"{answer.query.context or 0:,}", context=f"{figure['context']:,}",
             cards=f"{figure['count']}× {gpu_name(kb, figure['gpu'])}", gb=gb(figure["per_gpu_gb"]))


__all__ = ["reasoning_length_figure", "reasoning_length_line"]
