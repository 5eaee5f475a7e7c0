"""Fewer of the cards asked about would hold the job: said beside a Yes.

"Qwen3-235B-A22B fp8 … and on MI300X?" was checked on the thread's 8 cards (34 GiB used of 187 each) with no word
that two hold it (audit 33 M-121); a buyer weighing the cards needs that count, and the others then add KV-cache
room and throughput rather than make the job fit.
"""

from __future__ import annotations

from knowledge.schema import GPU
from rules.limits import fits_on, is_tight, limit_gib, needed_gib, valid_tp
from rules.types import Workload

FEWER_COUNTS = (1, 2, 4)
"""The counts tried below the one asked, smallest first: one card, then tensor-parallel pairs and fours."""


def fewest_holding(workload: Workload, gpu: GPU, count: int) -> tuple[int, float] | None:
    """(the fewest of `gpu` below `count` that hold the job, their per-card need in GiB), or None."""
    if count <= 1:
        return None
    _, asked = fits_on(workload, gpu, count)
    for fewer in FEWER_COUNTS:
        if fewer >= count or not valid_tp(workload, fewer):
            continue
        fits, estimate = fits_on(workload, gpu, fewer)
        need = needed_gib(estimate)
        if not fits or is_tight(need, limit_gib(workload, gpu)):
            continue  # "already hold it" of a set with 3% left is no plan (audit 38 LOW-212)
        if estimate.chosen.get("gradient_checkpointing") and not asked.chosen.get("gradient_checkpointing"):
            continue  # they hold it only by recomputing activations, a slower job than the one sized
        return fewer, need
    return None


__all__ = ["fewest_holding"]
