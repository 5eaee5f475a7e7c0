"""Training options: ZeRO stage (FSDP is an engine, slots/engine.py), gradient checkpointing, LoRA rank, and the
memory techniques a recipe turns on (activation offloading, optimizer step in backward, a chunked loss, compile)."""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx

_ZERO = rx(r"\bzero[-_ ]?(?:stage[-_ ]?)?(?P<stage>[0-3])\b")
_CHECKPOINTING_OFF = rx(
    r"(?:without|no|disable\w*|不(?:开|用|使用)?)\s*(?:gradient|activation)?[-_ ]?(?:checkpoint\w*|重计算)"
)
_CHECKPOINTING_ON = rx(r"\b(?:gradient|activation)[-_ ]?checkpoint\w*|重计算|梯度检查点|\bcheckpointing\b")
_ACTIVATION_OFFLOAD = rx(
    r"\b(?:activation|checkpoint)s?[-_\s]?offload\w*|\boffload\w*[-_\s](?:the\s)?activations?\b"
    r"|激活(?:值)?(?:卸载|offload)"
)
_OPTIMIZER_IN_BACKWARD = rx(
    r"\boptimi[sz]er[-_\s]?in[-_\s]?(?:the[-_\s]?)?(?:backward|bwd)\b"
    r"|\bfused?\s(?:the\s)?optimi[sz]er\s(?:step\s)?into\s(?:the\s)?backward"
)
_CHUNKED_LOSS = rx(
    r"\bchunked[-_\s]?(?:cross[-_\s]?entropy|ce|loss)\b|\bcewithchunkedoutputloss\b|\blinearcrossentropyloss\b"
    r"|分块(?:交叉熵|损失)"
)
_COMPILE = rx(r"\btorch[._\s]?compile\w*|\bcompile\s?[:=]\s?true\b")
_TECHNIQUES = (("activation_offloading", _ACTIVATION_OFFLOAD), ("optimizer_in_backward", _OPTIMIZER_IN_BACKWARD),
               ("chunked_loss", _CHUNKED_LOSS), ("compiled", _COMPILE))
_LORA_RANK = rx(r"\b(?:lora[-_ ]?)?rank\s*(?:=|:|of|is)?\s*(?P<num>\d{1,5})\b|\br\s*=\s*(?P<num2>\d{1,5})\b")


def parse_training_options(state: SlotState) -> None:
    text = state.text
    m = _ZERO.search(text)
    if m is not None:
        state.set("zero_stage", int(m.group("stage")))
    if _CHECKPOINTING_OFF.search(text):
        state.set("gradient_checkpointing", False)
    elif _CHECKPOINTING_ON.search(text):
        state.set("gradient_checkpointing", True)
    for key, pattern in _TECHNIQUES:
        if pattern.search(text):
            state.set(key, True)
    m = _LORA_RANK.search(text)
    if m is not None:
        rank = int(m.group("num") or m.group("num2"))
        if rank > 0:
            state.set("lora_rank", min(rank, 4096))
