"""Memory with and without gradient checkpointing, when both are asked ("开启与关闭梯度检查点各需要多少显存",
"with and without gradient checkpointing").

The question weighs the two; sized at one of them, the other figure was missing (audit 39 M-153: only the "off"
figure, 68.8 GiB a card, was given where "on" needs 31.8). The job is sized with checkpointing on (the setting a
long-sequence fine-tune runs with) and the other setting's need is said beside it, by the same rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.reply.formatting import gb, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.understand.question import Question
from bot.understand.slots.training import CHECKPOINTING_BOTH_NOTE
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules.limits import fits_on, needed_gib
from rules.types import Workload


def other_checkpointing_figure(question: Question, workload: Workload, gpu: GPU | None,
                               count: int) -> dict[str, Any] | None:
    """{on, per_gpu_gb, activations_gb, fits, gpu, count}: the job with gradient checkpointing switched the other
    way, on the cards sized; None unless both settings are asked about a training job."""
    if CHECKPOINTING_BOTH_NOTE not in question.notes or workload.task == "inference" or gpu is None:
        return None
    other = replace(workload, gradient_checkpointing=not bool(workload.gradient_checkpointing))
    fits, estimate = fits_on(other, gpu, count)
    return {"on": bool(other.gradient_checkpointing), "per_gpu_gb": round(needed_gib(estimate), 1),
            "activations_gb": round(estimate.breakdown.get("activations", 0.0), 1), "fits": fits,
            "gpu": gpu.id, "count": count}


def other_checkpointing_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The other setting's need per card, and whether the cards hold it."""
    other = answer.other_checkpointing
    if not other:
        return ""
    key = "checkpointing_other_on" if other["on"] else "checkpointing_other_off"
    return t(key, gb=gb(other["per_gpu_gb"]), act=gb(other["activations_gb"]),
             cards=f"{other['count']}× {gpu_name(kb, other['gpu'])}",
             verdict=t("other_stage_fits" if other["fits"] else "other_stage_short"))


__all__ = ["other_checkpointing_figure", "other_checkpointing_line"]
