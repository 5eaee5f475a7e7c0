"""The picks of a comparison of cards ("A10 vs L4", "4x L40S vs 2x H100", "哪个更便宜" among a thread's cards)."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.reply.compare_fix import as_sized_in_thread
from bot.reply.model import Assumption
from bot.reply.pool import as_candidate
from bot.reply.priced_replicas import priced_replicas
from bot.reply.serving import users_of
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, InstanceFamily
from rules.fit import HourlyPrice
from rules.types import Pick, Workload


def compared_picks_of(question: Question, workload: Workload, kb: KnowledgeBase, instances: Sequence[InstanceFamily],
                      max_count: int, priced: HourlyPrice,
                      assumptions: list[Assumption]) -> tuple[list[GPU], list[Pick]]:
    """The cards compared (the pool) and one pick of each: at the count written for it, else the fewest that hold
    the job, in the order named, fitting or not; priced as the replicas that carry the load where only a smaller
    machine of the card is rented."""
    pool = [as_candidate(kb.gpus[g]) for g in question.compare_gpus if g in kb.gpus]
    if question.compare_counts:
        # "4x L40S vs 2x H100": each set-up as written (a card without a count at the fewest that hold it),
        # in the order named, fitting or not
        picks = [pick for card in pool for pick in rules.rank_picks(
            workload, [card], instances, limit=1, budget=question.budget,
            max_count=max(max_count, question.compare_counts.get(card.id, 0)),
            fixed_count=question.compare_counts.get(card.id), hourly_price_of=priced)]
        if question.compare_as_sized:
            picks = as_sized_in_thread(picks, workload, kb, instances, max_count, priced, assumptions)
    else:
        picks = rules.rank_picks(workload, pool, instances, limit=len(pool), budget=question.budget,
                                 max_count=max_count, hourly_price_of=priced)
    if question.asks_cost or question.budget or question.hours:
        # a set no machine rents whole is compared as the priced one-card (or smaller) replicas that carry the
        # same users: "L20 vs H20 on Alibaba, each a month?" had no L20 figure (audit 27 M-42), nor the thread's
        # "换成两张 L20 呢 … 哪个更便宜" (audit 28, J02)
        picks = [priced_replicas(p, kb.gpus[p.gpu_id], users_of(question), workload, instances, priced) or p
                 if p.gpu_id in kb.gpus else p for p in picks]
    return pool, picks


__all__ = ["compared_picks_of"]
