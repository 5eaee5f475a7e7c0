"""One more of the card named, when llama.cpp leaves layers in system RAM on the cards asked about.

"2x 3090 + 64gb ram … is it gona be fast enuf for chatting or do i need a 3rd card": the reply gave the ceiling of
the split (≈ 8 tok/s with 10 layers in RAM) but not what a third card does (audit 28 M-50). With every layer on
the cards a token never waits on system RAM, which is what the asker weighs against buying the card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import rules
from bot.reply.convert import finite
from knowledge.schema import GPU
from rules.constants import GPUS_PER_NODE
from rules.limits import fits_on
from rules.types import Workload


def one_more_card(workload: Workload, gpu: GPU, count: int, host_ram_gb: float | None) -> dict[str, Any]:
    """`one_more_card_count` and its one-sequence decode when `count` + 1 of `gpu` hold every layer; {} where
    nothing is left in RAM, the engine does not leave layers there, or one more card still does not hold them."""
    if not host_ram_gb or workload.engine != "llama.cpp" or count + 1 > GPUS_PER_NODE or workload.task != "inference":
        return {}
    more = replace(workload, gpu_layers=None, cpu_moe_layers=None)
    fits, estimate = fits_on(more, gpu, count + 1)
    if not fits or estimate.host_ram_gib or not rules.bandwidth_known(gpu):
        return {}
    decode = rules.estimate_speed(replace(more, batch=1), gpu, count + 1).decode_tokens_per_s
    if not decode:
        return {}
    return {"one_more_card_count": float(count + 1), "one_more_card_tokens_per_s": finite(decode, 1)}
