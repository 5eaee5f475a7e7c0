"""The arithmetic behind an estimate, line by line, in the figures the reply shows: what "--maths" and the
Slack button print, so a user can redo it."""

from __future__ import annotations

import math

from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from knowledge.schema import Model

NOMINAL_BYTES_PER_PARAM = {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.55,
                           "mxfp4": 0.55}
"""About what a parameter takes in each precision: only to tell a card's share of the weights from all of them."""


def _split_weights(per_card_bytes_per_param: float, cards: int, precision: str | None) -> bool:
    """Whether the per-card weights are a share of the model (tensor parallel, a layer split, ZeRO-3) rather than a
    whole copy (data parallel): the reading whose bytes per parameter is nearer the precision's."""
    nominal = NOMINAL_BYTES_PER_PARAM.get(precision or "", 2.0)
    whole, shared = per_card_bytes_per_param, per_card_bytes_per_param * cards
    return whole > 0 and abs(math.log(shared / nominal)) < abs(math.log(whole / nominal))


def _cached_as_latent(kv_gib: float, model: Model, tokens: int) -> bool:
    """The per-card cache is the MLA latent (at 1 or 2 bytes an element), not per-head keys and values."""
    if model.mla is None or not model.num_layers or tokens <= 0:
        return False
    elements = model.num_layers * (model.mla.kv_lora_rank + model.mla.qk_rope_head_dim) * tokens
    return any(abs(elements * width / 2**30 - kv_gib) <= 0.05 * kv_gib for width in (1, 2))


def maths_lines(answer: Answer, kb: KnowledgeBase) -> list[str]:
    """The arithmetic behind the estimate, so a user can redo it."""
    e = answer.estimate
    q = answer.query
    if e is None:
        return []
    lines: list[str] = []
    if q.params_b:
        per_card = e.breakdown.weights * 2**30 / (q.params_b * 1e9)
        shared = e.gpu_count > 1 and _split_weights(per_card, e.gpu_count, q.precision)
        bytes_per_param = per_card * e.gpu_count if shared else per_card
        split = f" ÷ {e.gpu_count} GPUs" if shared else ""
        lines.append(f"weights = {q.params_b:g}e9 params × {bytes_per_param:.2f} B{split} = "
                     f"{e.breakdown.weights:.2f} GiB")
    if e.breakdown.kv_cache:
        tokens = f"{q.context or 0:,} tokens"
        model = kb.models.get(q.model or "")
        if "cross-attention-kv" in e.notes and model is not None:
            source = int(model.details.get("max_source_positions") or q.context or 0)
            tokens = f"({q.context or 0:,} decoder tokens + {source:,} source positions)"
        sequences = q.batch or 1
        replicas = answer.picks[0].replicas if answer.picks and "one-replica" in e.notes else None
        users = answer.understood.get("users")
        if replicas and replicas > 1:
            # one replica's share of the users (audit 16 C-L1: the whole batch was written beside one card's GiB)
            sequences = -(-int(users if isinstance(users, int) else sequences) // replicas)
        formula, split = "2 × layers × KV heads × head_dim", ""
        if e.gpu_count > 1:
            split = f", split over {e.gpu_count} GPUs"
            heads = model.num_kv_heads if model is not None else None
            if heads and heads < e.gpu_count:
                split = f", {heads} KV heads over {e.gpu_count} GPUs: each keeps a whole head"
        if model is not None and model.mla is not None and _cached_as_latent(e.breakdown.kv_cache, model,
                                                                             (q.context or 0) * sequences):
            # the compressed latent, cached whole on every card (audit 38 LOW-211: the GQA formula and "shared")
            formula = f"layers × (kv_lora_rank {model.mla.kv_lora_rank} + rope {model.mla.qk_rope_head_dim})"
            split = f", the whole latent on each of {e.gpu_count} GPUs" if e.gpu_count > 1 else ""
        lines.append(f"KV cache = {formula} × {tokens} × {sequences:,} sequences × bytes"
                     f"{split} = {e.breakdown.kv_cache:.2f} GiB per GPU")
    if e.breakdown.gradients or e.breakdown.optimizer:
        lines.append(f"gradients {e.breakdown.gradients:.2f} GiB + optimizer states {e.breakdown.optimizer:.2f} GiB"
                     + (f" (sharded over {e.gpu_count} GPUs)" if e.gpu_count > 1 else ""))
    lines.append(f"activations {e.breakdown.activations:.2f} GiB + overhead {e.breakdown.overhead:.2f} GiB")
    lines.append(f"total = {e.total_gb:.2f} GiB; per GPU = {e.per_gpu_gb:.2f} GiB")
    return lines
