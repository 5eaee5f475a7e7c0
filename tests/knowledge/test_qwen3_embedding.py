"""Qwen3-Embedding and Qwen3-Reranker: the entries carry their configs' numbers, and a question names them.

The parameter counts are the ones the sources publish (the weight tables of the downloaded checkpoints and
MTEB's n_parameters); the shapes in the entries must reproduce them to the unit.
"""

from __future__ import annotations

import pytest

from knowledge.loader import load_knowledge
from knowledge.schema import Model

# id: (layers, hidden, heads, kv heads, head_dim, intermediate, vocab, max_position_embeddings, tied, parameters)
SOURCED = {
    "qwen3-embedding-0.6b": (28, 1024, 16, 8, 128, 3072, 151669, None, True, 595_776_512),
    "qwen3-embedding-4b": (36, 2560, 32, 8, 128, 9728, 151665, None, None, 4_021_774_336),
    "qwen3-embedding-8b": (36, 4096, 32, 8, 128, 12288, 151665, 40960, False, 7_567_295_488),
    "qwen3-reranker-0.6b": (28, 1024, 16, 8, 128, 3072, 151669, 40960, True, 595_776_512),
    "qwen3-reranker-4b": (36, 2560, 32, 8, 128, 9728, 151669, 40960, True, 4_021_784_576),
    "qwen3-reranker-8b": (36, 4096, 32, 8, 128, 12288, 151669, 40960, False, 8_188_548_096),
}
PUBLISHED_B = {"0.6b": 0.6, "4b": 4.0, "8b": 8.0}
# The embedders are saved as a bare Qwen3Model (no lm_head); only the 8B reranker ships an untied lm_head.
UNTIED_LM_HEAD = {"qwen3-reranker-8b"}


def qwen3_params(m: Model, lm_head: bool) -> int:
    """Qwen3 decoder: per layer q, k, v, o, a gated MLP, two RMSNorms and the q/k norms; then the embedding,
    the final norm and, when the checkpoint has one, an untied lm_head."""
    assert m.num_layers and m.hidden_size and m.num_attention_heads and m.num_kv_heads and m.head_dim
    assert m.intermediate_size and m.vocab_size
    h, hd = m.hidden_size, m.head_dim
    attention = 2 * h * m.num_attention_heads * hd + 2 * h * m.num_kv_heads * hd
    layer = attention + 3 * h * m.intermediate_size + 2 * h + 2 * hd
    embedding = m.vocab_size * h
    return m.num_layers * layer + embedding + h + (embedding if lm_head else 0)


@pytest.fixture(scope="module")
def models() -> dict[str, Model]:
    return load_knowledge().models


@pytest.mark.parametrize("model_id", sorted(SOURCED))
def test_the_entry_holds_the_sourced_config(models: dict[str, Model], model_id: str) -> None:
    m = models[model_id]
    layers, hidden, heads, kv, head_dim, inner, vocab, positions, tied, _ = SOURCED[model_id]
    assert (m.num_layers, m.hidden_size, m.num_attention_heads, m.num_kv_heads, m.head_dim) == (
        layers, hidden, heads, kv, head_dim)
    assert (m.intermediate_size, m.vocab_size, m.max_position_embeddings, m.tie_embeddings) == (
        inner, vocab, positions, tied)
    assert m.max_context == 32768
    # the card's size, except where the checkpoint holds fewer (Embedding-8B ships no lm_head: 7.57B sizes it)
    assert m.params_b == (7.57 if model_id == "qwen3-embedding-8b" else PUBLISHED_B[model_id.rsplit("-", 1)[1]])
    assert (m.arch, m.modality, m.attention, m.mlp) == ("encoder", "encoder", "gqa", "gated")
    assert m.native_precision == "bf16" and m.release == "2025-06"
    assert m.family == "Qwen3" and m.hf_ids == [f"Qwen/{m.name}"]
    kind = "embedding_model" if "embedding" in model_id else "reranker"
    assert m.details == {kind: True}
    assert len(m.source) >= 3


@pytest.mark.parametrize("model_id", sorted(SOURCED))
def test_the_shapes_give_the_published_parameter_count(models: dict[str, Model], model_id: str) -> None:
    m = models[model_id]
    count = SOURCED[model_id][-1]
    assert qwen3_params(m, lm_head=model_id in UNTIED_LM_HEAD) == count
    assert m.params_b_computed == pytest.approx(count / 1e9, abs=0.0005)


def test_fields_taken_from_the_sibling_qwen3_4b_are_flagged(models: dict[str, Model]) -> None:
    sibling = models["qwen3-4b"]
    for model_id in ("qwen3-embedding-4b", "qwen3-reranker-4b"):
        m = models[model_id]
        assert {"head_dim", "intermediate_size"} <= set(m.unverified_fields)
        assert (m.head_dim, m.intermediate_size) == (sibling.head_dim, sibling.intermediate_size)
    assert not models["qwen3-embedding-8b"].unverified_fields


def test_the_names_people_type_resolve_to_the_new_entries() -> None:
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer_request({"text": "Qwen3-Embedding-8B on a T4"}, kb)
    assert result.query.model == "qwen3-embedding-8b"
    assert result.query.gpu == "t4"
    # Sized as a prefill-only job: no KV cache.
    assert result.estimate is not None and result.estimate.breakdown.kv_cache == 0
    for text, model_id in (("qwen3 reranker 4b rerank 1M pairs on an L4", "qwen3-reranker-4b"),
                           ("Qwen/Qwen3-Embedding-0.6B on an A10", "qwen3-embedding-0.6b"),
                           ("通义千问3-Reranker-8B 给100万对文本打分要多久", "qwen3-reranker-8b")):
        assert answer_request({"text": text}, kb).query.model == model_id, text


def test_the_base_qwen3_models_keep_their_names() -> None:
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    assert answer_request({"text": "Qwen3-8B on a T4"}, kb).query.model == "qwen3-8b"
    assert answer_request({"text": "qwen3 4b on an L4"}, kb).query.model == "qwen3-4b"


def test_the_bare_word_embedding_is_not_read_as_these_models() -> None:
    """A "千问3-Embedding-8B" alias would make the lone word "embedding" a near match (its fuzzy family is
    "千问embedding"), and "embedding model bge-large" would then offer Qwen3-Embedding instead of naming
    bge-large back; the Chinese aliases are the longer "通义千问3-…" form for that reason."""
    from bot.reply.render import render_text
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer_request({"text": "embedding model bge-large inference gpu"}, kb)
    assert result.query.model is None
    assert "“bge-large”" in render_text(result, kb)
