"""A Mac named beside the card the reply sizes ("Mac mini M4 Pro 64GB vs RTX 5090"): its own fit and decode.

The card is the machine checked and timed; the Mac, which the comparison is about as much, gets the same job in
llama.cpp (what runs on Apple silicon) against the part of its unified memory macOS lets the GPU use, and the
decode speed its chip's bandwidth allows (rules.unified_memory_decode_tokens_per_s, fitted on llama.cpp's Apple
silicon table). Audit 19 M-5: the Mac was dropped from the reply.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import rules
from bot.reply.capacity import unified_memory_gpu
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules.hardware import usable_gib
from rules.types import Workload


def mac_beside_figure(question: Question, workload: Workload, kb: KnowledgeBase) -> dict[str, Any] | None:
    """{chip, memory_gb, usable_gib, need_gib, fits, decode_tokens_per_s, bandwidth_gbps} for the Mac named beside
    the card, with the need and the fit null when its memory is not written; None for a job a Mac is not timed on
    (training, a model that is not a decoder) or an unknown chip."""
    if question.mac_beside is None or workload.task != "inference" or workload.model.arch != "decoder":
        return None
    chip_id, memory_gb = question.mac_beside
    chip = kb.apple_chips.get(chip_id)
    if chip is None:
        return None
    on_mac = replace(workload, engine="llama.cpp")
    bandwidth = chip.bandwidth_for(memory_gb)
    figure: dict[str, Any] = {
        "chip": chip.id, "memory_gb": memory_gb, "usable_gib": None, "need_gib": None, "fits": None,
        "decode_tokens_per_s": round(rules.unified_memory_decode_tokens_per_s(on_mac, bandwidth), 1),
        "bandwidth_gbps": bandwidth}
    if memory_gb:
        mac = unified_memory_gpu(memory_gb)
        need = rules.estimate_memory(on_mac, 1, mac).per_gpu_gib
        usable = usable_gib(mac)
        figure.update(usable_gib=round(usable, 1), need_gib=round(need, 1), fits=need <= usable)
    return figure
