"""Slots: numbers and keywords next to their cue words, one module per family.

Each `parse_*` reads from `SlotState.text` (the folded text with names and already-claimed numbers masked)
and masks what it claims, so the order in `bot.understand.parse` lets the more specific readings go first:
- sizes: GPU memory, GPU counts, parameter counts;
- context: context length, generated tokens, batch/concurrency;
- precision: precision, quantisation format, optimizer;
- engine: the runtime (engine);
- task: inference, full training, LoRA, QLoRA;
- money: cloud and budget;
- training: ZeRO/FSDP, gradient checkpointing, LoRA rank.
"""
