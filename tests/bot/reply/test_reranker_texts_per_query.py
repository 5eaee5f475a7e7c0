"""A reranker's documents per query, written with their length between ("20 docs of 400 tokens per query"), and
how many queries a card takes when that is what is asked (audit 22 HIGH 4)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_the_texts_of_a_query_with_their_length_between_are_texts_per_request() -> None:
    question = parse("Qwen3-Reranker-0.6B at 10 queries/s, 20 docs of 400 tokens per query: how many L4?", KB)
    assert (question.texts_per_request, question.context, question.qps) == (20, 400, 10.0)
    assert question.training_samples is None
    result = answer(question, KB)
    assert result.serving is not None and result.serving.replicas == 2  # 200 texts/s at ≈ 115 a card


def test_how_many_queries_a_card_takes_is_its_batched_rate_over_the_texts_of_one() -> None:
    result = answer(parse("how many queries/s can one L4 handle with Qwen3-Reranker-0.6B scoring 20 docs of 400 "
                          "tokens per query?", KB), KB)
    batched = result.speed["batched_sequences_per_s"]
    assert batched and batched > result.speed["sequences_per_s"]
    text = render_text(result, KB)
    assert f"≈ {batched / 20:,.3g} requests/s a card at 20 texts each" in text
    # 2 × (0.6B − the 151,669 × 1,024 token table, a lookup) ≈ 0.89 GFLOP a token (audit 23 M-20; 5.76 with it)
    assert batched / 20 == pytest.approx(7.5, rel=0.05)
