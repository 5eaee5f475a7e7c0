"""Money: which instances hold N GPUs, and hand-computed hourly, monthly, per-token and per-job costs."""

from __future__ import annotations

from typing import Any

import pytest

from knowledge.fx import parse_fx
from knowledge.loader import load_knowledge
from knowledge.prices import Price
from rules import constants as C
from rules.cost import cheapest_plan, cost_estimate, monthly_cost, plans_for, training_cost


def price(instance: str, count: int, per_hour: float, cloud: str = "c1", **fields: Any) -> Price:
    base: dict[str, Any] = {
        "cloud": cloud,
        "instance": instance,
        "gpu": "h100-sxm",
        "count": count,
        "price_per_hour": per_hour,
        "currency": "USD",
        "region": "r1",
        "authority": "test",
        "source": ["test"],
    }
    return Price.model_validate({**base, **fields})


ROWS = [price("x1", 1, 3.0), price("x4", 4, 14.0), price("x8", 8, 30.0), price("y8", 8, 28.0, cloud="c2")]


def test_one_instance_holds_the_count_when_one_can() -> None:
    # 4 GPUs on c1: one x4 (14.0) — not four x1 (12.0), which would split a tensor-parallel job over 4 nodes
    plan = cheapest_plan(ROWS, "h100-sxm", 4, currency="USD", cloud="c1")
    assert plan is not None and (plan.price.instance, plan.instances, plan.per_hour) == ("x4", 1, 14.0)
    split = cheapest_plan(ROWS, "h100-sxm", 4, currency="USD", cloud="c1", split_ok=True)
    assert split is not None and (split.price.instance, split.instances, split.per_hour) == ("x1", 4, 12.0)


def test_a_cloud_without_an_instance_of_that_many_cards_has_no_plan_for_one_job() -> None:
    # c3 rents these cards one per VM: two of them are not a 2-GPU tensor-parallel node, so c3 offers no
    # plan for 2 (the cheaper 2 × 1.0 would be a price for something that cannot run), only c1's x4.
    rows = [*ROWS, price("z1", 1, 1.0, cloud="c3")]
    plan = cheapest_plan(rows, "h100-sxm", 2, currency="USD")
    assert plan is not None and (plan.price.cloud, plan.price.instance, plan.per_hour) == ("c1", "x4", 14.0)
    assert cheapest_plan([price("z1", 1, 1.0, cloud="c3")], "h100-sxm", 2, currency="USD") is None
    replicas = cheapest_plan(rows, "h100-sxm", 2, currency="USD", split_ok=True)
    assert replicas is not None and (replicas.price.instance, replicas.instances) == ("z1", 2)


def test_more_than_one_instance_counts_each_at_full_price() -> None:
    # 12 GPUs: 2 × 8-GPU instances (16 GPUs paid): c1 2 × 30 = 60, c2 2 × 28 = 56 → c2
    plan = cheapest_plan(ROWS, "h100-sxm", 12, currency="USD")
    assert plan is not None and (plan.price.cloud, plan.instances, plan.gpus, plan.per_hour) == ("c2", 2, 16, 56.0)
    # 16 GPUs = 2 × 8 exactly; the preferred cloud wins even when dearer (2 × 30 = 60 > 56)
    preferred = cheapest_plan(ROWS, "h100-sxm", 16, currency="USD", prefer_cloud="C1")
    assert preferred is not None and (preferred.price.instance, preferred.per_hour) == ("x8", 60.0)


def test_a_gap_stays_a_gap_and_unquotable_rows_are_skipped() -> None:
    assert cheapest_plan(ROWS, "h20", 1, currency="USD") is None
    broken = [price("z", 1, 1.0).model_copy(update={"price_per_hour": 0.0})]
    assert plans_for(broken, "h100-sxm", 1) == []
    with pytest.raises(ValueError):
        plans_for(ROWS, "h100-sxm", 0)


