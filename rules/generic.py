"""A Llama-3-like decoder of a given size, for questions that name only a parameter count ("a 13B model").

Its shape is today's common one, not LLaMA-1/2's: every open decoder of 1-30B released since 2024 in the knowledge
base (Llama 3.x, Qwen2/2.5/3, Mistral/Ministral/Nemo, Gemma 2/3, Phi-3-small/medium/4, InternLM2/3, Yi,
StarCoder2) uses grouped-query attention with 8 or fewer KV heads and a vocabulary of 92k-262k tokens. A
multi-head 7B keeps 4x the KV cache of the 8-head one (512 vs 128 KiB a token in 16-bit), so the older shape
made every long-context answer for "a 7B model" about twice too big."""

from __future__ import annotations

from knowledge.schema import Model

GENERIC_VOCAB = 128256
"""Llama 3's vocabulary (Qwen2.5/3 use 151,936, Mistral Nemo 131,072, Gemma 3 262,144)."""

GENERIC_HEAD_DIM = 128
GENERIC_LAYERS_PER_HIDDEN = 1 / 128
"""LLaMA aspect ratio: 32 layers at hidden 4096 (7B), 40 at 5120 (13B), 60 at 6656 (33B)."""

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
    """A Llama-3-shaped decoder of `params_b` billion parameters (untied 128k embeddings, SwiGLU, 8 KV heads)."""
    if params_b <= 0:
        raise ValueError("params_b must be positive")
    total = params_b * 1e9
    # Per layer ≈ 12.1·h² (4h² attention + 3·h·(8/3·h) MLP); layers ≈ h/128 → h³ ≈ 128·P_body / 12.1.
    h = _round(max(total - 2 * GENERIC_VOCAB * 1024, total * 0.5) ** (1 / 3) * (128 / 12.1) ** (1 / 3), 128)
    for _ in range(3):  # the embeddings depend on h: refine once or twice
        body = max(total - 2 * GENERIC_VOCAB * h, total * 0.5)
        h = _round((body * 128 / 12.1) ** (1 / 3), 128)
    # Hidden sizes in multiples of 512 (256 below 2048) so head counts divide by the TP degrees 2/4/8.
    h = _round(h, 512 if h >= 2048 else 256)
    heads = max(1, h // GENERIC_HEAD_DIM)
    kv = max(k for k in range(1, min(GENERIC_KV_HEADS, heads) + 1) if heads % k == 0)  # groups must divide
    inter = _round(8 * h / 3, 256)
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
        source=["rules.generic: Llama-3-shaped decoder of the requested size (LLaMA paper table 2 aspect ratio; "
                "Llama 3 config.json vocabulary and KV heads)"],
        notes="synthetic",
    )
