"""A bare card name on a named cloud ("a Lambda A100") is the variant that cloud rents cheapest for the job.

"A100" reads as the 80 GB card by default; but Lambda rents the 80 GB A100 only as a whole 8-GPU machine and
the 40 GB one alone, so a job that needs 11 GiB on "a Lambda A100" priced on the 8-GPU machine costs eleven
times what the user will pay (audit 18 H-2). With a cloud named, each variant the name may mean that holds the
job at the count asked is priced there, and the cheapest an hour is the card sized; the reply says so.
"""

from __future__ import annotations

import rules
from bot.reply.defaults import RENTED_VARIANT_NOTE
from bot.reply.pricing import plan_for, price_choice
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules.types import Workload


def rented_variant(question: Question, workload: Workload, kb: KnowledgeBase) -> Question | None:
    """The question with the variant the named cloud rents cheapest that holds the job, when that is not the
    default the name was read as; None otherwise (no cloud, one variant, or the default is already cheapest)."""
    if (not question.gpu_defaulted or not question.cloud or len(question.gpu_variants) < 2
            or RENTED_VARIANT_NOTE in question.notes or question.gpu not in question.gpu_variants):
        return None
    count = question.gpu_count or 1
    instances = list(kb.instance_families.values())
    choice = price_choice(question)
    priced: list[tuple[float, int, str]] = []
    for order, gpu_id in enumerate(question.gpu_variants):
        gpu = kb.gpus.get(gpu_id)
        if gpu is None or not rules.check_fit(workload, gpu, count, instances).fits:
            continue
        plan = plan_for(kb, gpu_id, count, choice)
        if plan is not None and plan.currency == choice.currency:
            priced.append((plan.per_hour, order, gpu_id))
    if not priced:
        return None
    cheapest = min(priced)[2]
    if cheapest == question.gpu:
        return None
    return question.model_copy(update={"gpu": cheapest, "notes": [*question.notes, RENTED_VARIANT_NOTE]})