def test_currencies_are_not_compared_without_a_rate() -> None:
    rows = [price("cn1", 1, 20.0, cloud="ali", currency="CNY"), price("us1", 1, 3.0, cloud="us")]
    plan = cheapest_plan(rows, "h100-sxm", 1, currency="USD")
    assert plan is not None and plan.price.cloud == "us" and not plan.converted
    # asked in CNY without a rate: only the CNY row is compared; 20 CNY is not "more" than 3 USD
    cny = cheapest_plan(rows, "h100-sxm", 1, currency="CNY")
    assert cny is not None and (cny.price.cloud, cny.per_hour, cny.currency) == ("ali", 20.0, "CNY")
    # with USD/CNY=8: 20 CNY = 2.5 USD < 3 USD, and the plan says it was converted and with what
    rated = cheapest_plan(rows, "h100-sxm", 1, currency="USD", rates=parse_fx("USD/CNY=8@2026-11-30"))
    assert rated is not None and rated.price.cloud == "ali" and rated.per_hour == pytest.approx(2.5)
    assert rated.rate is not None and rated.rate.date == "2026-11-30"
    # no plan in the asked currency at all: the plans of one currency are compared, none converted
    only_cny = cheapest_plan(rows[:1], "h100-sxm", 1, currency="USD")
    assert only_cny is not None and only_cny.currency == "CNY"


def test_month_and_job() -> None:
    assert C.HOURS_PER_MONTH == 730.0
    assert monthly_cost(2.0) == pytest.approx(1460.0)
    assert training_cost(63.68, 10.0) == pytest.approx(636.8)
    with pytest.raises(ValueError):
        training_cost(-1.0, 1.0)


# ---------------------------------------------------------------------------- with the shipped prices


def test_training_total_from_6pd_and_a_shipped_price() -> None:
    """3B parameters on 300B tokens over 32 A100 40GB at a stated 50% of the 312 TFLOPS BF16 peak.

    6·P·D = 6 × 3e9 × 300e9 = 5.4e21 FLOP; throughput 32 × 312e12 × 0.5 = 4.992e15 FLOP/s
    → 1,081,730.8 s = 300.4808 h. Cheapest USD plan: Lambda gpu_8x_a100 at 15.92 $/h (shipped),
    4 instances = 63.68 $/h (AWS p4d: 4 × 21.95764 = 87.83). Total 300.4808 × 63.68 = 19,134.62 USD.
    """
    kb = load_knowledge()
    hours = 6 * 3e9 * 300e9 / (32 * 312e12 * 0.5) / 3600
    assert hours == pytest.approx(300.4808, abs=1e-4)
    plan = cheapest_plan(kb.prices.values(), "a100-40gb", 32, currency="USD")
    assert plan is not None
    assert (plan.price.cloud, plan.price.instance, plan.price.price_per_hour) == ("lambda", "gpu_8x_a100", 15.92)
    cost = cost_estimate(plan, hours=hours)
    assert (cost.instances, cost.per_hour) == (4, pytest.approx(63.68))
    assert cost.total == pytest.approx(19134.62, abs=0.01)
    assert cost.price_date is None and "skypilot-catalog" in cost.source[0]  # date unknown, source named


def test_chinese_question_prefers_alibaba_in_cny() -> None:
    # 32 A100 40GB on Alibaba: 4 × ecs.gn7-c13g1.26xlarge at 227.4 CNY/h (cn-wulanchabu, 2024-12-31) = 909.6
    kb = load_knowledge()
    plan = cheapest_plan(kb.prices.values(), "a100-40gb", 32, currency="CNY", prefer_cloud="alibaba")
    assert plan is not None
    assert (plan.price.instance, plan.instances, plan.currency) == ("ecs.gn7-c13g1.26xlarge", 4, "CNY")
    assert plan.per_hour == pytest.approx(909.6)
    assert plan.price.date == "2024-12-31"


def test_serving_cost_per_million_tokens_and_month_from_a_shipped_price() -> None:
    """One L4 on AWS g6.xlarge, 0.8048 $/h (us-east-1, 2026-01-21), serving 40 tokens/s in aggregate.

    per million tokens: 0.8048 / (40 × 3600) × 1e6 = 5.5889 $; per month: 0.8048 × 730 = 587.504 $.
    GCP's L4 row (0.55821 $/h) is the GPU alone, so it is not a plan.
    """
    kb = load_knowledge()
    plan = cheapest_plan(kb.prices.values(), "l4", 1, currency="USD")
    assert plan is not None and (plan.price.cloud, plan.price.instance) == ("aws", "g6.xlarge")
    cost = cost_estimate(plan, tokens_per_s=40.0)
    assert cost.per_hour == pytest.approx(0.8048)
    assert cost.per_million_tokens == pytest.approx(5.5889, abs=1e-4)
    assert cost.per_month == pytest.approx(587.504)
    assert (cost.price_date, cost.region, cost.total) == ("2026-01-21", "us-east-1", None)
