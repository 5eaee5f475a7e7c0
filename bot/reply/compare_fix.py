"""Set-ups compared side by side that do not hold the job as asked: the change that makes each one hold it.

"2x L40S, or should we push for 2x H100 PCIe?" is a buying decision; "2× L40S does not fit" without "it does
with FP8 weights and an FP8 KV cache" leaves out the answer a buyer weighs against the dearer cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.reply.convert import suggestion_out
from bot.reply.model import Assumption, PickOut
from knowledge.base import KnowledgeBase
from knowledge.schema import InstanceFamily
from rules.alternatives import suggestions
from rules.fit import HourlyPrice
from rules.types import Pick, Workload

SAME_CARDS = ("quantise", "kv-cache", "other-format", "fewer-requests", "engine-build", "smaller-batch",
              "checkpointing", "optimizer-8bit", "qlora", "zero3", "offload-optimizer", "shorter-context",
              "flash-attention")
"""Changes that keep the cards compared: a fix offering other cards (or more of them) changes the comparison."""


def with_fixes(picks: list[PickOut], workload: Workload, kb: KnowledgeBase) -> list[PickOut]:
    """Each compared set-up that does not hold the job, with the first same-cards change that makes it hold it."""
    out = []
    for pick in picks:
        card = kb.gpus.get(pick.gpu)
        if pick.fits or card is None:
            out.append(pick)
            continue
        found = next((s for s in suggestions(workload, card, pick.count, [card]) if s.kind in SAME_CARDS), None)
        out.append(pick.model_copy(update={"fix": suggestion_out(found)}) if found is not None else pick)
    return out


def as_sized_in_thread(picks: list[Pick], workload: Workload, kb: KnowledgeBase, instances: Sequence[InstanceFamily],
                       max_count: int, hourly_price_of: HourlyPrice, assumptions: list[Assumption]) -> list[Pick]:
    """The thread's set-ups chosen among ("which is cheaper per month?"), each that does not hold the job at the
    count its turn asked taken at the fewest of its card that do, as that turn's reply recommended: 4× L40S and
    2× H100 were compared as asked, and "none of these holds the job" answered a choice between the 8 L40S and 4
    H100 the thread had been shown (audit 26 M-35)."""
    out: list[Pick] = []
    for pick in picks:
        card = kb.gpus.get(pick.gpu_id)
        if pick.fits or card is None:
            out.append(pick)
            continue
        held = next((p for p in rules.rank_picks(workload, [card], instances, limit=1, max_count=max_count,
                                                 hourly_price_of=hourly_price_of) if p.fits), None)
        if held is None:
            out.append(pick)
            continue
        out.append(held)
        assumptions.append(Assumption(field="gpu_count", value=f"{held.count}× {card.name}",
                                      reason="thread-set-as-sized"))
    return out
