"""A Llama-like decoder of a given size, for questions that name only a parameter count ("a 13B model")."""

from __future__ import annotations

from knowledge.schema import Model

GENERIC_VOCAB = 32000
"""LLaMA/LLaMA-2 vocabulary."""

GENERIC_HEAD_DIM = 128
GENERIC_LAYERS_PER_HIDDEN = 1 / 128
"""LLaMA aspect ratio: 32 layers at hidden 4096 (7B), 40 at 5120 (13B), 60 at 6656 (33B)."""

GQA_ABOVE_PARAMS_B = 30.0
GENERIC_KV_HEADS = 8
"""LLaMA-2-70B / LLaMA-3 / Qwen2.5 ≥ 32B use 8 KV heads; LLaMA-1/2 7B and 13B use full multi-head
attention."""


def _round(x: float, step: int) -> int:
    return max(step, round(x / step) * step)


def _layer_params(h: int, inter: int, kv_heads: int, heads: int) -> float:
    d = GENERIC_HEAD_DIM
    attn = h * heads * d * 2 + h * kv_heads * d * 2  # q, o, k, v
    return attn + 3 * h * inter + 2 * h  # gated MLP + two RMSNorms


def generic_model(params_b: float) -> Model:
    """A LLaMA-shaped decoder of `params_b` billion parameters (untied 32k embeddings, SwiGLU, GQA > 30B)."""
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
    kv = min(GENERIC_KV_HEADS, heads) if params_b > GQA_ABOVE_PARAMS_B else heads
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
        source=["rules.generic: LLaMA-shaped decoder of the requested size (LLaMA paper, table 2 shapes)"],
        notes="synthetic",
    )
