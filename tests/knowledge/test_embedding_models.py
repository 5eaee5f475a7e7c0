"""The sentence-embedding and reranking encoders: their sizes follow from the shapes their configs state."""

from __future__ import annotations

import pytest

from knowledge import load_knowledge
from knowledge.schema import Model

ENCODERS = ("bge-m3", "bge-large-en-v1.5", "bge-base-en-v1.5", "bge-small-en-v1.5", "bge-large-zh-v1.5",
            "all-minilm-l6-v2", "bge-reranker-v2-m3")


def bert_params(m: Model, positions: int, token_types: int) -> float:
    """BertModel / XLMRobertaModel with its pooler: embeddings, then per layer the attention (4h² + 4h),
    the feed-forward (2hI + I + h) and two layer norms (4h)."""
    assert m.hidden_size and m.intermediate_size and m.vocab_size and m.num_layers
    h, inner = m.hidden_size, m.intermediate_size
    embeddings = (m.vocab_size + positions + token_types) * h + 2 * h
    layer = 4 * h * h + 2 * h * inner + 9 * h + inner
    return embeddings + m.num_layers * layer + h * h + h


@pytest.mark.parametrize("model_id", ENCODERS)
def test_the_stated_size_matches_the_config_shape(model_id: str) -> None:
    model = load_knowledge().models[model_id]
    positions = model.max_position_embeddings or model.max_context or 512
    # XLM-R carries one token type; BERT two.
    token_types = 1 if model.vocab_size == 250002 else 2
    computed = bert_params(model, positions, token_types)
    assert computed / 1e9 == pytest.approx(model.params_b, rel=0.01)


def test_bge_m3_is_a_long_context_fp32_checkpoint() -> None:
    model = load_knowledge().models["bge-m3"]
    assert model.max_context == 8192
    assert model.native_precision == "fp32"
    assert model.arch == "encoder"
