"""Audit 35's MEDIUM fixes, on the audit's own questions."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    "我們預算總共 5 萬美金，想把 Llama-3.1-8B 用 200 億 token 繼續預訓練，用 H100 夠嗎？要多久？",
    "预算总共 5 万美金，训练 Llama-3.1-8B 200 亿 token",
])
def test_a_total_budget_with_zong_gong_is_read(text: str) -> None:
    # M-130: "预算总共 5 万美金" was dropped ("预算5万美元" was read)
    question = parse(text, KB)
    assert (question.budget_amount, question.budget_currency, question.budget_period) == (50_000, "USD", "total")


def test_a_subscription_month_is_not_the_hourly_rate_times_730() -> None:
    # M-128: "14.63 CNY/小時，730 小時約 7,019 CNY": 14.63 × 730 is 10,680; 7,019 is the 包月 quote
    text = ask_json("阿里雲 ecs.gn8is.2xlarge（L20 48GB）包月大概多少？"
                    "跑 Qwen3-32B FP8 給 30 人同時用、16k 上下文夠嗎？")["text"]
    assert "包月每月 7,019 CNY（按量 14.63 CNY/小時）" in text
    assert "730 小時約 7,019" not in text


def test_an_offload_the_named_instance_cannot_hold_says_so() -> None:
    # M-129: ZeRO-Offload's ≈ 170 GiB of host RAM offered on an ecs.gn6v-c8g1.8xlarge of 128 GiB (cloud.yaml);
    # LOW-201: its 包月 is 730 hours pay-as-you-go, no subscription quote being known, and said
    text = ask_json("阿里云 ecs.gn6v-c8g1.8xlarge 包月多少钱？能全参微调 Qwen2.5-7B 吗？")["text"]
    assert "超过 ecs.gn6v-c8g1.8xlarge 的 128 GiB 内存：这台机器上做不到" in text
    assert "它没有找到公开的包月价格" in text


def test_the_same_gpu_hours_are_not_called_fewer() -> None:
    # LOW-198: 48 cards for a month at 32,524 GPU-hours were "fewer than above", also 32,524
    text = ask_json("FSDP 两机 16 卡 H800 全参训练 Qwen2.5-72B，seq 8k，显存够吗？1000 亿 token 要训多少天？")["text"]
    assert "与上面基本相同" in text and "比上面少" not in text


def test_a_cloud_that_does_not_rent_the_card_asked_prices_the_job_on_one_it_does() -> None:
    # M-132: "and in CNY on Alibaba?" of an L4 (Alibaba rents none) gave only an AWS L4 price in USD; the first
    # card Alibaba rents, a T4 at 7.79 CNY/h, takes the 1,000 h of audio in ≈ 10.9 h, ≈ 85 CNY
    from bot.reply.answer import answer
    from tests.bot.reply._answers import thread

    question = thread("Whisper large-v3 on a T4 for 1000 hours of audio, how long and how much?",
                      "what about on an L4?", "and in CNY on Alibaba?")
    assert question.gpu == "l4" and question.cloud == "alibaba"
    result = answer(question, KB)
    assert result.cost is not None and result.cost.currency == "CNY" and result.cost.gpu == "t4"
    assert result.cost.total == pytest.approx(7.79 * result.speed["job_hours"], rel=0.05)


def test_a_budget_not_compared_names_the_priced_picks_it_could_be_weighed_against() -> None:
    # LOW-203: "能放下这个任务的显卡没有找到公开标价" above a list whose second pick (1× RTX A6000, 0.50 USD/h) has one
    answer = ask_json("每月預算 NT$30,000，要跑 bge-m3 + bge-reranker-v2-m3 做 RAG，QPS 100，用什麼 GPU？")
    assert answer["budget"]["reason"] == "price" and answer["budget"]["uncompared"]
    assert "排在第一的配置沒有公開標價" in answer["text"]
