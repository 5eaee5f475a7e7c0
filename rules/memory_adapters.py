"""Adapter (PEFT) training: which linears an adapter sits on, its parameters and what it keeps for backward.

A LoRA-style adapter on a linear of shape d_in → d_out adds r·(d_in + d_out) parameters and keeps, per token,
that linear's input for the adapter's own backward (PEFT `lora.Linear.forward` applies `lora_dropout` to the
input: a 16-bit copy + a 1-byte mask, LORA_ACT_BYTES_PER_INPUT = 3 bytes per input feature). Only the targeted
linears count: a q,v-only adapter keeps 2·h features per token and layer, all-linear 6·h + intermediate.
Prompt-style methods (prompt/prefix/P-tuning, adaption prompt) add virtual tokens, not per-linear adapters.
"""

from __future__ import annotations

from knowledge.schema import Model
from rules import constants as C
from rules.memory_common import head_dim, num_layers
from rules.types import Workload

ALL_LINEAR = ("q", "k", "v", "o", "gate", "up", "down")
"""PEFT `target_modules="all-linear"` on a Llama-style decoder layer."""


def linear_shapes(model: Model) -> dict[str, tuple[int, int, int]]:
    """(d_in, d_out, copies) of each linear of one decoder layer; MoE experts count every expert (+ shared)."""
    assert model.hidden_size
    h = model.hidden_size
    d = head_dim(model)
    heads = model.num_attention_heads or h // d
    kv = model.num_kv_heads or heads
    inter = model.intermediate_size or 4 * h
    copies = 1
    if model.moe is not None:
        inter = model.moe.moe_intermediate_size or inter
        copies = model.moe.num_experts + model.moe.num_shared_experts
    shapes = {"q": (h, heads * d, 1), "k": (h, kv * d, 1), "v": (h, kv * d, 1), "o": (heads * d, h, 1),
              "up": (h, inter, copies), "down": (inter, h, copies)}
    if model.mlp != "plain":
        shapes["gate"] = (h, inter, copies)
    return shapes


def targets(w: Workload) -> tuple[str, ...]:
    return w.lora_targets if w.lora_targets is not None else ALL_LINEAR


def adapter_params(w: Workload) -> float:
    """Trainable adapter parameters: as stated, else r·(d_in + d_out) over the targeted linears of every layer."""
    if w.trainable_params is not None:
        return float(w.trainable_params)
    if w.peft_method == "prompt":
        return 0.0
    shapes = linear_shapes(w.model)
    per_layer = sum((d_in + d_out) * copies for name, (d_in, d_out, copies) in shapes.items()
                    if name in targets(w))
    return float(w.lora_rank * per_layer * num_layers(w.model))


def adapter_input_features(w: Workload) -> int:
    """Input features per token and layer that the adapters keep for backward (routed experts: the
    experts a token visits)."""
    if w.peft_method == "prompt":
        return 0
    model = w.model
    shapes = linear_shapes(model)
    visited = model.moe.experts_per_token if model.moe is not None else 1
    total = 0
    for name, (d_in, _d_out, copies) in shapes.items():
        if name in targets(w):
            total += d_in * (min(copies, visited) if copies > 1 else 1)
    return total


def adapter_activation_bytes_per_token(w: Workload, bytes_per_input: float | None) -> float:
    """Bytes per token and layer the adapters add (engine's figure, else LORA_ACT_BYTES_PER_INPUT)."""
    per_input = C.LORA_ACT_BYTES_PER_INPUT if bytes_per_input is None else bytes_per_input
    return per_input * adapter_input_features(w)
