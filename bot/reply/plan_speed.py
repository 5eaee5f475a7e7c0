"""The speed line timed on the set-up the serving plan made the first pick.

"need TTFT under 2 s for 32k prompts … how many H100s?": memory sized 2 cards, the plan found 4 meet the target
and the first pick became the 4, but the speed line still timed the 2 (first token 3.1 s under a pick whose own
plan says 1.55 s; audit 29 LOW-115). The line is timed again where the pick changed to more of the same card.
"""

from __future__ import annotations

import rules
from bot.reply.model import Answer, ConfigRef
from bot.reply.side_figures import token_speed
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules.fit import as_chosen
from rules.types import Workload


def timed_as_planned(result: Answer, question: Question, workload: Workload, kb: KnowledgeBase) -> None:
    """Re-time `result.speed` on the first pick when the serving plan laid it out as more of the card timed, one
    copy on all of them; unchanged otherwise."""
    top, timed_on = (result.picks[0] if result.picks else None), result.speed_on
    if (top is None or timed_on is None or result.check is not None or workload.task != "inference"
            or result.serving is None or top.gpu != timed_on.gpu or top.count <= timed_on.count
            or (top.replicas or 1) > 1 or "decode_tokens_per_s" not in result.speed):
        return
    gpu = kb.gpus.get(top.gpu)
    if gpu is None:
        return
    timed = as_chosen(workload, rules.estimate_memory(workload, top.count, gpu).chosen)
    result.speed.update(token_speed(question, timed, gpu, top.count))
    result.speed_on = ConfigRef(gpu=gpu.id, count=top.count)


__all__ = ["timed_as_planned"]
