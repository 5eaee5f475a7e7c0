"""A volume of output to generate ("how long to generate 1M tokens") is a job timed at the generation rate
shown, counted in thousands, never one reply's length in 1,024s."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json as _ask


@pytest.mark.parametrize(("text", "tokens"), [
    ("how long to generate 1M tokens with llama 3 8b on an A10", 1_000_000),
    ("用Qwen2.5-7B在A10上生成1000万个token要多久", 10_000_000),
])
def test_generating_a_volume_of_tokens_is_timed_and_billed(text: str, tokens: int) -> None:
    answer = _ask(text)
    speed = answer["speed"]
    assert answer["understood"]["output_tokens"] == tokens
    assert "gen_tokens" not in answer["understood"]
    # No load stated: generated at full load, the serving plan's rate (at batch 1 a volume takes tens of times longer)
    assert answer["serving"]["binding"] == "volume"
    rate = answer["serving"]["aggregate_tokens_per_s"]
    assert rate > speed["decode_tokens_per_s"]
    assert speed["job_hours"] == pytest.approx(tokens / rate / 3600, rel=0.01)
    assert answer["cost"]["hours"] == pytest.approx(speed["job_hours"], rel=0.01)


def test_one_reply_s_length_stays_a_reply_length() -> None:
    answer = _ask("llama 3 8b generate 512 tokens on an A10")
    assert answer["understood"]["gen_tokens"] == 512
    assert "output_tokens" not in answer["understood"]
    assert "generated tokens 512" in answer["text"]


def test_a_short_job_is_billed_for_its_fraction_of_an_hour() -> None:
    answer = _ask("generate 500k tokens with llama 3 8b on an A10 at batch 32")
    assert answer["cost"]["hours"] < 1
    assert "for 0 h" not in answer["text"]
    assert "32 sequences at a time" in answer["text"]  # the stated batch, not a full-load plan


def test_a_volume_in_words_is_counted_in_thousands() -> None:
    answer = _ask("gpt-oss-20b generate 10 billion tokens on H100, cost")
    assert answer["understood"]["output_tokens"] == 1e10


def test_a_rate_beyond_the_replicas_planned_says_how_many_it_would_take() -> None:
    answer = _ask("need to serve 10 trillion tokens per day of llama 405b, how many gpus")
    plan = answer["serving"]
    assert plan["met"] is False and plan["binding"] == "replica_cap"
    needed = -(-plan["concurrent_needed"] // plan["sequences_per_replica"])
    assert needed > plan["replicas"]
    assert f"about {needed:,} replicas, {needed * plan['gpus_per_replica']:,}" in answer["text"]


def test_a_network_stated_between_machines_is_weighed_against_the_step() -> None:
    answer = _ask("Llama 3.1 405B 在 16 張 H100 上用 bf16 推論，兩台機器之間用 100G 乙太網路，速度會很慢嗎？")
    speed = answer["speed"]
    assert answer["understood"]["inter_node_gbps"] == pytest.approx(100 / 64)
    assert speed["network_gbit"] == 100
    assert speed["handoff_ms_per_token"] < 0.01 * 1000 / speed["decode_tokens_per_s"]  # under 1% of a step
    assert "機器之間（100 Gb/s）" in answer["text"]
    assert "handoff_ms_per_token" not in _ask("Llama 3.1 405B bf16 on 16 H100")["speed"]  # no network stated


def test_a_card_no_count_of_which_holds_the_activations_is_said_to_be_missing_and_why() -> None:
    answer = _ask("We want to full-finetune Qwen2.5-72B with 32k sequence length using FSDP + activation "
                  "checkpointing. How many H100 nodes?")
    assert all(p["gpu"] != "h100-sxm" for p in answer["picks"])
    assert answer["estimate"]["breakdown"]["activations"] > 79.5
    assert "No number of H100 SXM5 80GB holds it" in answer["text"] and "context parallelism" in answer["text"]
    assert "No number of" not in _ask("full-finetune Qwen2.5-7B at 4k on H100s, how many?")["text"]


def test_a_card_that_holds_the_job_but_not_the_rate_asked_is_said_to_fall_short() -> None:
    answer = _ask("BGE-reranker-v2-m3 每秒要處理 500 個 query-doc pair，T4 夠不夠？")
    assert answer["check"]["fits"] is True
    cards = answer["serving"]["replicas"] * answer["serving"]["gpus_per_replica"]
    assert cards > 1
    assert f"下面的服務方案需要 {cards} 張" in answer["text"]


def test_a_training_pick_sized_without_checkpointing_says_so() -> None:
    answer = _ask("Whats teh best gpu for finetunning mistral 7b w/ qlora, budget like 500 bucks total")
    assert answer["understood"]["budget_amount"] == 500
    sized = next(a["value"] for a in answer["assumptions"] if a["field"] == "gradient_checkpointing")
    differing = [p for p in answer["picks"] if p["gradient_checkpointing"] is not None
                 and p["gradient_checkpointing"] != sized]
    assert differing and "without gradient checkpointing (it fits here, and trains faster)" in answer["text"]


def test_a_price_per_token_asked_at_a_stated_load_is_given_for_every_pick() -> None:
    answer = _ask("what's the cost per million output tokens serving Llama-3.1-8B on one L4 with vLLM at 32 "
                  "concurrent, 2k context?")
    priced = [p for p in answer["picks"] if p["price_per_hour"]]
    assert priced and all(p["work_cost"] for p in priced)
    for p in priced:
        assert p["work_cost"] == pytest.approx(p["price_per_hour"] / (p["work_tokens_per_s"] * 3600) * 1e6, rel=0.01)
        assert f"({p['work_cost']:.3g} USD per million output tokens)" in answer["text"] or \
            f"({p['work_cost']:,.2f} USD per million output tokens)" in answer["text"]


def test_how_many_of_a_named_card_is_the_count_that_holds_it_with_room() -> None:
    answer = _ask("用 vLLM 部署 Qwen2.5-72B-Instruct，要求每分钟 300 个请求，输入 2000 token 输出 400 token，"
                  "需要几张 H800？")
    first = answer["picks"][0]
    assert first["gpu"] == "h800" and first["count"] == 4 and not first["tight"]
    assert answer["serving"]["gpu"] == "h800"  # the plan is laid out on the card asked about


def test_a_request_rate_takes_the_replicas_its_prefill_compute_needs() -> None:
    answer = _ask("Need 500 requests per minute on Llama-3.3-70B, 2k in / 500 out, p95 TTFT under 1s. "
                  "How many H100s?")
    plan = answer["serving"]
    prefill = answer["speed"]["prefill_tokens_per_s"]
    assert plan["binding"] == "compute"
    # 8.33 requests/s × 2,548 tokens each must be computed: more than one 4-card replica's worth
    assert plan["replicas"] * plan["gpus_per_replica"] >= 8
    assert prefill > 0
