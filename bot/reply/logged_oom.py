"""What to change when a pasted log shows the job running out of memory on cards this sizing says hold it.

The log settles the verdict (the figures sit within a few percent of the cards, where the engine's version, its
CUDA graphs and the allocator decide), so the reply says "take it as a No" and must then list what makes room:
audit 38 HIGH-116 pointed at "the changes listed" above an empty list, because alternatives are only worked out
for jobs that do not fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from knowledge.schema import GPU
from rules.alternatives import suggestions
from rules.types import FitCheck, Workload

SAVING_FRACTION = 0.05
"""A change on the same cards must save at least this share of the memory per card to count as making room: the
log shows the job over the edge by an unknown margin, and a change saving less is within the estimate's noise."""


def room_makers(workload: Workload, gpu: GPU, count: int, check: FitCheck, candidates: Sequence[GPU]) -> FitCheck:
    """`check` with the changes that free memory on the cards named (a smaller format, a shorter context, more
    cards) or move the job to a card with more of it; unchanged when it already lists some."""
    if check.suggestions or not check.fits:
        return check
    need = check.memory_per_gpu_gib
    found = [s for s in suggestions(workload, gpu, count, list(candidates))
             if (s.gpu_id not in (None, gpu.id) and s.kind == "bigger-gpu")
             or (s.memory_per_gpu_gib is not None and s.memory_per_gpu_gib <= need * (1 - SAVING_FRACTION))]
    return replace(check, suggestions=found) if found else check
