"""Shapes every memory rule shares: layer counts, head sizes, and the KV cache of a token and of a batch.

KV cache = 2 × layers × KV heads × head dim × tokens × batch × bytes (MLA: layers × (kv_lora_rank +
qk_rope_head_dim) × tokens × batch × bytes; sliding-window layers hold at most `sliding_window` tokens; with
tensor parallelism each card holds max(1, KV heads / tp) heads).
"""

from __future__ import annotations

import math

from knowledge.schema import Model
from rules import constants as C
from rules.types import Workload

COMPONENTS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "overhead")
TRANSFORMER_ARCHS = frozenset({"decoder", "encoder", "encoder-decoder"})


def gib(x: float) -> float:
    return x / C.GIB


def breakdown(**parts: float) -> dict[str, float]:
    return {k: round(gib(parts.get(k, 0.0)), 4) for k in COMPONENTS}


def num_layers(model: Model) -> int:
    """All transformer layers (encoder + decoder for encoder-decoder models, from `details`)."""
    if model.num_layers:
        return model.num_layers
    enc = int(model.details.get("encoder_layers", 0) or 0)
    dec = int(model.details.get("decoder_layers", 0) or 0)
    return enc + dec


def kv_layers(model: Model) -> int:
    """Layers that keep a KV cache: every decoder layer (none for encoders)."""
    if model.arch == "encoder":
        return 0
    if model.arch == "encoder-decoder":
        return int(model.details.get("decoder_layers", 0) or 0)
    return num_layers(model)


def is_transformer(model: Model) -> bool:
    return (model.arch in TRANSFORMER_ARCHS and num_layers(model) > 0 and model.hidden_size is not None
            and model.num_attention_heads is not None)


def head_dim(model: Model) -> int:
    if model.head_dim:
        return model.head_dim
    assert model.hidden_size and model.num_attention_heads
    return model.hidden_size // model.num_attention_heads


def kv_heads_per_gpu(model: Model, tp: int) -> float:
    """KV heads one card holds under tensor parallelism: max(1, kv_heads / tp) (vLLM replicates a KV head
    when tp exceeds the KV-head count)."""
    kv = model.num_kv_heads or model.num_attention_heads or 1
    return max(1.0, kv / tp)


def kv_bytes_per_token(model: Model, kv_elem_bytes: float, tp: int = 1,
                       mla_heads: tuple[int, int] | None = None) -> float:
    """KV-cache bytes per token per card, all layers (sliding windows not applied here). `mla_heads` (K and V
    elements per head) when the engine caches a latent-attention model per head instead of as its latent
    (rules.engine_profile.mla_head_sizes)."""
    layers = kv_layers(model) if is_transformer(model) else 0
    if layers == 0:
        return 0.0
    if model.attention == "mla" and model.mla is not None and mla_heads is not None:
        # Decompressed: K and V for every attention head, the heads divided among tensor-parallel ranks.
        heads = max(1.0, (model.num_attention_heads or 1) / tp)
        return layers * heads * (mla_heads[0] + mla_heads[1]) * kv_elem_bytes
    if model.attention == "mla" and model.mla is not None:
        # The latent (kv_lora_rank) and the decoupled RoPE key are cached once per layer, not per head, and
        # every tensor-parallel rank keeps the whole latent (vLLM MLA backend).
        return layers * (model.mla.kv_lora_rank + model.mla.qk_rope_head_dim) * kv_elem_bytes
    # Encoder-decoder: per decoder token, the self-attention K/V (the source's cross-attention K/V is added by
    # kv_cache_bytes, once per sequence).
    return 2.0 * layers * kv_heads_per_gpu(model, tp) * head_dim(model) * kv_elem_bytes


