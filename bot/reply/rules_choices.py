"""The choices the memory rules made for the user (ZeRO stage, gradient checkpointing, LoRA rank, optimizer, an
engine's memory share and request cap), each said under Assumed with why: needed to fit, the rules' pick, or the
engine's own default. They change the figure, so a reader must see them to reproduce it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.reply.model import Assumption
from bot.reply.request_cap import REQUEST_CAP_LOWERED_NOTE
from bot.understand.question import Question
from knowledge.schema import GPU
from rules.engine_profile import training_fact
from rules.limits import fits_on
from rules.memory_diffusion_training import checkpoints_by_default
from rules.types import Workload

REPORTED_CHOICES = ("zero_stage", "gradient_checkpointing", "lora_rank", "optimizer", "gpu_memory_utilization",
                    "max_num_seqs", "max_batch_size", "max_seq_len")
"""Choices the rules make for the user that change the figure and so are stated in the reply."""


def chosen_assumptions(chosen: Mapping[str, Any], assumptions: Sequence[Assumption], question: Question,
                       workload: Workload, laid_out: Workload, sized_gpu: GPU | None,
                       sized_count: int) -> list[Assumption]:
    """The rules' choices not already stated or assumed, with the reason each was made."""
    out: list[Assumption] = []
    already = {a.field for a in assumptions} | set(question.stated)
    if "memory_fraction" in already:
        already.add("gpu_memory_utilization")  # the share the text set is not an assumption
    if "max_num_seqs" in already:
        already.add("max_batch_size")  # the request cap the text set sizes a TensorRT engine's buffers
    for key, value in chosen.items():
        if key not in REPORTED_CHOICES or key in already or (key == "zero_stage" and value == 0):
            continue
        # ZeRO-1 is the first stage tried on several cards: only a higher one was needed to fit
        needed = (key in ("gradient_checkpointing", "zero_stage") and bool(value) and sized_gpu is not None
                  and not (key == "zero_stage" and isinstance(value, int) and value < 2))
        if needed and key == "zero_stage" and sized_gpu is not None and fits_on(
                replace(laid_out, zero_stage=1), sized_gpu, sized_count)[0]:
            needed = False  # it fits with ZeRO-1 too: the stage is the rules' (or the engine's) choice, not a need
        reason = "needed-to-fit" if needed else "rules-choice"
        if key == "zero_stage" and training_fact(workload).sharding == "fsdp":
            reason = "engine-default"  # FSDP shards fully (FULL_SHARD) unless told otherwise
        if key == "gradient_checkpointing" and value and training_fact(workload).checkpointing_default:
            reason = "engine-default"  # Unsloth and LLaMA-Factory check-point unless told otherwise
        if key == "gradient_checkpointing" and value and checkpoints_by_default(workload):
            reason = "image-trainer-default"
        if key in ("optimizer", "max_num_seqs", "max_batch_size", "max_seq_len", "gpu_memory_utilization"):
            reason = "engine-default"  # from the engine's documented set-up (vLLM's default for the card)
        if key == "max_num_seqs" and REQUEST_CAP_LOWERED_NOTE in question.notes:
            reason = "request-cap-lowered"
        out.append(Assumption(field=key, value=value, reason=reason))
    return out


__all__ = ["REPORTED_CHOICES", "chosen_assumptions"]
