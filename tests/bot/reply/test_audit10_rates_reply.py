"""Audit 10 through the reply: service rates in words plan replicas, price units stay out of the context, reply
lengths are the generated tokens."""

from __future__ import annotations

import math

import pytest

from tests.bot.reply._answers import ask_json


def test_a_reranker_plans_for_every_query_document_pair() -> None:
    answer = ask_json("bge-reranker-v2-m3: rerank 100 docs per query at 50 queries per second, which GPU and how many?")
    serving = answer["serving"]
    rate = serving["targets"]["sequences_per_s_per_replica"]
    assert serving["binding"] == "throughput"
    assert serving["targets"]["sequences_per_s"] == 5000 and serving["targets"]["texts_per_request"] == 100
    assert abs(serving["replicas"] - math.ceil(5000 / rate)) <= 1  # 5,000 pairs a second, not 50 sequences
    assert serving["aggregate_tokens_per_s"] == 5000 * answer["query"]["context"]
    assert "documents" not in answer["speed"]  # no 100-document job
    assert "50 requests/s × 100 texts each = 5,000 texts/s to encode" in answer["text"]


def test_an_encoder_s_replicas_are_single_cards_on_every_pick() -> None:
    # audit 32 M-108: the A10 pick said "73 replicas × 4 cards (the layers split across the cards of each)" for a
    # 1.1 GiB reranker while its count was 292 one-card replicas' worth of throughput
    answer = ask_json("bge-reranker-v2-m3 每秒 500 個查詢，每個查詢 100 個候選文件，要幾張卡")
    assert answer["serving"]["gpus_per_replica"] == 1
    picks = [p for p in answer["picks"] if p.get("replicas")]
    assert picks and all(p["count"] == p["replicas"] for p in picks)
    assert "按層切分" not in answer["text"] and "layers split" not in answer["text"]


@pytest.mark.parametrize("text", ["bge-m3 部署embedding服务，每秒1000条，每条300 token，需要几张T4？",
                                  "bge-m3 embedding service, 1000 texts per second, 300 tokens each, how many T4?"])
def test_texts_a_second_plan_replicas_like_qps(text: str) -> None:
    answer = ask_json(text)
    same = ask_json("bge-m3 embedding service, 1000 QPS, 300 tokens each, how many T4?")
    assert answer["query"]["context"] == 300
    assert answer["serving"] is not None and answer["serving"]["replicas"] == same["serving"]["replicas"] > 1
    assert answer["serving"]["aggregate_tokens_per_s"] == 1000 * 300


@pytest.mark.parametrize("text", ["T4 跑 Qwen2.5-7B 推理，一小時多少錢？一百萬 token 多少錢？",
                                  "Qwen2.5-7B 每百万 token 成本"])
def test_a_price_per_million_tokens_keeps_the_default_context(text: str) -> None:
    answer = ask_json(text)
    assert answer["query"]["context"] == 4096
    assert any(a["field"] == "context" for a in answer["assumptions"])
    assert answer["cost"]["per_million_tokens"] is not None


def test_reply_length_is_generated_not_half_the_context() -> None:
    answer = ask_json("Llama 3.1 8B for 50 users on L4s, time to first token under 0.5 s, 1000-token prompts, "
                      "200-token replies")
    assert answer["query"]["context"] == 1200
    assert not any(a["field"] == "gen_tokens" for a in answer["assumptions"])
    assert "generated tokens 200" in answer["text"]


def test_a_per_token_latency_sets_the_per_user_speed_target() -> None:
    answer = ask_json("Llama 3.1 8B for 50 users on L4s, under 50 ms per output token")
    assert answer["serving"]["targets"]["tokens_per_s_per_user"] == 20.0
    assert "20 tok/s per user" in answer["text"]


def test_one_image_of_a_size_is_timed_per_image_not_as_1024_images() -> None:
    answer = ask_json("FLUX.1-schnell how many seconds for one 1024 image on an RTX 4080?")
    assert answer["query"]["image_resolution"] == 1024
    assert "images" not in answer["speed"] and "1,024 images" not in answer["text"]
