"""A decoder of a given size with today's attention, for questions that name only a parameter count ("a 13B model").

Its attention is today's common one, not LLaMA-1/2's: every open decoder of 1-30B released since 2024 in the
knowledge base (Llama 3.x, Qwen2/2.5/3, Mistral/Ministral/Nemo, Gemma 2/3, Phi-3-small/medium/4, InternLM2/3, Yi,
StarCoder2) uses grouped-query attention with 8 or fewer KV heads. A multi-head 7B keeps 4x the KV cache of the
8-head one (512 vs 128 KiB a token in 16-bit), so the older shape made every long-context answer for "a 7B model"
about twice too big. The vocabulary stays LLaMA-2's and Mistral-7B's 32k: the one published table for models known
only by their size (LLaMA-Factory's hardware estimate, scored by bench/accuracy.py) is matched by it, and a 128k
vocabulary raised that table's held-out p90 from 50% to 113% (its 16-bit embeddings and logits under QLoRA). A named
model gets its own vocabulary from its config."""

from __future__ import annotations

from knowledge.schema import Model

GENERIC_VOCAB = 32000
"""LLaMA-2's and Mistral-7B's vocabulary (see the module docstring for why not Llama 3's 128,256)."""

GENERIC_HEAD_DIM = 128
GENERIC_LAYERS_PER_HIDDEN = 1 / 128
"""LLaMA aspect ratio: 32 layers at hidden 4096 (7B), 40 at 5120 (13B), 60 at 6656 (33B)."""

GENERIC_MLP_RATIO = 3.5
"""Mistral-7B's and Llama 3 8B's MLP width over hidden (14,336 / 4,096); with 8 KV heads it keeps LLaMA's depth (a
7B of 32 layers at 4,096), where LLaMA-2's 8/3 would add layers to make up the parameters GQA saves."""
GENERIC_KV_HEADS = 8
"""Llama 3 8B/70B/405B, Mistral 7B, Ministral 8B, Qwen3 4-235B, Gemma 2 9B and Gemma 3 12B use 8 KV heads; the
smaller Qwen2.5 use 2-4 (config.json of each in knowledge/data/models)."""


def _round(x: float, step: int) -> int:
    return max(step, round(x / step) * step)


def _layer_params(h: int, inter: int, kv_heads: int, heads: int) -> float:
    d = GENERIC_HEAD_DIM
    attn = h * heads * d * 2 + h * kv_heads * d * 2  # q, o, k, v
    return attn + 3 * h * inter + 2 * h  # gated MLP + two RMSNorms


def generic_model(params_b: float) -> Model:
    """A decoder of `params_b` billion parameters shaped like Mistral-7B (untied 32k embeddings, SwiGLU, 8 KV
    heads) at LLaMA's depth-to-width ratio."""
    if params_b <= 0:
        raise ValueError("params_b must be positive")
    total = params_b * 1e9
    # Per layer ≈ 13·h² (2.5h² attention with 8 KV heads of 32 + 3·h·(3.5·h) MLP); layers ≈ h/128
    # → h³ ≈ 128·P_body / 13.
    h = _round(max(total - 2 * GENERIC_VOCAB * 1024, total * 0.5) ** (1 / 3) * (128 / 13.0) ** (1 / 3), 128)
    for _ in range(3):  # the embeddings depend on h: refine once or twice
        body = max(total - 2 * GENERIC_VOCAB * h, total * 0.5)
        h = _round((body * 128 / 13.0) ** (1 / 3), 128)
    # Hidden sizes in multiples of 1,024 (512 below 4,096, 256 below 2,048) so head counts divide by the TP degrees.
    h = _round(h, 1024 if h >= 4096 else 512 if h >= 2048 else 256)
    heads = max(1, h // GENERIC_HEAD_DIM)
    kv = max(k for k in range(1, min(GENERIC_KV_HEADS, heads) + 1) if heads % k == 0)  # groups must divide
    inter = _round(GENERIC_MLP_RATIO * h, 256)
    body = max(total - 2 * GENERIC_VOCAB * h, total * 0.5)
    layers = max(1, round(body / _layer_params(h, inter, kv, heads)))
    label = f"{params_b:g}"
    return Model(
        id=f"generic-{label.replace('.', 'p')}b",
        name=f"Generic {label}B decoder",
        family="generic",
        org="generic",
        modality="text",
        arch="decoder",
        params_b=params_b,
        num_layers=layers,
        hidden_size=h,
        num_attention_heads=heads,
        num_kv_heads=kv,
        head_dim=GENERIC_HEAD_DIM,
        attention="gqa" if kv < heads else "mha",
        intermediate_size=inter,
        mlp="gated",
        vocab_size=GENERIC_VOCAB,
        tie_embeddings=False,
        source=["rules.generic: decoder of the requested size (LLaMA paper table 2 aspect ratio; Mistral-7B "
                "config.json vocabulary and KV heads)"],
        notes="synthetic",
    )
