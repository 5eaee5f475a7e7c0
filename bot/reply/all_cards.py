"""All the cards of a box, weighed beside the part a job runs on.

"vLLM on 2 of the 4 L40S of our g6e.12xlarge … would using all 4 GPUs of the box be the better fix?": the reply
answered the two cards and left the four unweighed (audit 28 M-49), though the box is billed whole either way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.reply.formatting import gb, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.reply.request_pace import sequences_held
from bot.understand.question import Question
from bot.understand.slots.sizes import OTHER_COUNT_ASKED_NOTE
from knowledge.base import KnowledgeBase
from rules.limits import fits_on, needed_gib
from rules.types import Workload


def all_cards_figure(question: Question, workload: Workload, kb: KnowledgeBase) -> dict[str, Any] | None:
    """{count, gpu, fits, per_gpu_gb, held, held_now, length, starts} for the job on all the box's cards: whether
    it fits, the sequences of the asked length they hold (and the part asked about holds), and whether the engine's
    length flag starts there."""
    gpu = kb.gpus.get(question.gpu or "")
    count, now = question.other_gpu_count, question.gpu_count
    if gpu is None or count is None or now is None or workload.task != "inference":
        return None
    fits, estimate = fits_on(workload, gpu, count)
    figure: dict[str, Any] = {"count": count, "gpu": gpu.id, "fits": fits,
                              "per_gpu_gb": round(needed_gib(estimate), 2), "context": workload.context,
                              "held": sequences_held(workload, gpu, count),
                              "held_now": sequences_held(workload, gpu, now),
                              "asked": OTHER_COUNT_ASKED_NOTE in question.notes, "now": now}
    length = question.engine_max_len
    if length and length > workload.context:
        figure.update(length=length, starts=sequences_held(replace(workload, context=length, batch=1), gpu, count,
                                                           1) >= 1)
    return figure


def all_cards_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The job on all the box's cards, in one line."""
    figure = answer.all_cards
    if not figure:
        return ""
    cards = f"{figure['count']}× {gpu_name(kb, figure['gpu'])}"
    # a second count asked ("两张呢？") is said as that count, not as all the cards of a box (audit 38 M-147)
    prefix = "other_count" if figure.get("asked") else "all_cards"
    if not figure["fits"]:
        return t(f"{prefix}_no", cards=cards, gb=gb(figure["per_gpu_gb"]))
    line = t(f"{prefix}_yes", cards=cards, gb=gb(figure["per_gpu_gb"]), held=f"{figure['held']:,}",
             context=f"{figure['context']:,}", now=f"{figure['held_now']:,}",
             now_cards=f"{figure.get('now') or 1}× {gpu_name(kb, figure['gpu'])}")
    if figure.get("length"):
        line += t.sentence_gap + t("all_cards_length_starts" if figure["starts"] else "all_cards_length_fails",
                                   length=f"{figure['length']:,}")
    return line
