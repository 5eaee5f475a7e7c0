"""An encoder asked to embed a counted set of documents: the job is timed and billed, not left at a rate."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json as _ask


def test_documents_are_timed_at_the_shown_rate_and_billed_for_that_run() -> None:
    answer = _ask("bert-large embeddings for 10M documents on a T4, how long?")
    speed = answer["speed"]
    assert speed["documents"] == 10_000_000
    # an offline job encodes in batches: faster than the one-at-a-time rate the speed line shows
    assert speed["documents_per_s"] > speed["sequences_per_s"]
    assert speed["job_hours"] == pytest.approx(1e7 / speed["documents_per_s"] / 3600, rel=0.01)
    assert answer["cost"]["hours"] == pytest.approx(speed["job_hours"], rel=0.01)
    assert answer["cost"]["total"] == pytest.approx(answer["cost"]["per_hour"] * answer["cost"]["hours"], rel=0.01)
    assert "10,000,000 documents" in answer["text"]


def test_documents_of_a_stated_length_are_not_a_token_budget() -> None:
    answer = _ask("embed 1M docs of 256 tokens each with bert-base on an A10")
    assert answer["query"]["context"] == 256
    assert answer["query"]["tokens"] is None
    assert answer["understood"]["documents"] == 1_000_000
    assert answer["speed"]["documents"] == 1_000_000


def test_vectorising_text_is_not_quantising_the_model() -> None:
    answer = _ask("用bert-base在A10上做100万条文本的向量化要多久")
    assert answer["query"]["quant"] is None and answer["query"]["precision"] != "int8"
    assert answer["speed"]["documents"] == 1_000_000


def test_a_training_sample_count_is_not_an_encoding_job() -> None:
    answer = _ask("fine-tune bert-base on 1M samples on an A10")
    assert "documents" not in answer["speed"]


def test_an_embedding_model_is_known_and_served_in_half_precision_unless_fp32_is_asked() -> None:
    answer = _ask("bge-m3 embeddings for 10M documents on a T4, how long?")
    assert answer["query"]["model"] == "bge-m3"
    # 567,754,752 parameters × 2 bytes: the fp32 checkpoint served in fp16 (FlagEmbedding's use_fp16=True)
    assert answer["query"]["precision"] == "fp16"
    assert answer["estimate"]["breakdown"]["weights"] == pytest.approx(567_754_752 * 2 / 2**30, abs=0.05)
    assert answer["speed"]["documents"] == 10_000_000
    fp32 = _ask("bge-m3 embeddings in fp32 for 10M documents on a T4, how long?")
    assert fp32["estimate"]["breakdown"]["weights"] == pytest.approx(567_754_752 * 4 / 2**30, abs=0.05)


def test_a_chinese_embedding_job_names_the_chinese_model() -> None:
    answer = _ask("bge-large-zh-v1.5 向量化100万条文本要多久")
    assert answer["query"]["model"] == "bge-large-zh-v1.5"
    assert answer["speed"]["documents"] == 1_000_000


@pytest.mark.parametrize("text", ["bge-reranker-v2-m3 rerank 1M pairs on an L4",
                                  "bge-reranker-v2-m3 给100万对文本打分要多久"])
def test_query_document_pairs_scored_by_a_reranker_are_counted_like_documents(text: str) -> None:
    answer = _ask(text)
    assert answer["query"]["model"] == "bge-reranker-v2-m3"
    assert answer["speed"]["documents"] == 1_000_000


def test_an_encoder_served_at_a_request_rate_is_planned_by_the_sequences_a_replica_encodes() -> None:
    # no KV cache and no decoding: replicas = ceil(QPS / sequences a second at a batch of 32)
    import math

    from tests.bot.reply._answers import ask_json

    answer = ask_json("bge-reranker-v2-m3 at 200 queries per second, 512 tokens each")
    serving = answer["serving"]
    assert answer["query"]["context"] == 512 and serving["binding"] == "throughput"
    rate = serving["targets"]["sequences_per_s_per_replica"]
    assert abs(serving["replicas"] - math.ceil(200 / rate)) <= 1  # the rate is reported to 0.01
    assert serving["decode_tokens_per_s"] is None
    assert serving["aggregate_tokens_per_s"] == 200 * 512
    assert "per million tokens encoded" in answer["text"] and "output tokens" not in answer["text"]


def test_an_embedding_request_with_no_length_is_a_retrieval_chunk_even_on_a_long_window_embedder() -> None:
    # bge-m3 takes 8,192 tokens; a request was sized at 4,096 (5.4 sequences a second on a T4) where the chunks
    # retrieval pipelines embed are a few hundred tokens (29 a second at 512)
    from tests.bot.reply._answers import ask_json

    reply = ask_json("bge-m3 做embedding，一张T4每秒能处理多少条")
    assert reply["query"]["context"] == 512
    said = next(a for a in reply["assumptions"] if a["field"] == "context")
    assert said["reason"] == "encoder-request-length"


def test_several_cards_encode_a_copy_each() -> None:
    four = _ask("Embedding 100M passages of 512 tokens with bge-large-en-v1.5 offline — how long on 4x L4?")["speed"]
    one = _ask("Embedding 100M passages of 512 tokens with bge-large-en-v1.5 offline — how long on 1x L4?")["speed"]
    assert four["job_hours"] == pytest.approx(one["job_hours"] / 4, rel=0.02)
