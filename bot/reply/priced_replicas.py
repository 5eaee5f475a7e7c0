"""Replicas on the instances a cloud prices, when the set that holds the users as one has no public price.

Alibaba Cloud rents the L20 one card to a VM: two L20s in tensor parallel for 32 users have no price there, while
three one-card replicas of it, 11 users each, cost 43.89 CNY an hour. A pick left unpriced answers "what does it
cost a month" with nothing (audit 27 M-42); the replicas that a priced instance holds answer it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import rules
from bot.reply.request_pace import sequences_held
from knowledge.schema import GPU, InstanceFamily
from rules import constants as C
from rules.types import Pick, Workload

MAX_PRICED_REPLICAS = 16
"""More one-card replicas than this are a cluster to plan, not a swap for one unpriced set."""


def replicated(one: Pick, cards: int, replicas: int) -> Pick:
    """`one` replica's pick (`cards` cards) as `replicas` of it: their cards, bill and sequences in all."""
    return replace(one, count=cards * replicas, replicas=replicas,
                   price_per_hour=one.price_per_hour * replicas if one.price_per_hour is not None else None,
                   max_concurrent_sequences=(one.max_concurrent_sequences * replicas
                                             if one.max_concurrent_sequences else None))


def priced_replicas(pick: Pick, gpu: GPU, users: int, workload: Workload, instances: Sequence[InstanceFamily],
                    hourly_price_of: Callable[[GPU, int], float | None]) -> Pick | None:
    """`pick` (one set of `gpu`, unpriced) as replicas of fewer of its cards on priced instances holding `users`,
    the cheapest such layout an hour; None when the set is priced, serves one user, or no smaller set is priced."""
    if (users < 2 or (pick.replicas or 1) > 1 or not pick.fits or workload.task != "inference"
            or hourly_price_of(gpu, pick.count) is not None):
        return None
    best: tuple[float, Pick] | None = None
    for cards in (n for n in C.TP_DEGREES if n < pick.count and rules.valid_tp(workload, n)):
        hourly = hourly_price_of(gpu, cards)
        if hourly is None:
            continue
        each = sequences_held(workload, gpu, cards, users)
        if each < 1:
            continue
        replicas = math.ceil(users / each)
        if replicas > MAX_PRICED_REPLICAS:
            continue
        one = rules.pick_at(replace(workload, batch=min(each, math.ceil(users / replicas))), gpu, cards, instances,
                            hourly_price_of=hourly_price_of)
        if one is None:
            continue
        laid_out = replicated(one, cards, replicas)
        if best is None or hourly * replicas < best[0]:
            best = (hourly * replicas, laid_out)
    return best[1] if best is not None else None
