"""Training options: ZeRO stage or FSDP, gradient checkpointing, LoRA rank."""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx

_ZERO = rx(r"\bzero[-_ ]?(?:stage[-_ ]?)?(?P<stage>[0-3])\b|\bfsdp\b")
_CHECKPOINTING_OFF = rx(
    r"(?:without|no|disable\w*|不(?:开|用|使用)?)\s*(?:gradient|activation)?[-_ ]?(?:checkpoint\w*|重计算)"
)
_CHECKPOINTING_ON = rx(r"\b(?:gradient|activation)[-_ ]?checkpoint\w*|重计算|梯度检查点|\bcheckpointing\b")
_LORA_RANK = rx(r"\b(?:lora[-_ ]?)?rank\s*(?:=|:|of|is)?\s*(?P<num>\d{1,5})\b|\br\s*=\s*(?P<num2>\d{1,5})\b")


def parse_training_options(state: SlotState) -> None:
    text = state.text
    m = _ZERO.search(text)
    if m is not None:
        state.set("zero_stage", int(m.group("stage")) if m.group("stage") else 3)
    if _CHECKPOINTING_OFF.search(text):
        state.set("gradient_checkpointing", False)
    elif _CHECKPOINTING_ON.search(text):
        state.set("gradient_checkpointing", True)
    m = _LORA_RANK.search(text)
    if m is not None:
        rank = int(m.group("num") or m.group("num2"))
        if rank > 0:
            state.set("lora_rank", min(rank, 4096))
