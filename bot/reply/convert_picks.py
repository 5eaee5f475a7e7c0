"""What each recommended configuration of a training job runs with, beyond its memory figure."""

from __future__ import annotations

import rules
from bot.reply.compare_fix import with_fixes
from bot.reply.model import PickOut
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules.types import Workload


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
