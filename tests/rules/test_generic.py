"""generic_model: a decoder of the requested size with grouped-query attention (Mistral-7B-shaped)."""

from __future__ import annotations

import pytest

from rules import generic_model


def _count(m) -> float:  # type: ignore[no-untyped-def]
    h, L, i, heads, kv, d = (m.hidden_size, m.num_layers, m.intermediate_size, m.num_attention_heads,
                             m.num_kv_heads, m.head_dim)
    layer = h * heads * d * 2 + h * kv * d * 2 + 3 * h * i + 2 * h
    return L * layer + 2 * m.vocab_size * h


@pytest.mark.parametrize("size", [1.0, 7.0, 13.0, 34.0, 70.0, 180.0])
def test_shapes_add_up_to_the_size(size: float) -> None:
    m = generic_model(size)
    assert m.params_b == size
    assert _count(m) == pytest.approx(size * 1e9, rel=0.06)
    assert m.num_attention_heads % 8 == 0 or size < 3  # TP-friendly head counts


def test_eight_kv_heads_at_every_size() -> None:
    seven = generic_model(7)
    assert (seven.hidden_size, seven.num_attention_heads, seven.num_kv_heads) == (4096, 32, 8)
    assert seven.vocab_size == 32000
    assert generic_model(13).num_kv_heads == 8
    assert generic_model(70).num_kv_heads == 8
    assert generic_model(70).attention == "gqa"


def test_kv_heads_divide_the_query_heads() -> None:
    one = generic_model(1)
    assert one.num_attention_heads % one.num_kv_heads == 0
    assert one.num_kv_heads <= 8


def test_a_7b_keeps_a_quarter_of_the_multi_head_cache() -> None:
    """2 (K and V) × 31 layers × 8 heads × 128 × 2 B = 124 KiB a token in 16-bit, as Mistral-7B's 128 (32 layers);
    a multi-head 7B (LLaMA-2) keeps 512."""
    seven = generic_model(7)
    per_token = 2 * seven.num_layers * seven.num_kv_heads * seven.head_dim * 2
    assert per_token == 2 * 31 * 8 * 128 * 2


def test_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        generic_model(0)
