"""Fewer of the cards asked about would hold the job: said beside a Yes.

"Qwen3-235B-A22B fp8 … and on MI300X?" was checked on the thread's 8 cards (34 GiB used of 187 each) with no word
that two hold it (audit 33 M-121); a buyer weighing the cards needs that count, and the others then add KV-cache
room and throughput rather than make the job fit.
"""

from __future__ import annotations

from knowledge.schema import GPU
from rules.limits import fits_on, needed_gib, valid_tp
from rules.types import Workload

FEWER_COUNTS = (1, 2, 4)
"""The counts tried below the one asked, smallest first: one card, then tensor-parallel pairs and fours."""


def fewest_holding(workload: Workload, gpu: GPU, count: int) -> tuple[int, float] | None:
    """(the fewest of `gpu` below `count` that hold the job, their per-card need in GiB), or None."""
    if count <= 1:
        return None
    for fewer in FEWER_COUNTS:
        if fewer >= count or not valid_tp(workload, fewer):
            continue
        fits, estimate = fits_on(workload, gpu, fewer)
        if fits:
            return fewer, needed_gib(estimate)
    return None


__all__ = ["fewest_holding"]
