"""Two groups served together at different lengths (audit 28 M-55): "8 analysts at 128k plus about 40 short
chats" was read as a batch job over 40 documents; the chats are sequences at once, and they share the paged KV
cache at their own length rather than the analysts'."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
MIXED = "We serve Qwen2.5-72B to 8 analysts at 128k plus about 40 short chats at once. What hardware?"


def test_the_short_chats_are_a_second_group_not_documents() -> None:
    question = parse(MIXED, KB)
    assert (question.batch, question.more_sequences, question.context) == (8, 40, 131_072)
    assert question.training_samples is None and not question.batch_job


def test_the_short_chats_take_their_own_tokens_of_the_cache() -> None:
    # 8 × 131,072 + 40 × 4,096 = 1,212,416 tokens = 9.25 sequences at 131,072: sized as 10, not 8 (chats dropped)
    # nor 48 (every chat at 128k, 4.8× the cache)
    result = answer(parse(MIXED, KB), KB)
    assert result.query.batch == 10 and result.query.context == 131_072
    text = render_text(result, KB)
    assert "1,212,416 tokens" in text and "9.25 sequences" in text and "all 48" in text
    assert "documents" not in text.split("Memory needed")[0]


def test_a_stated_length_for_the_second_group_is_used() -> None:
    # 8 × 131,072 + 40 × 2,048 = 1,130,496 tokens = 8.62 sequences: 9
    result = answer(parse("Llama-3.1-70B: 8 analysts with 128k context and 40 chats at 2k on 8 H100s?", KB), KB)
    assert result.query.batch == 9
    assert "plus 40 at 2,048" in render_text(result, KB)


def test_the_chinese_reading_is_the_same() -> None:
    result = answer(parse("Qwen2.5-72B 给 8 个分析师用 128k 上下文，另外还有 40 个短对话，用什么卡", KB), KB)
    assert result.query.batch == 10
    assert "相当于 9.25 路" in render_text(result, KB)


def test_two_groups_at_the_default_context_are_simply_added() -> None:
    result = answer(parse("Llama 3 8B chatbot for 10 users + 5 developers on one L4", KB), KB)
    assert result.query.batch == 15


@pytest.mark.parametrize("text", [
    "Qwen2.5-7B: 40 chats at once", "Qwen2.5-7B: 40 short chats at the same time", "Qwen2.5-7B 同时 40 个对话",
    "Qwen2.5-7B 40 个对话同时进行", "Qwen2.5-7B 同時處理 40 個對話，要什麼卡", "Qwen2.5-7B: 40 live conversations",
])
def test_chats_held_at_once_are_the_batch(text: str) -> None:
    question = parse(text, KB)
    assert question.batch == 40 and question.training_samples is None


@pytest.mark.parametrize("text", [
    "Embed 100 million short texts (about 64 tokens each) with Qwen3-Embedding-8B on one L40S, how many hours?",
    "Qwen3-Embedding-8B 给 1 亿条短文本（每条约 64 token）做向量，一张 L40S 要多久？",
])
def test_short_texts_stay_a_jobs_documents(text: str) -> None:
    assert parse(text, KB).training_samples == 100_000_000


def test_a_bare_count_of_chats_to_summarise_stays_a_job() -> None:
    question = parse("summarise 40 chats with Qwen2.5-7B", KB)
    assert question.batch is None and question.more_sequences is None


def test_a_count_of_requests_after_the_load_is_not_a_second_group() -> None:
    # "50 并发和 100 个请求": the requests are a total more often than 100 more sequences at once
    question = parse("Qwen2.5-7B 50 并发和 100 个请求", KB)
    assert question.batch == 50 and question.more_sequences is None


def test_short_2k_chats_are_a_length_not_2000_documents() -> None:
    # audit 29 HIGH 47: "60 users with short 2k chats" was 2,000 documents of 102,400 tokens (a 5-hour batch job)
    question = parse("Llama-3.1-70B serving: 4 users with 100k context and 60 users with short 2k chats, fp8, "
                     "how many H100?", KB)
    assert (question.batch, question.more_sequences, question.more_sequences_context) == (4, 60, 2048)
    assert question.training_samples is None
    # 4 × 102,400 + 60 × 2,048 = 532,480 tokens = 5.2 sequences at 102,400: sized as 6
    assert answer(question, KB).query.batch == 6
    assert parse("summarise 2k chats with Qwen2.5-7B", KB).training_samples == 2000


def test_power_users_and_users_chatting_at_a_length() -> None:
    # audit 29 (M-55 re-check): all 30 chat users had been sized at 64k, 10× the cache
    question = parse("Qwen2.5-32B for 2 power users at 64k plus 30 users chatting at 2k", KB)
    assert (question.batch, question.more_sequences, question.more_sequences_context) == (2, 30, 2048)
    assert answer(question, KB).query.batch == 3  # 192,512 tokens = 2.94 sequences at 65,536


@pytest.mark.parametrize("text", [
    "Qwen2.5-14B for 20 users at 8k and 5 users at 32k",
    "Qwen2.5-14B，20 个用户 8k 上下文，另外 5 个用户 32k",
])
def test_a_longer_second_group_sets_the_sizing_length(text: str) -> None:
    # audit 29 HIGH 57: sized at the first group's 8,192; 20 × 8,192 + 5 × 32,768 = 327,680 tokens = 10 at 32,768
    result = answer(parse(text, KB), KB)
    assert (result.query.context, result.query.batch) == (32_768, 10)


def test_a_comma_separates_two_groups() -> None:
    # audit 29 HIGH 57: "3 users at 128k, 50 users at 4k" dropped the 50
    question = parse("Llama-3.1-8B: 3 users at 128k, 50 users at 4k", KB)
    assert (question.batch, question.more_sequences, question.more_sequences_context) == (3, 50, 4096)
    # 3 × 131,072 + 50 × 4,096 = 598,016 tokens = 4.56 sequences at 131,072: 5
    assert answer(question, KB).query.batch == 5
