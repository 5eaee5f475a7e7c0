"""What each recommended configuration of a training job runs with, beyond its memory figure."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import rules
from bot.reply.compare_fix import with_fixes
from bot.reply.model import PickOut
from bot.reply.money_model import CostOut, ServingPlanOut
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, InstanceFamily
from rules import constants as C
from rules.fit import HourlyPrice
from rules.limits import within_one_machine
from rules.types import Pick, Workload


def with_checkpointing(picks: list[PickOut], workload: Workload, kb: KnowledgeBase) -> list[PickOut]:
    """Training picks with the gradient-checkpointing choice the rules made on each: a card that holds the job
    without it trains faster and is sized so, which is why its line can show several times the estimate above."""
    if workload.task == "inference" or workload.gradient_checkpointing is not None:
        return picks  # stated by the asker: the same on every pick
    out = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu)
        chosen = rules.estimate_memory(workload, pick.count, gpu).chosen if gpu is not None else {}
        ckpt = chosen.get("gradient_checkpointing")
        out.append(pick.model_copy(update={"gradient_checkpointing": ckpt}) if isinstance(ckpt, bool) else pick)
    return out


def compared_picks(picks: list[PickOut], question: Question, workload: Workload, kb: KnowledgeBase) -> list[PickOut]:
    """The picks as the reply shows them: each training pick's checkpointing, and for set-ups compared side by side
    the change that makes one that does not hold the job hold it."""
    picks = with_checkpointing(picks, workload, kb)
    return with_fixes(picks, workload, kb) if question.intent == "compare" else picks


def roomier_count(tight: Pick, workload: Workload, gpu: GPU, instances: Sequence[InstanceFamily],
                  priced: HourlyPrice | None) -> Pick | None:
    """The next count of the card named, within one machine of GPUS_PER_NODE cards, that holds the job clear of the
    tight band: "how many H800s" is answered with the count one would deploy, not the fewest that barely hold it
    (more machines are no answer to a tight fit)."""
    for count in (n for n in C.TP_DEGREES
                  if tight.count < n <= C.GPUS_PER_NODE and within_one_machine(gpu, n)):
        if not rules.valid_tp(workload, count):
            continue
        found = rules.pick_at(workload, gpu, count, instances, hourly_price_of=priced)
        if found is not None and found.fits and not found.tight:
            return found
    return None


def laid_out_as_plan(pick: PickOut, plan: ServingPlanOut, workload: Workload, kb: KnowledgeBase,
                     price: dict[str, object] | None) -> PickOut | None:
    """`pick` as `plan` runs the load: the plan's replicas of its replica's cards, each sized at its share of the
    sequences; `price` the bill's fields (None: unpriced). None when one replica does not hold its share."""
    gpu = kb.gpus.get(plan.gpu)
    if gpu is None or pick.gpu != plan.gpu or (pick.replicas and pick.count // pick.replicas != plan.gpus_per_replica):
        return None  # replicas of another size: the pick's own layout is not the plan's
    share = min(plan.sequences_per_replica, math.ceil(max(1, plan.concurrent_needed) / plan.replicas))
    one = rules.pick_at(replace(workload, batch=max(1, share)), gpu, plan.gpus_per_replica,
                        list(kb.instance_families.values()))
    if one is None:
        return None
    unpriced: dict[str, object] = {"price_per_hour": None, "instance": None, "instances": None, "instance_gpus": None}
    return pick.model_copy(update={
        "count": plan.replicas * plan.gpus_per_replica, "replicas": plan.replicas if plan.replicas > 1 else None,
        "memory_per_gpu_gb": round(one.memory_per_gpu_gib, 2), "headroom_gb": round(one.headroom_gib, 2),
        "free_gb": round(one.free_gib, 2), "tight": one.tight,
        "decode_tokens_per_s": plan.decode_tokens_per_s or pick.decode_tokens_per_s,
        "decode_at_load": max(1, plan.concurrent_needed) if plan.decode_tokens_per_s and plan.concurrent_needed > 1
        else None,
        "max_concurrent_sequences": plan.sequences_per_replica * plan.replicas,
        **(price if price is not None else unpriced),
    })


def held_as_planned(picks: list[PickOut], plan: ServingPlanOut | None) -> list[PickOut]:
    """The top pick on the serving plan's very cards holds the plan's sequences: the plan sizes the activations at
    that batch, where the pick's figure is the KV pool left beside one sequence's (a reply said 24 sequences on
    the pick line and 23 in the plan under it)."""
    if (not picks or plan is None or plan.gpu != picks[0].gpu or not plan.sequences_per_replica
            or plan.replicas * plan.gpus_per_replica != picks[0].count or plan.replicas != (picks[0].replicas or 1)
            or picks[0].max_concurrent_sequences is None):
        return picks
    held = plan.sequences_per_replica * plan.replicas
    return [picks[0].model_copy(update={"max_concurrent_sequences": held}), *picks[1:]]


def plan_as_top_pick(picks: list[PickOut], plan: ServingPlanOut | None, cost: CostOut | None, workload: Workload,
                     kb: KnowledgeBase) -> list[PickOut]:
    """The top pick as the serving plan under it runs the load: "how many H100s for 5 requests/s" led with
    "1× H100" while the plan needed 2 replicas (audit 18 M-1). The pick on the plan's card becomes the plan's
    replicas of its replica's cards, each sized at its share of the sequences, billed as the plan is."""
    if (not picks or plan is None or plan.replicas * plan.gpus_per_replica <= picks[0].count
            or workload.model.arch == "diffusion"):  # an image service's picks are one card each (image_service)
        return picks
    total = plan.replicas * plan.gpus_per_replica
    priced = cost is not None and cost.per_hour is not None and cost.gpu == plan.gpu and cost.count == total
    price: dict[str, object] | None = None
    if priced and cost is not None:
        price = {"price_per_hour": cost.per_hour, "price_currency": cost.currency, "instance": cost.instance,
                 "instances": cost.instances, "instance_gpus": cost.instance_gpus, "cloud": cost.cloud,
                 "region": cost.region}
    laid_out = laid_out_as_plan(picks[0], plan, workload, kb, price)
    if laid_out is None:
        return picks
    return [laid_out, *[p for p in picks[1:] if (p.gpu, p.count) != (laid_out.gpu, laid_out.count)]]
