"""A budget with an amount: read with its currency and period, never as tokens, hours or a card size."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "amount", "currency", "period"), [
    ("在阿里云上部署DeepSeek-R1-Distill-Qwen-32B，预算每月1万元，推荐什么实例", 10_000, "CNY", "month"),
    ("serve Llama-3-8B for 20 users, budget $1,500 a month", 1_500, "USD", "month"),
    ("Qwen2.5-7B inference under $0.5/hour", 0.5, "USD", "hour"),
    ("每小时不超过20元跑Qwen2.5-14B", 20, "CNY", "hour"),
    ("fine-tune Llama-3-8B with LoRA on 1B tokens, budget of 500 dollars", 500, "USD", "total"),
    ("预算5万，训练Qwen2-7B", 50_000, "CNY", "total"),
    ("budget 1.5k usd monthly for Mistral-7B", 1_500, "USD", "month"),
])
def test_a_budget_is_read_with_its_currency_and_period(text: str, amount: float, currency: str,
                                                       period: str) -> None:
    q = parse(text, KB)
    assert (q.budget_amount, q.budget_currency, q.budget_period) == (amount, currency, period)
    assert q.budget  # a stated sum asks for the cheapest set-up that fits
    assert q.hours is None and q.tokens in (None, 1e9)  # "每月" and "1万" are the budget's, not a duration or tokens


@pytest.mark.parametrize("text", ["Qwen2.5-7B under 24GB", "Llama-3-70B on up to 8 GPUs", "budget GPU for Qwen2.5-7B",
                                  "Llama-3-8B with a 24GB budget card", "Qwen2.5-7B at 4k context under 2 seconds",
                                  "GPU budget of 100 hours for Llama-3-8B LoRA", "budget 48GB for Llama-3-70B",
                                  "budget 2 GPUs for Qwen2.5-7B", "预算2张卡跑Qwen2.5-7B", "budget of 1B tokens"])
def test_numbers_that_are_not_money_are_not_a_budget(text: str) -> None:
    assert parse(text, KB).budget_amount is None


@pytest.mark.parametrize(("text", "amount", "currency"), [
    ("我们有 50 万人民币预算，买什么卡来微调 70B 模型？", 500_000, "CNY"),
    ("我們有 5 萬美元預算，要買什麼 GPU 來微調 Llama 3.1 70B？", 50_000, "USD"),
])
def test_a_sum_written_before_the_word_budget_is_the_budget(text: str, amount: float, currency: str) -> None:
    question = parse(text, default_knowledge())
    assert (question.budget_amount, question.budget_currency, question.budget_period) == (amount, currency, "purchase")


def test_a_currency_is_no_model_name() -> None:
    # "We have 50k USD" answered "I don't know “USD” … Did you mean Stable Diffusion v1.5?"
    question = parse("We have 50k USD, what should we buy for fine-tuning 70B models?", default_knowledge())
    assert question.model_text is None and question.model_suggestions == [] and question.params_b == 70


def test_cost_said_to_matter_more_than_speed_asks_for_the_cheapest() -> None:
    # audit 22 M-1: "Latency matters less than cost" led with the 21.96 USD/h p4d.24xlarge over the 10.49 g6e.12xlarge
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    for text in ("Latency matters less than cost. Qwen2.5-32B AWQ, 8k context, 40 concurrent users on vLLM, which AWS "
                 "instance and what does it cost per month?", "成本优先，Qwen2.5-7B 部署用什么卡",
                 "which GPU for llama 3 8b, cost matters more than speed"):
        assert parse(text, kb).budget, text
    assert not parse("which GPU for llama 3 8b, how much does it cost per month?", kb).budget


def test_round_the_clock_for_a_month_is_billed_for_the_month() -> None:
    # audit 22 M-3: "24 小时不停，一个月多少钱" answered a day's total (206 CNY) instead of the month's 6,263
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    assert parse("阿里云 A10 跑 Qwen2.5-7B，24 小时不停，一个月多少钱？", kb).hours == 730
    assert parse("阿里云 A10 跑 Qwen2.5-7B，一個月多少錢？", kb).hours == 730
    assert parse("阿里云 A10 跑 Qwen2.5-7B，跑 24 小时多少钱？", kb).hours == 24


@pytest.mark.parametrize(("text", "amount", "currency"), [
    ("Buy or rent: an 8x H100 server costs about $250k; we'd use it 24/7 for a year. Which is cheaper?", 250_000,
     "USD"),
    ("should we buy a DGX H100? it costs around 300,000 USD", 300_000, "USD"),
    ("一台 8 卡 H100 服务器要 200 万，买还是租划算？", 2_000_000, "CNY"),
])
def test_what_the_hardware_to_buy_costs_is_a_purchase_sum_not_a_context(text: str, amount: float,
                                                                        currency: str) -> None:
    # audit 38 HIGH-115: "$250k" had been read as a 256,000-token context
    question = parse(text, KB)
    assert (question.budget_amount, question.budget_currency, question.budget_period) == (amount, currency, "purchase")
    assert question.context is None


@pytest.mark.parametrize("text", ["should we buy 2 cards? it costs 3 hours to train Qwen2.5-7B",
                                  "buy an A100 or rent one; the job needs 4 GPUs",
                                  "Should we buy GPUs? Renting an H100 costs $2.5/hour on Lambda, for Llama 3 70B",
                                  "租 H100 每小时要 20 元，买一台划算吗"])
def test_a_cost_in_hours_or_cards_or_a_rental_rate_beside_a_purchase_word_is_no_price(text: str) -> None:
    assert parse(text, KB).budget_amount is None


@pytest.mark.parametrize(("text", "hours"), [
    ("buy a 4090 or rent one for Qwen2.5-7B inference, about 4 hours a day for 2 years", 2 * 8_760 * 4 / 24),
    ("rent 8 H100 for 3 months, 8 hours a day, 5 days a week, how much?", 3 * 730 * 8 / 24 * 5 / 7),
    ("每天用 8 小时，租一个月 A100 多少钱", 730 * 8 / 24),
    ("A100 for 100 hours at 8 hours a day", 100),  # hours of use already
    ("H100 24/7 for 3 months cost", 3 * 730),
])
def test_hours_used_a_day_or_days_a_week_count_the_hours_of_use(text: str, hours: float) -> None:
    # audit 38: "4 hours a day for 2 years" had been billed as 17,520 h around the clock
    assert parse(text, KB).hours == pytest.approx(hours)


@pytest.mark.parametrize(("text", "hours"), [
    ("rent an A100 8 hours a day on weekdays for a year, cost?", 8_760 * 8 / 24 * 5 / 7),
    ("rent 8 H100 for 3 months, 8 hours a day Monday to Friday, how much?", 3 * 730 * 8 / 24 * 5 / 7),
    ("租 H100，一週用 40 小時，用三年，要多少錢？", 3 * 8_760 * 40 / 168),
])
def test_weekdays_and_hours_a_week_count_the_hours_of_use(text: str, hours: float) -> None:
    # audit 40 HIGH-126: "on weekdays", "Monday to Friday" and "40 hours a week" were dropped
    assert parse(text, KB).hours == pytest.approx(hours)
