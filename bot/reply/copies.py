"""How many copies of the model one card holds at once, each in its own process.

"一张 A100 80G 能同时跑几个 7B 模型" asks for a count of processes; the check alone said "Yes: 14.7 GiB" and left
the count to the reader (audit 29 M-68). Each extra process costs its own CUDA context beside its weights, cache
and working memory (the card's usable memory already counts the first one's), and each copy holds only its own
sequences: one engine given the memory instead serves more users, which the line says.
"""

from __future__ import annotations

import math
from typing import Any

from bot.reply.formatting import gb
from bot.reply.i18n import Translator
from bot.reply.model import Answer, CheckOut
from bot.understand.question import Question
from rules import constants as C

GIB_PER_GB = 1024**3 / 1e9


def copies_figure(question: Question, check: CheckOut | None, context: int, engine: str | None
                  ) -> dict[str, Any] | None:
    """{copies, per_copy_gb, total_gb, limit_gb, context, share, engine} for copies asked of one card; None when
    not asked, on several cards or a mixed set, or when not even one copy fits."""
    if not question.asks_copies or check is None or check.count != 1 or check.cards or not check.fits:
        return None
    need, limit = check.memory_per_gpu_gb, check.limit_gb or check.gpu_memory_gb / GIB_PER_GB
    copies = max(1, math.floor((limit + C.CUDA_CONTEXT_GIB) / (need + C.CUDA_CONTEXT_GIB)))
    card_gib = check.gpu_memory_gb / GIB_PER_GB
    return {"copies": copies, "per_copy_gb": round(need, 2),
            "total_gb": round(copies * need + (copies - 1) * C.CUDA_CONTEXT_GIB, 2), "limit_gb": round(limit, 2),
            "context": context, "engine": engine,
            # what each process may reserve when the engine reserves a share of the card (vLLM, SGLang)
            "share": math.floor(100 / copies) / 100 if engine in ("vllm", "sglang") else None,
            "share_needed": math.ceil((need + C.CUDA_CONTEXT_GIB) / card_gib * 100) / 100}


def copies_line(answer: Answer, t: Translator) -> str:
    """The count in one line, with the sum that gives it and what each copy then serves."""
    figure = answer.copies_at_once
    if not figure:
        return ""
    copies = int(figure["copies"])
    if copies == 1:
        return t("copies_one", gb=gb(figure["per_copy_gb"]), second=gb(2 * figure["per_copy_gb"]
                                                                        + C.CUDA_CONTEXT_GIB),
                 limit=gb(figure["limit_gb"]))
    line = t("copies_many", n=copies, gb=gb(figure["per_copy_gb"]), others=copies - 1,
             extra=gb((copies - 1) * C.CUDA_CONTEXT_GIB), total=gb(figure["total_gb"]), limit=gb(figure["limit_gb"]),
             context=f"{figure['context']:,}")
    if figure.get("share"):
        line += t.sentence_gap + t("copies_share", share=f"{figure['share']:.2f}",
                                   needed=f"{figure['share_needed']:.2f}")
    return line


__all__ = ["copies_figure", "copies_line"]
