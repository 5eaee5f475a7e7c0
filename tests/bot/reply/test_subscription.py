"""A monthly subscription (包月) asked for is priced at the cloud's subscription quote where the source gives one,
and said to be unknown where it does not (audit 23 M-22: 包月 was 730 pay-as-you-go hours, 10,680 CNY against the
7,019.25 CNY quote for the same L20 instance in the same document)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


@pytest.mark.parametrize(("text", "asked"), [
    ("阿里云 L20 跑 Qwen2.5-32B-AWQ，包月多少钱？", True),
    ("阿里雲 L20 跑 Qwen2.5-32B-AWQ，包年包月多少錢？", True),
    ("Qwen2.5-32B-AWQ on an Alibaba Cloud L20: monthly subscription price?", True),
    ("Qwen2.5-32B-AWQ on an Alibaba Cloud L20 24/7: how much a month?", False),
    ("Qwen2.5-32B-AWQ on an Alibaba Cloud L20 for a month", False),
])
def test_a_subscription_is_read_only_when_asked(kb: KnowledgeBase, text: str, asked: bool) -> None:
    question = parse(text, kb)
    assert question.subscription is asked and question.hours == 730


def test_a_quoted_subscription_is_the_month_asked_for(kb: KnowledgeBase) -> None:
    result = answer(parse("阿里云 L20 跑 Qwen2.5-32B-AWQ，包月多少钱？", kb), kb)
    cost = result.cost
    assert cost is not None and cost.instance == "ecs.gn8is.2xlarge" and cost.by_subscription
    # one instance: the quote itself; 730 pay-as-you-go hours would be 14.63 × 730 = 10,679.9
    assert cost.per_month == pytest.approx(7019.25) and cost.total == pytest.approx(7019.25)
    text = render_text(result, kb)
    assert "包月每月 7,019 CNY" in text and "10,680 CNY" in text and "低 34%" in text
    assert "按 730 小时）" not in text


def test_months_bought_whole(kb: KnowledgeBase) -> None:
    result = answer(parse("Qwen2.5-32B-AWQ on an Alibaba Cloud L20 on a monthly subscription for 6 weeks", kb), kb)
    assert result.cost is not None and result.cost.total == pytest.approx(2 * 7019.25)
    assert "for 2 subscription month(s)" in render_text(result, kb)


def test_without_a_quote_the_gap_is_said(kb: KnowledgeBase) -> None:
    result = answer(parse("阿里云 A100 80GB 跑 Qwen2.5-32B，包月多少钱？", kb), kb)
    assert result.cost is not None and not result.cost.by_subscription
    assert result.cost.subscription_per_month is None
    assert "没有找到 " + (result.cost.instance or "?") + " 公开的包月价格" in render_text(result, kb)


def test_a_month_of_rent_mentions_a_quoted_subscription(kb: KnowledgeBase) -> None:
    result = answer(parse("Qwen2.5-32B-AWQ on an Alibaba Cloud L20 24/7: how much a month?", kb), kb)
    assert result.cost is not None and not result.cost.by_subscription
    assert result.cost.per_month == pytest.approx(14.63 * 730, rel=1e-3)
    assert "A monthly subscription is quoted at 7,019 CNY a month, 34% below" in render_text(result, kb)


def test_a_row_with_a_quote_is_taken_when_a_subscription_is_asked(kb: KnowledgeBase) -> None:
    # the A10's cheapest hourly row (8.58 CNY, 2024 file) has no subscription quote; the 2026 API row (9.74 CNY)
    # quotes 4,675.66 a month, which is what "包月" asks for
    result = answer(parse("阿里云 A10 跑 Qwen2.5-7B，包月价格多少？", kb), kb)
    assert result.cost is not None and result.cost.by_subscription
    assert result.cost.per_month == pytest.approx(4675.66)
    hourly = answer(parse("阿里云 A10 跑 Qwen2.5-7B，一个月多少钱？", kb), kb)
    assert hourly.cost is not None and not hourly.cost.by_subscription and hourly.cost.per_hour == pytest.approx(8.5794)


def test_a_monthly_budget_is_weighed_against_the_subscription_month_another_source_quotes(kb: KnowledgeBase) -> None:
    # audit 32 M-97: the cheapest hourly row of ecs.gn7i-c8g1.2xlarge (8.5794 CNY/h, 2024-12-31) quotes no month,
    # and 5,000 CNY a month was judged over budget at 8.5794 × 730 = 6,263 CNY although a 2026-09-24 DescribePrice
    # quote gives 4,675.66 CNY for the subscription month
    result = answer(parse("阿里云上跑 DeepSeek-R1-Distill-Qwen-32B AWQ，每月预算 5000 元，够吗？", kb), kb)
    cost, budget = result.cost, result.budget
    assert cost is not None and cost.instance == "ecs.gn7i-c8g1.2xlarge"
    assert cost.subscription_per_month == pytest.approx(4675.66) and cost.subscription_date == "2026-09-24"
    assert budget is not None and budget.by_subscription and budget.within
    assert budget.cost == pytest.approx(4675.66)
    assert "包月在你的预算内（每月5,000 CNY）：这套配置包月报价约 4,676 CNY" in render_text(result, kb)
    # a month's budget below even the subscription stays over it, said as such
    tight = answer(parse("阿里云上跑 DeepSeek-R1-Distill-Qwen-32B AWQ，每月预算 4000 元，够吗？", kb), kb)
    assert tight.budget is not None and tight.budget.by_subscription and tight.budget.within is False
    assert "即使包月也超出你的预算" in render_text(tight, kb)


def test_a_subscription_asked_of_an_instance_names_the_other_source_s_date(kb: KnowledgeBase) -> None:
    text = render_text(answer(parse("阿里云 ecs.gn7i-c8g1.2xlarge 包月多少钱", kb), kb), kb)
    assert "包月每月 4,676 CNY" in text and "2026-09-24 的报价，与按量价格出处不同" in text
    assert "没有找到" not in text
