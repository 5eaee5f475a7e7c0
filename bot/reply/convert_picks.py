"""What each recommended configuration of a training job runs with, beyond its memory figure."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.reply.compare_fix import with_fixes
from bot.reply.model import PickOut
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
