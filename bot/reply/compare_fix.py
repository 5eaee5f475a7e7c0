"""Set-ups compared side by side that do not hold the job as asked: the change that makes each one hold it.

"2x L40S, or should we push for 2x H100 PCIe?" is a buying decision; "2× L40S does not fit" without "it does
with FP8 weights and an FP8 KV cache" leaves out the answer a buyer weighs against the dearer cards.
"""

from __future__ import annotations

from bot.reply.convert import suggestion_out
from bot.reply.model import PickOut
from knowledge.base import KnowledgeBase
from rules.alternatives import suggestions
from rules.types import Workload

SAME_CARDS = ("quantise", "kv-cache", "other-format", "fewer-requests", "smaller-batch", "checkpointing",
              "optimizer-8bit", "qlora", "zero3", "offload-optimizer", "shorter-context", "flash-attention")
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
