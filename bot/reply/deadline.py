"""A training job with a deadline: enough cards to train its tokens in the time the question gives.

"How many H100 to pretrain a 7B model on 2T tokens in 30 days" asks for a count. Memory only sets the floor
(two cards hold the job); the deadline sets the count (about a hundred finish it in time). Without this, the
reply sized the job by memory and then said it would take 1,655 days.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rules
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, InstanceFamily
from rules.constants import GPUS_PER_NODE
from rules.fit import as_chosen
from rules.search import smallest_true
from rules.types import Pick, Workload

DEADLINE_MAX_GPUS = 32_768
"""The most cards a deadline may call for: past the 1,024 a question may state, since pretraining on trillions
of tokens in weeks takes thousands (Llama 3 405B: 16,384 H100s, Meta's Llama 3 paper, 2024)."""


def _needed_hours(workload: Workload, gpu: GPU, n: int, tokens: float) -> float | None:
    timed = as_chosen(workload, rules.estimate_memory(workload, n, gpu).chosen)
    return rules.training_hours(timed, gpu, n, tokens)


def deadline_count(workload: Workload, gpu: GPU, floor: int, tokens: float, hours: float) -> int | None:
    """The fewest cards, at least `floor` (1, 2, 4 inside a node, then whole nodes), that train `tokens` within
    `hours` in the set-up the memory rules choose at that count (ZeRO stage, checkpointing: the one the reply
    then shows); None when no count up to DEADLINE_MAX_GPUS does. More cards never take longer, so whole nodes
    are searched by doubling, then halving."""
    for n in (1, 2, 4):
        if n >= floor:
            needed = _needed_hours(workload, gpu, n, tokens)
            if needed is None:
                return None  # no throughput figure: no count can be shown to meet it
            if needed <= hours:
                return n
    node = GPUS_PER_NODE
    low = max(1, -(-floor // node))  # whole nodes
    high = low
    while True:
        needed = _needed_hours(workload, gpu, high * node, tokens)
        if needed is None:
            return None
        if needed <= hours:
            break
        if high * node >= DEADLINE_MAX_GPUS:
            return None
        low, high = high + 1, min(high * 2, DEADLINE_MAX_GPUS // node)

    def in_time(nodes: int) -> bool:
        needed = _needed_hours(workload, gpu, nodes * node, tokens)
        return needed is not None and needed <= hours

    return (smallest_true(in_time, low, high) or high) * node


ASSUMED_DEADLINE_AFTER_HOURS = 90 * 24.0
"""Past this many hours on the fewest cards that hold it (a quarter), a training job with no deadline is sized to
finish within ASSUMED_DEADLINE_HOURS: "训练一个 7B 模型 1T token 要多少张 H800 多少天" was headlined by 2 cards and 2.2
years (audit 29 LOW-106), a plan nobody runs, with the month's plan a footnote."""
ASSUMED_DEADLINE_HOURS = 30 * 24.0


def assumed_deadline(picks: Sequence[Pick], workload: Workload, question: Question,
                     kb: KnowledgeBase) -> tuple[float, float] | None:
    """(the deadline assumed, the hours on the first fitting pick as memory sized it) when a full training job with
    its tokens, no deadline and no count stated would take longer than ASSUMED_DEADLINE_AFTER_HOURS there."""
    if workload.task != "train" or not question.tokens or question.hours or question.gpu_count is not None:
        return None  # a fine-tune's months on few cards keep the month's plan beside them (job_hours)
    first = next((p for p in picks if p.fits), None)
    gpu = kb.gpus.get(first.gpu_id) if first is not None else None
    if first is None or gpu is None:
        return None
    hours = _needed_hours(workload, gpu, first.count, question.tokens)
    if hours is None or hours <= ASSUMED_DEADLINE_AFTER_HOURS:
        return None
    return ASSUMED_DEADLINE_HOURS, hours


FAR_BEHIND = 4
"""A deadline's pick that takes more than this many times the cards of the first is no alternative to offer:
688 V100s or 456 PCIe H100s beside 32 H800s for the same month (audit 30 LOW-137), their per-card speed lost to
the fabric between them."""


def within_reach(picks: Sequence[Pick]) -> list[Pick]:
    """`picks` without those a deadline laid out on more than FAR_BEHIND times the first fitting pick's cards."""
    first = next((p for p in picks if p.fits), None)
    if first is None:
        return list(picks)
    return [p for p in picks if p is first or not p.fits or p.count <= FAR_BEHIND * first.count]


def meet_deadline(picks: Sequence[Pick], workload: Workload, question: Question, kb: KnowledgeBase,
                  instances: Sequence[InstanceFamily],
                  hourly_price_of: Callable[[GPU, int], float | None]) -> list[Pick]:
    """Each fitting pick at the count that meets the question's deadline (training with its tokens and hours,
    no count stated); picks that cannot meet it keep the count memory needs, and the time figures say so."""
    if (workload.task == "inference" or not question.tokens or not question.hours
            or question.gpu_count is not None):
        return list(picks)
    out: list[Pick] = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu_id)
        n = deadline_count(workload, gpu, pick.count, question.tokens, question.hours) \
            if gpu is not None and pick.fits else None
        if gpu is None or n is None or n == pick.count:
            out.append(pick)
            continue
        out.append(rules.pick_at(workload, gpu, n, instances, hourly_price_of=hourly_price_of) or pick)
    return out
