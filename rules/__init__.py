"""Sizing rules: pure numbers in, numbers out (no text, no Slack, no languages).

Public surface used by `bot.reply.answer`: estimate_memory, estimate_speed, check_fit, rank_picks,
generic_model, training_hours, decode_ceiling_tokens_per_s, cost_per_million_tokens, pick_at, runs_model_code,
needed_view, check_mixed, mixed_alternatives, split_by_memory, longest_context; bandwidth_known, compute_known
and supports_bf16 (what a card's listed figures allow).
"""

from __future__ import annotations

from rules.cost import cost_per_million_tokens
from rules.engine_profile import runs_model_code
from rules.fit import check_fit, pick_at, rank_picks, valid_tp
from rules.generic import generic_model
from rules.hardware import bandwidth_known, compute_known, supports_bf16
from rules.limits import longest_context
from rules.memory import estimate_memory, kv_bytes_per_token, kv_cache_bytes, needed_view
from rules.mixed import CardFit, MixedFit, check_mixed, mixed_alternatives, mixed_decode_tokens_per_s, split_by_memory
from rules.speed import (
    decode_ceiling_tokens_per_s,
    estimate_speed,
    inter_node_gbps,
    pipeline_handoff_seconds,
    spans_machines,
    train_mfu,
    training_hours,
    unified_memory_decode_tokens_per_s,
)
from rules.types import FitCheck, MemoryEstimate, Pick, Speed, Suggestion, Workload

__all__ = [
    "CardFit",
    "FitCheck",
    "MemoryEstimate",
    "MixedFit",
    "Pick",
    "Speed",
    "Suggestion",
    "Workload",
    "bandwidth_known",
    "check_fit",
    "check_mixed",
    "compute_known",
    "cost_per_million_tokens",
    "decode_ceiling_tokens_per_s",
    "estimate_memory",
    "estimate_speed",
    "generic_model",
    "inter_node_gbps",
    "kv_bytes_per_token",
    "kv_cache_bytes",
    "longest_context",
    "mixed_alternatives",
    "mixed_decode_tokens_per_s",
    "needed_view",
    "pick_at",
    "pipeline_handoff_seconds",
    "rank_picks",
    "runs_model_code",
    "spans_machines",
    "split_by_memory",
    "supports_bf16",
    "train_mfu",
    "training_hours",
    "unified_memory_decode_tokens_per_s",
    "valid_tp",
]
