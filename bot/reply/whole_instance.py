"""A training job of a fixed size on an instance billed whole: it runs on every card the bill pays for.

AWS rents the A100 only as the 8-GPU p4d.24xlarge; a LoRA that needs one A100 would pay for eight and use one
(audit 19 M-3: ≈ 8 h and ≈ 180 USD, where data parallelism over the eight cards paid for takes about an hour and
≈ 23 USD). A job with a token count is the same work on more cards, so it is sized and timed on all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import rules
from bot.reply.pricing import PriceChoice, plan_for
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import InstanceFamily
from rules.fit import HourlyPrice, pick_at
from rules.types import Pick, Workload


def on_whole_instances(picks: Sequence[Pick], question: Question, workload: Workload, kb: KnowledgeBase,
                       choice: PriceChoice, instances: Sequence[InstanceFamily],
                       priced: HourlyPrice | None = None) -> list[Pick]:
    """Each pick of a training job, widened to the cards of the instance that prices it when that instance holds
    more (a whole multiple): the job runs data-parallel on all of them, faster for the same bill, with or without
    a token count ("how many A100 40GB to fine-tune a 70B with CPU offload": the 8-card box it is billed as, not 1
    of it; audit 24 LOW-42). A count the question states is kept, as is a pick the wider set cannot hold or one
    laid out as serving replicas."""
    if workload.task == "inference" or question.gpu_count is not None:
        return list(picks)
    out = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu_id)
        host_ram = rules.estimate_memory(workload, pick.count, gpu).host_ram_gib if gpu is not None else None
        # the instance the bill will name: one with the host RAM an offloaded job moves there (cost.py's choice)
        on = replace(choice, min_host_ram_gib=host_ram) if host_ram else choice
        plan = plan_for(kb, pick.gpu_id, pick.count, on) if gpu is not None and pick.fits else None
        if gpu is None or plan is None or pick.replicas > 1 or plan.instances != 1 or plan.gpus <= pick.count \
                or plan.gpus % pick.count:
            out.append(pick)
            continue
        wider = pick_at(workload, gpu, plan.gpus, instances, hourly_price_of=priced)
        out.append(wider if wider is not None else pick)
    return out


def widened(before: Sequence[Pick], after: Sequence[Pick]) -> bool:
    """Whether any pick now runs on more cards than it was sized at."""
    return any(wide.count > sized.count for sized, wide in zip(before, after, strict=True))
