"""One more of the card named, when llama.cpp leaves layers in system RAM on the cards asked about.

"2x 3090 + 64gb ram … is it gona be fast enuf for chatting or do i need a 3rd card": the reply gave the ceiling of
the split (≈ 8 tok/s with 10 layers in RAM) but not what a third card does (audit 28 M-50). With every layer on
the cards a token never waits on system RAM, which is what the asker weighs against buying the card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import rules
from bot.reply.check_view import routed_share, split_decode_ceiling
from bot.reply.convert import finite
from bot.reply.model import REFERENCE_RAM
from knowledge.schema import GPU
from rules.constants import GPUS_PER_NODE
from rules.limits import fits_on
from rules.search import smallest_true
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


def _split_ceiling(workload: Workload, gpu: GPU, count: int, ram_gbps: float) -> float | None:
    """One conversation's decode ceiling with the experts of `workload.cpu_moe_layers` layers in system RAM: the
    RAM's read and then the cards', in turn (bot.reply.check_view.split_decode_ceiling, as the reply's own line)."""
    estimate = fits_on(workload, gpu, count)[1]
    host = estimate.chosen.get("host_read_gib_per_token")
    if not isinstance(host, (int, float)) or not host:
        return None
    card = (estimate.breakdown.get("weights", 0.0) * routed_share(workload.model)
            + estimate.breakdown.get("kv_cache", 0.0)) * max(count, 1)
    return split_decode_ceiling(float(host), card, gpu.bandwidth_gbps, ram_gbps)


def fewer_cpu_experts(workload: Workload, gpu: GPU, count: int,
                      ram_gbps: float = REFERENCE_RAM.bandwidth_gbps) -> dict[str, Any]:
    """`fewer_cpu_moe_layers` and its one-conversation decode ceiling: the fewest first layers whose routed experts
    must stay in system RAM for the job to hold on these cards, when that is fewer than asked ("experts offloaded to
    CPU" on 2× 3090 left 21 GiB a card idle while each token read 1.8 GiB from RAM: audit 32 M-105); {} otherwise
    (0 layers is said as no --cpu-moe at all)."""
    asked = workload.cpu_moe_layers
    if (not asked or workload.engine != "llama.cpp" or workload.task != "inference" or workload.model.moe is None
            or not rules.bandwidth_known(gpu)):
        return {}
    top = min(asked, workload.model.num_layers or asked)  # the job holds there: the fewest at or below it
    fewest = smallest_true(lambda n: fits_on(replace(workload, cpu_moe_layers=n or None), gpu, count)[0], 0, top)
    if fewest is None or fewest >= top:
        return {}
    now = _split_ceiling(replace(workload, batch=1), gpu, count, ram_gbps)
    if fewest:
        faster = _split_ceiling(replace(workload, cpu_moe_layers=fewest, batch=1), gpu, count, ram_gbps)
    else:
        faster = rules.estimate_speed(replace(workload, cpu_moe_layers=None, batch=1), gpu, count).decode_tokens_per_s
    if not faster or (now and faster < 1.2 * now):
        return {}
    return {"fewer_cpu_moe_layers": float(fewest), "fewer_cpu_moe_tokens_per_s": finite(faster, 1)}
