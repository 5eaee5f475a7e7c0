"""An offline job over counted documents ("summarise 1M articles of 2k tokens into 200-token summaries") is timed
as what it is: every prompt prefilled and every output generated at a serving engine's full load, then billed."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse as understand
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json as _ask

KB = default_knowledge()

SUMMARIES = ("we need to summarize 1 million documents of 2000 tokens each into 200-token summaries with "
             "Llama-3.1-8B on H100, how long and how much?")


def test_documents_to_summarise_are_requests_not_training_tokens() -> None:
    q = understand(SUMMARIES, KB)
    assert q.batch_job and q.training_samples == 1_000_000
    assert q.tokens is None  # not a 2B-token training budget
    assert q.gen_tokens == 200 and q.context == 2200  # the document is the prompt, the summary its output
    assert q.output_tokens == 200_000_000


def test_the_job_time_is_prefill_plus_generation_and_the_bill_covers_it() -> None:
    answer = _ask(SUMMARIES)
    speed, plan = answer["speed"], answer["serving"]
    assert answer["understood"]["documents"] == 1_000_000
    assert plan["binding"] == "volume"  # full load, not one request at a time
    prefill_h = 2e9 / speed["prefill_tokens_per_s"] / 3600
    generation_h = 2e8 / plan["aggregate_tokens_per_s"] / 3600
    assert speed["prefill_hours"] == pytest.approx(prefill_h, rel=0.01)
    assert speed["generation_hours"] == pytest.approx(generation_h, rel=0.01)
    assert speed["job_hours"] == pytest.approx(prefill_h + generation_h, rel=0.01)
    assert answer["cost"]["hours"] == pytest.approx(speed["job_hours"], rel=0.01)
    assert answer["cost"]["total"] == pytest.approx(speed["job_hours"] * answer["cost"]["per_hour"], rel=0.02)
    assert "1,000,000 requests on 1× H100" in answer["text"]
    assert "prefill of 2,000,000,000 prompt tokens" in answer["text"]
    assert not any(a["field"] == "batch" for a in answer["assumptions"])  # the plan states its load


def test_an_unstated_output_length_is_assumed_and_said() -> None:
    answer = _ask("classify 500k support tickets of 300 tokens each with Qwen2.5-7B, how long on one L40S?")
    assumed = {a["field"]: a for a in answer["assumptions"]}
    assert assumed["gen_tokens"]["value"] == 256
    assert assumed["engine"]["value"] == "vllm" and assumed["engine"]["reason"] == "batch-job"
    assert answer["speed"]["output_tokens"] == 500_000 * 256
    assert "output per document not stated" in answer["text"]


@pytest.mark.parametrize("text", [
    "用Qwen2.5-14B给10万篇文章做摘要，每篇3000 token，摘要200个token，A100要跑多久，多少钱",
    "用Qwen2.5-14B給10萬篇文章做摘要，每篇3000 token，摘要200個token，A100要跑多久，多少錢",
])
def test_a_chinese_batch_job_is_read_the_same_way(text: str) -> None:
    answer = _ask(text)
    assert answer["speed"]["requests"] == 100_000
    assert answer["speed"]["prompt_tokens"] == 300_000_000
    assert answer["speed"]["output_tokens"] == 20_000_000
    assert "预填充" in answer["text"] or "預填充" in answer["text"]


def test_documents_in_a_fine_tune_stay_its_training_data() -> None:
    q = understand("fine-tune Llama-3.1-8B on 1M docs of 2k tokens", KB)
    assert not q.batch_job and q.tokens == pytest.approx(1e6 * 2048)


def test_documents_without_a_job_word_are_not_guessed_to_be_inference() -> None:
    q = understand("Llama-3.1-8B with 1M docs of 2k tokens on 8 H100", KB)
    assert not q.batch_job


def test_a_latency_target_is_met_by_every_pick_and_the_plan() -> None:
    answer = _ask("What's the cheapest way to serve Qwen2.5-7B-Instruct for ~200 req/min, avg 1.5k prompt + 300 "
                  "output tokens? Need p50 latency under 3s")
    assert answer["understood"]["qps"] == pytest.approx(200 / 60)
    assert answer["serving"]["decode_tokens_per_s"] >= 100  # 300 tokens within 3 s
    assert all(p["decode_tokens_per_s"] >= 100 for p in answer["picks"])  # none that misses the target
    prices = [p["price_per_hour"] for p in answer["picks"] if p["price_per_hour"] is not None]
    assert prices == sorted(prices)  # the cheapest asked: by price among those that meet it


def test_a_throughput_question_is_answered_at_full_load() -> None:
    answer = _ask("Qwen3-235B-A22B 用 SGLang 部署，8 張 H100 用 FP8，平均 2k 輸入 500 輸出，每秒能處理多少 token？")
    plan = answer["serving"]
    assert plan["binding"] == "concurrency" and plan["sequences_per_replica"] > 1
    assert plan["aggregate_tokens_per_s"] > 10 * plan["decode_tokens_per_s"]


@pytest.mark.parametrize(("text", "qps"), [
    ("bge-m3 做 embedding，每天 5000 万条文本，每条平均 300 token，用什么卡最省钱", 5e7 / 86400),
    ("embed 10M documents of 500 tokens a day with bge-m3 on L4", 1e7 / 86400),
    ("summarize 100k articles of 3000 tokens a day into 200-token summaries with Qwen2.5-14B on A100", 1e5 / 86400),
])
def test_documents_every_day_are_a_rate_to_keep_up_with_not_one_job(text: str, qps: float) -> None:
    answer = _ask(text)
    assert answer["understood"]["qps"] == pytest.approx(qps)
    assert "documents" not in answer["understood"] and not answer["speed"].get("job_hours")
    plan = answer["serving"]
    assert plan is not None and plan["met"]
    if plan["binding"] == "throughput":  # an encoder: replicas enough for the rate
        per_replica = plan["targets"]["sequences_per_s_per_replica"]
        assert plan["replicas"] * per_replica >= qps


def test_the_cheapest_batch_job_is_the_one_that_costs_least_in_all() -> None:
    answer = _ask("We need to summarise 2M documents of ~3k tokens each with Llama-3.1-8B-Instruct, ~200 token "
                  "summaries. Cheapest GPU setup and total job cost?")
    top = answer["cost"]["total"]
    assert top is not None
    t4 = _ask("summarise 2M documents of ~3k tokens each with Llama-3.1-8B-Instruct, ~200 token summaries, on a "
              "T4, cheapest, total job cost?")["cost"]["total"]
    assert top < t4  # the prefill-bound job is cheaper on a card with more compute per dollar


def test_a_price_per_token_compared_is_at_each_card_s_full_load() -> None:
    answer = _ask("每百万 token 成本：Qwen2.5-32B 在阿里云 A10 和 L20 上哪个便宜？")
    cost = {p["gpu"]: p["work_cost"] for p in answer["picks"]}
    assert cost["l20"] < cost["a10"] / 5  # the L20 holds ~24 sequences, the A10 one


@pytest.mark.parametrize(("text", "requests", "prompt", "output"), [
    ("Batch translate 500k product descriptions (300 tokens in, 300 out) with Qwen2.5-7B on a single 4090, how long?",
     500_000, 300, 300),
    ("離線把 50 萬份合約（每份 8k token）用 Llama-3.1-70B 做摘要，每份摘要 500 token，8 張 H100 要多久？",
     500_000, 8192, 500),
])
def test_a_batch_job_with_its_lengths_written_any_way_is_timed(text: str, requests: int, prompt: int,
                                                               output: int) -> None:
    speed = _ask(text)["speed"]
    assert speed["requests"] == requests
    assert speed["prompt_tokens"] == requests * prompt and speed["output_tokens"] == requests * output
    assert speed["job_hours"] == pytest.approx(speed["prefill_hours"] + speed["generation_hours"], rel=0.02)