def attention_params(model: Model) -> float:
    """Parameters of every layer's attention projections (q, k, v, o; MLA's low-rank q and kv with their up-
    projections): what data-parallel attention keeps whole on every card."""
    hidden, heads, layers = model.hidden_size or 0, model.num_attention_heads or 0, kv_layers(model)
    mla = model.mla
    if mla is not None and mla.qk_nope_head_dim and mla.v_head_dim:
        q_head = mla.qk_nope_head_dim + mla.qk_rope_head_dim
        q = (hidden * mla.q_lora_rank + mla.q_lora_rank * heads * q_head) if mla.q_lora_rank else (
            hidden * heads * q_head)
        kv = hidden * (mla.kv_lora_rank + mla.qk_rope_head_dim) + mla.kv_lora_rank * heads * (
            mla.qk_nope_head_dim + mla.v_head_dim)
        return float(layers * (q + kv + heads * mla.v_head_dim * hidden))
    size = head_dim(model)
    kv_heads = model.num_kv_heads or heads
    return float(layers * hidden * size * (2 * heads + 2 * kv_heads))


def kv_cache_bytes(model: Model, tokens: int, batch: int, kv_elem_bytes: float, tp: int = 1,
                   block: int = 1, *, pure_window: bool = True,
                   mla_heads: tuple[int, int] | None = None,
                   source_batch: int | None = None) -> tuple[float, list[str]]:
    """KV cache of `batch` sequences of `tokens` tokens on one card, with sliding windows applied (a model
    whose every layer slides caches only its window unless `pure_window` is False: the engine does not). An
    encoder-decoder's cross-attention cache is held by `source_batch` sequences (default `batch`: one per beam)."""
    per_token = kv_bytes_per_token(model, kv_elem_bytes, tp, mla_heads)
    if per_token == 0.0:
        return 0.0, []
    if model.arch == "encoder-decoder":
        # Every decoder layer also caches the cross-attention K/V of the whole source, projected once per
        # sequence (transformers' EncoderDecoderCache.cross_attention_cache; CTranslate2 likewise): Whisper's
        # 1,500 encoder frames (max_source_positions), or a text model's input, taken as long as the context.
        # For Whisper large that is 246 MB a stream in fp16, three times its 448-token self-attention cache.
        source = int(model.details.get("max_source_positions") or tokens)
        self_attention, notes = _self_attention_kv_bytes(model, per_token, tokens, batch, block, pure_window)
        sources = batch if source_batch is None else source_batch
        return self_attention + per_token * source * sources, [*notes, "cross-attention-kv"]
    return _self_attention_kv_bytes(model, per_token, tokens, batch, block, pure_window)


def _self_attention_kv_bytes(model: Model, per_token: float, tokens: int, batch: int, block: int,
                             pure_window: bool) -> tuple[float, list[str]]:
    notes: list[str] = []
    tokens_all = math.ceil(tokens / block) * block
    details = model.details
    full = int(details.get("full_kv_layers") or details.get("full_attention_layers") or 0)
    layers = kv_layers(model)
    if 0 < full < layers:
        # Hybrid attention (config `layer_types`): only `full` layers cache every token. Sliding-window or
        # chunked layers (gpt-oss: 128-token windows; Llama 4: 8,192-token chunks) cache at most their window;
        # linear-attention layers (Qwen3-Next Gated DeltaNet, MiniMax lightning) keep a fixed-size state, not
        # a per-token cache, and are left out.
        local = int(details.get("sliding_kv_layers") or details.get("sliding_window_layers") or 0)
        window = model.sliding_window or int(details.get("attention_chunk_size") or 0)
        if window and not local and details.get("attention_chunk_size"):
            local = layers - full
        local_tokens = min(tokens_all, math.ceil(window / block) * block) if window else 0
        notes.append("hybrid-attention")
        return per_token * (full * tokens_all + local * local_tokens) / layers * batch, notes
    if pure_window and model.sliding_window and tokens > model.sliding_window:
        layers = kv_layers(model)
        local_layers = int(model.details.get("sliding_window_layers", layers))
        local_fraction = min(1.0, local_layers / layers)
        window = math.ceil(model.sliding_window / block) * block
        eff = local_fraction * min(tokens_all, window) + (1 - local_fraction) * tokens_all
        notes.append("sliding-window")
        return per_token * eff * batch, notes
    return per_token * tokens_all * batch, notes


def prefill_tokens(w: Workload) -> int:
    """Prompt tokens of a request: context minus the generated tokens, when those are known."""
    if w.gen_tokens is not None:
        return max(1, w.context - w.gen_tokens)
    return w.context
