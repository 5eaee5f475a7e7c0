""""Cheapest", "budget", "性价比": the cheapest way includes quantised weights and smaller cards.

Serving a 32B model in bf16 on two 48 GB cards is not the cheapest way when a 4-bit checkpoint runs on one
24 GB card. When the question asks for the cheapest option and states no precision, the released precision,
8-bit and 4-bit weights are each ranked over the same cards, and the variant whose best configuration costs
least per hour wins (ties keep the higher precision); the reply states the quality trade-off in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import rules
from bot.reply.model import Assumption
from bot.understand.question import Question
from knowledge.schema import GPU, InstanceFamily
from rules.fit import pick_cost
from rules.types import Precision, Workload

QUANTISED_VARIANTS: tuple[tuple[Precision, str, str], ...] = (
    ("int8", "gptq-int8", "gguf-q8_0"),
    ("int4", "awq", "gguf-q4_k_m"),
)
"""(precision, format on GPU serving engines, format on llama.cpp): the checkpoints people serve cheaply."""


def _best_cost(workload: Workload, pool: Sequence[GPU], instances: Sequence[InstanceFamily],
               max_count: int) -> float | None:
    picks = rules.rank_picks(workload, pool, instances, limit=1, budget=True, max_count=max_count)
    if not picks or not picks[0].fits:
        return None
    gpu = next(g for g in pool if g.id == picks[0].gpu_id)
    return pick_cost(picks[0], gpu)


def cheapest_variant(question: Question, workload: Workload, pool: Sequence[GPU],
                     instances: Sequence[InstanceFamily], max_count: int) -> tuple[Workload, Assumption | None]:
    """The workload at the precision that serves it cheapest, and the assumption that says so."""
    if (not question.budget or workload.task != "inference" or question.precision or question.quant
            or workload.model.arch != "decoder" or workload.precision in ("int4", "mxfp4")):
        return workload, None
    best = _best_cost(workload, pool, instances, max_count)
    chosen = workload
    for precision, quant, gguf in QUANTISED_VARIANTS:
        if precision == "int8" and workload.precision == "fp8":
            continue  # an FP8 release is already one byte per weight
        variant = replace(workload, precision=precision, quant=gguf if workload.engine == "llama.cpp" else quant)
        cost = _best_cost(variant, pool, instances, max_count)
        if cost is not None and (best is None or cost < best):
            best, chosen = cost, variant
    if chosen is workload:
        return workload, None
    note = Assumption(field="precision", value=f"{chosen.precision} ({chosen.quant})", reason="budget-quantised")
    return chosen, note
