"""The things people count in an offline job are its documents, whatever they call them (audit 22 M-6)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "count"), [
    ("Embed 5 million product titles (64 tokens each) with all-MiniLM-L6-v2: cheapest GPU and total cost?", 5_000_000),
    ("embed 200k image captions with bge-m3 on a T4", 200_000),
    ("用 bge-m3 给 100 万条商品标题做向量，A10 要多久", 1_000_000),
])
def test_titles_and_captions_are_the_jobs_documents(text: str, count: int) -> None:
    assert parse(text, KB).training_samples == count


@pytest.mark.parametrize(("text", "count"), [
    # audit 23 M-18: "5000 万条 query" was no job, so the hours asked were missing
    ("@王工 帮忙看下：Qwen3-Embedding-8B 给 5000 万条 query 做向量化，每条 32 token，用 4 张 L20 要多久？", 50_000_000),
    ("embed 50 million search queries of 32 tokens with bge-m3 on 4 L20s, how long?", 50_000_000),
    ("用 bge-m3 给 200 万条查询做向量化，T4 要多久", 2_000_000),
])
def test_queries_to_embed_are_the_jobs_documents(text: str, count: int) -> None:
    assert parse(text, KB).training_samples == count


@pytest.mark.parametrize(("text", "qps"), [
    ("bge-reranker-v2-m3 at 50 queries per second on L4", 50.0),
    ("bge-m3 1000 queries/s on T4", 1000.0),
    ("bge-m3 每秒 200 次查询，用 T4", 200.0),
    ("bge-m3 2 million queries a day on L4", 2e6 / 86400),
])
def test_queries_at_a_rate_stay_a_rate(text: str, qps: float) -> None:
    question = parse(text, KB)
    assert question.training_samples is None and question.qps == pytest.approx(qps)


def test_a_length_written_with_de_before_the_documents_is_each_ones() -> None:
    question = parse("bge-m3 给 1000 万条 512 token 的文档做向量，L4 和 H100 哪个总价更便宜？", KB)
    assert (question.training_samples, question.sample_tokens) == (10_000_000, 512)


def test_a_count_of_tiao_whose_length_follows_is_the_jobs_texts() -> None:
    # audit 23 M-18 (end pass): "跑 1 亿条，每条 512 token" had no count, so no hours
    question = parse("bge-m3 跑 1 亿条，每条 512 token，用 8 张 4090，要几个小时", KB)
    assert (question.training_samples, question.context, question.gpu_count) == (100_000_000, 512, 8)
    assert parse("Qwen2.5-7B 推理，每条 512 token", KB).training_samples is None


def test_summaries_and_prompts_counted_are_a_batch_job() -> None:
    # audit 30 HIGH 68: "10M summaries" / "10M prompts" were dropped: one request timed, no job hours
    from bot.understand.parse import parse as _parse
    from knowledge.loader import default_knowledge as _kb

    for text in ("Generate 10M summaries with Llama-3.1-8B (2k tokens in, 200 out) on H100s: how long and how much?",
                 "Batch job: 10M prompts of 2k tokens, 200 tokens out each, Llama-3.1-8B on H100s. GPU-hours?"):
        question = _parse(text, _kb())
        assert question.training_samples == 10_000_000 and question.output_tokens == 2e9, text
    assert _parse("serve Llama-3.1-8B, prompts of 2k tokens, 20 users", _kb()).training_samples is None


def test_prompts_of_a_length_are_that_long_each() -> None:
    # audit 30 LOW-142: "10M prompts of 2k tokens, 200 tokens out each" took the 2k as prompt and reply together
    from bot.understand.parse import parse as _parse
    from knowledge.loader import default_knowledge as _kb

    question = _parse("Batch job: 10M prompts of 2k tokens, 200 tokens out each, Llama-3.1-8B on H100s", _kb())
    assert (question.context, question.gen_tokens) == (2048 + 200, 200)
