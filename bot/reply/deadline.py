"""A training job with a deadline: enough cards to train its tokens in the time the question gives.

"How many H100 to pretrain a 7B model on 2T tokens in 30 days" asks for a count. Memory only sets the floor
(two cards hold the job); the deadline sets the count (about a hundred finish it in time). Without this, the
reply sized the job by memory and then said it would take 1,655 days.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import rules
from bot.reply.defaults import as_chosen
from bot.understand.question import MAX_GPU_COUNT, Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, InstanceFamily
from rules.constants import GPUS_PER_NODE
from rules.types import Pick, Workload


def _counts(floor: int) -> Iterator[int]:
    """Card counts from `floor` up: 1, 2, 4 inside a node, then whole nodes."""
    for n in (1, 2, 4):
        if n >= floor:
            yield n
    first_node = max(GPUS_PER_NODE, -(-floor // GPUS_PER_NODE) * GPUS_PER_NODE)
    yield from range(first_node, MAX_GPU_COUNT + 1, GPUS_PER_NODE)


def deadline_count(workload: Workload, gpu: GPU, floor: int, tokens: float, hours: float) -> int | None:
    """The fewest cards, at least `floor`, that train `tokens` within `hours` in the set-up the memory rules
    choose at that count (ZeRO stage, checkpointing: the one the reply then shows); None when no count up to
    the largest the question model accepts does."""
    for n in _counts(floor):
        timed = as_chosen(workload, rules.estimate_memory(workload, n, gpu).chosen)
        needed = rules.training_hours(timed, gpu, n, tokens)
        if needed is None:
            return None  # no throughput figure: no count can be shown to meet it
        if needed <= hours:
            return n
    return None


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
