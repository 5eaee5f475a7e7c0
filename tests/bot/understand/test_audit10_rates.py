"""Service rates in ordinary words, price units in tokens, Chinese counters, one image's size, reply lengths.

Each case was misread before (audit 10): "100 docs per query" was a 100-document job, "每秒1000条" and "1000 texts
per second" no rate, "一百万 token 多少钱" a 1,000,000-token context, "50 路音频流" nothing, "1000万篇文档" nothing,
"一张 1024 图" 1,024 images, "200-token replies" nothing (500 generated tokens assumed) and "50 ms per output
token" nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


def _fields(text: str, kb: KnowledgeBase, *names: str) -> dict[str, Any]:
    question = parse(text, kb)
    return {name: getattr(question, name) for name in names}


def test_documents_per_query_are_texts_per_request_not_a_job(kb: KnowledgeBase) -> None:
    got = _fields("bge-reranker-v2-m3: rerank 100 docs per query at 50 queries per second, which GPU and how many?",
                  kb, "model", "qps", "texts_per_request", "training_samples", "encodes_documents", "stated")
    assert got == {"model": "bge-reranker-v2-m3", "qps": 50.0, "texts_per_request": 100, "training_samples": None,
                   "encodes_documents": False, "stated": ["model", "texts_per_request"]}


@pytest.mark.parametrize("text", [
    "bge-reranker-v2-m3 每个查询召回100篇文档，每秒50个请求，要几张卡",
    "bge-reranker-v2-m3, each query has 100 passages, 50 QPS",
])
def test_texts_per_request_in_other_words(text: str, kb: KnowledgeBase) -> None:
    assert _fields(text, kb, "qps", "texts_per_request") == {"qps": 50.0, "texts_per_request": 100}


@pytest.mark.parametrize("text", [
    "bge-m3 部署embedding服务，每秒1000条，每条300 token，需要几张T4？",
    "bge-m3 embedding service, 1000 texts per second, 300 tokens each, how many T4?",
    "bge-m3 embedding service, 1000 sentences/s, 300 tokens each, how many T4?",
    "bge-m3 部署embedding服务，1000条每秒，每条300 token，需要几张T4？",
    "bge-m3 部署embedding服务，1000条/秒，每条300 token，需要几张T4？",
    "bge-m3 部署embedding服务，每秒1000个请求，每条300 token，需要几张T4？",
    "bge-m3 部署embedding服务，每秒1k条文本，每条300 token，需要几张T4？",
])
def test_a_rate_in_texts_is_the_request_rate_and_their_length_the_context(text: str, kb: KnowledgeBase) -> None:
    got = _fields(text, kb, "model", "qps", "context", "gpu", "training_samples", "sample_tokens", "texts_per_request")
    assert got == {"model": "bge-m3", "qps": 1000.0, "context": 300, "gpu": "t4", "training_samples": None,
                   "sample_tokens": None, "texts_per_request": None}


def test_tokens_a_second_are_no_request_rate(kb: KnowledgeBase) -> None:
    assert _fields("Qwen2.5-7B 每秒1000个token够吗", kb, "qps")["qps"] is None


@pytest.mark.parametrize("text", [
    "T4 跑 Qwen2.5-7B 推理，一小時多少錢？一百萬 token 多少錢？",
    "Qwen2.5-7B 每百万 token 成本",
    "Qwen2.5-7B 每百万token成本",
    "Qwen2.5-7B on an L4, cost per million tokens?",
    "how much does a million tokens cost with Qwen2.5-7B on an L4?",
    "Qwen2.5-7B on an L4: $ per 1M tokens?",
])
def test_a_number_of_tokens_asked_as_a_price_unit_is_no_context(text: str, kb: KnowledgeBase) -> None:
    got = _fields(text, kb, "model", "context", "tokens", "output_tokens", "asks_token_cost")
    assert got == {"model": "qwen2.5-7b", "context": None, "tokens": None, "output_tokens": None,
                   "asks_token_cost": True}


def test_a_context_beside_a_price_unit_is_still_read(kb: KnowledgeBase) -> None:
    got = _fields("Qwen2.5-7B 32k context, cost per million tokens on an L4", kb, "context", "asks_token_cost")
    assert got == {"context": 32768, "asks_token_cost": True}


@pytest.mark.parametrize("text", ["whisper large-v3 50 路音訊串流", "whisper large-v3 50 路音频流",
                                  "whisper large-v3 50 concurrent audio streams"])
def test_streams_counted_with_lu_are_concurrent_like_english_streams(text: str, kb: KnowledgeBase) -> None:
    question = parse(text, kb)
    assert (question.model, question.batch, question.task) == ("whisper-large-v3", 50, "inference")
    assert "users-stated" in question.notes


@pytest.mark.parametrize("text", ["bge-m3 1000 萬筆文件", "bge-m3 1000万篇文档", "bge-m3 1000万条文档"])
def test_documents_counted_with_bi_and_pian_are_documents(text: str, kb: KnowledgeBase) -> None:
    got = _fields(text, kb, "model", "training_samples", "encodes_documents")
    assert got == {"model": "bge-m3", "training_samples": 10_000_000, "encodes_documents": True}


@pytest.mark.parametrize("text", [
    "FLUX.1-schnell 在 RTX 4080 上出一張 1024 圖要幾秒？",
    "FLUX.1-schnell how many seconds for one 1024 image on an RTX 4080?",
    "FLUX.1-schnell how many seconds for a 1024px image on an RTX 4080?",
])
def test_a_size_after_a_count_of_one_is_the_resolution(text: str, kb: KnowledgeBase) -> None:
    got = _fields(text, kb, "model", "image_resolution", "image_count", "gpu")
    assert got == {"model": "flux.1-schnell", "image_resolution": 1024, "image_count": None, "gpu": "rtx-4080"}


def test_a_bare_image_count_is_still_a_count(kb: KnowledgeBase) -> None:
    got = _fields("SDXL 1024 images on a 4090, how long", kb, "image_count", "image_resolution")
    assert got == {"image_count": 1024, "image_resolution": None}


def test_prompt_and_reply_lengths_make_the_context_and_the_generated_tokens(kb: KnowledgeBase) -> None:
    got = _fields("Llama 3.1 8B for 50 users on L4s, time to first token under 0.5 s, 1000-token prompts, "
                  "200-token replies", kb, "model", "context", "gen_tokens", "batch", "ttft_s", "gpu")
    assert got == {"model": "llama-3.1-8b", "context": 1200, "gen_tokens": 200, "batch": 50, "ttft_s": 0.5,
                   "gpu": "l4"}


@pytest.mark.parametrize("text", ["Llama 3.1 8B for 50 users on L4s, under 50 ms per output token",
                                  "Llama 3.1 8B for 50 users on L4s, TPOT under 50 ms",
                                  "Llama 3.1 8B 50个用户，每个token延迟不超过50ms",
                                  "Llama 3.1 8B for 50 users on L4s, at least 20 tokens/s per user"])
def test_a_per_token_latency_is_the_per_user_speed(text: str, kb: KnowledgeBase) -> None:
    got = _fields(text, kb, "batch", "tokens_per_s_per_user", "ttft_s", "gen_tokens", "context")
    assert got == {"batch": 50, "tokens_per_s_per_user": 20.0, "ttft_s": None, "gen_tokens": None, "context": None}


@pytest.mark.parametrize("text", [
    "Qwen2.5-7B on a T4, how much for a million tokens?",
    "what does a million tokens cost with Qwen2.5-7B on a T4",
    "T4 跑 Qwen2.5-7B，一百万 token 多少钱",
])
def test_a_million_tokens_asked_as_a_price_is_a_price_per_token(kb: KnowledgeBase, text: str) -> None:
    # priced at batch 1 it was 84 USD per million against 1.1 at full load for "cost per million tokens"
    question = parse(text, kb)
    assert question.asks_token_cost and question.context is None


def test_a_million_tokens_of_context_is_no_price(kb: KnowledgeBase) -> None:
    assert not parse("Qwen2.5-7B on a T4 for a million tokens of context", kb).asks_token_cost


@pytest.mark.parametrize(("text", "images"), [
    ("Qwen2.5-VL-7B 一次輸入 5 張 1080p 圖片，需要多少顯存？", 5),
    ("Qwen2.5-VL-72B 每次请求输入 10 张图片，20 个并发，需要几张 H20？", 10),
    ("Qwen2.5-VL-7B with 20 input images at 1280x720, 8 concurrent requests, which GPU?", 20),
])
def test_images_a_request_carries_are_neither_cards_nor_a_context(kb: KnowledgeBase, text: str, images: int) -> None:
    # "5 張 … 圖片" was 5 cards (5× V100 for a 7B model) and "10 张图片" a 10-token context (--max-model-len 10)
    question = parse(text, kb)
    assert question.images_per_request == images
    assert question.gpu_count is None and question.context is None


def test_images_to_generate_stay_an_image_count(kb: KnowledgeBase) -> None:
    assert parse("FLUX 生成 1000 张图片要多久", kb).image_count == 1000


@pytest.mark.parametrize("text", [
    "GCP 上用 L4 跑 bge-reranker-v2-m3，每秒 50 次查詢，每次 30 篇 300 token 的文件，要幾張、每月多少？",
    "bge-reranker-v2-m3，每秒 50 个请求，每次 30 篇 300 token 的文档，要几张 L4",
    "bge-reranker-v2-m3 on L4s: 50 queries per second, 30 docs of 300 tokens per query",
])
def test_a_length_between_the_count_and_the_documents_is_each_documents(text: str, kb: KnowledgeBase) -> None:
    # audit 23 HIGH 2: "每次 30 篇 300 token 的文件" lost its 30 documents a query (1 L4 for 1,500 texts/s, not 10)
    got = _fields(text, kb, "qps", "texts_per_request", "context")
    assert got == {"qps": 50.0, "texts_per_request": 30, "context": 300}


@pytest.mark.parametrize(("text", "tokens"), [
    # audit 23 HIGH 4: a total already over the epochs was multiplied by them again (2.4B, twice the time and cost)
    ("LoRA Qwen2.5-14B on 8x A100 80GB, ~600M tokens per epoch, 2 epochs = ~1.2B tokens total, how many hours?",
     1.2e9),
    ("full fine-tune Qwen2.5-7B on 8x A100 80GB, about 1.2B tokens in total (2 epochs of 600M), how long?", 1.2e9),
    ("全参微调 Qwen2.5-7B，8 张 A100，2 个 epoch 共 12 亿 token，要多久", 1.2e9),
    # epochs over a dataset's tokens still multiply them
    ("LoRA Llama 3 8B on 8x A100, 2 epochs over 500M tokens, how long?", 1.0e9),
    ("LoRA Llama 3 8B on 8x A100, 500M tokens for 3 epochs, how long?", 1.5e9),
])
def test_epochs_multiply_a_datasets_tokens_but_not_a_stated_total(text: str, tokens: float, kb: KnowledgeBase) -> None:
    assert _fields(text, kb, "tokens") == {"tokens": tokens}
