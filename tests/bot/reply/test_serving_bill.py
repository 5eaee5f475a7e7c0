"""Serving plans are chosen, priced and shown by one bill: the cheapest replica size for the load, not the fewest
cards, and replicas rented the cheaper of one instance each or several to a machine."""

from __future__ import annotations

from bot.reply.pricing import PriceChoice, plan_bill, plan_for
from tests.bot.reply._answers import KB
from tests.bot.reply._answers import ask_json as _ask

USD = PriceChoice(currency="USD", rates=())


def _price(instance: str) -> float:
    return next(row.price_per_hour for row in KB.prices.values() if row.instance == instance)


def test_one_card_replicas_beat_a_tensor_parallel_pair_billed_on_a_four_card_box() -> None:
    # audit 21 M-13: 80 agents × 3 questions a minute = 4 requests/s of Llama 3.1 8B (1,500 in, 250 out). Two L4s in
    # tensor parallel rent only as AWS's 4-card g6.12xlarge (4.60 USD/h); one-card replicas rent as g6.xlarge
    answer = _ask("客服團隊 80 人，每人每分鐘問 3 個問題，Llama 3.1 8B，輸入 1500 輸出 250，要幾張 L4？")
    plan, cost, top = answer["serving"], answer["cost"], answer["picks"][0]
    assert plan["met"] and plan["gpus_per_replica"] == 1
    assert cost["instance"] == "g6.xlarge" and cost["instances"] == plan["replicas"]
    assert cost["per_hour"] == round(plan["replicas"] * _price("g6.xlarge"), 4) < _price("g6.12xlarge")
    # the pick line is the plan, billed as the cost block bills it
    assert (top["gpu"], top["count"], top["replicas"]) == ("l4", plan["replicas"], plan["replicas"])
    assert top["price_per_hour"] == cost["per_hour"]


def test_replicas_share_a_bigger_machine_when_it_rents_for_less() -> None:
    # 4 H100 SXM rent for 16.36 USD/h at the cheapest (Lambda), 8 for 19.20 (Hyperstack): two 4-card replicas run
    # on the 8-card machine rather than two 4-card ones at 32.72
    four = plan_for(KB, "h100-sxm", 4, USD)
    assert four is not None and (four.price.count, four.per_hour) == (4, 16.36)
    two_replicas = plan_bill(KB, "h100-sxm", 4, 2, USD)
    assert two_replicas is not None
    assert (two_replicas.price.count, two_replicas.instances, two_replicas.per_hour) == (8, 1, 19.2)
    # one replica is billed as itself
    assert plan_bill(KB, "h100-sxm", 4, 1, USD) == four


def test_replicas_that_do_not_divide_the_bigger_machine_keep_their_own_instances() -> None:
    # three one-card L4 replicas: a 4-card g6.12xlarge (4.60) costs more than 3 × g6.xlarge (2.41)
    three = plan_bill(KB, "l4", 1, 3, USD)
    assert three is not None and three.price.instance == "g6.xlarge" and three.instances == 3
    assert three.per_hour == 3 * _price("g6.xlarge")


def test_a_rate_on_named_h100s_is_laid_out_as_the_cheapest_replicas_that_meet_it() -> None:
    answer = _ask("Need 500 requests per minute on Llama-3.3-70B, 2k in / 500 out, p95 TTFT under 1s. "
                  "How many H100s?")
    plan = answer["serving"]
    # two 4-card replicas on one 8-card machine cost the same hour as one 8-card replica: the smaller replicas,
    # each prefilling its own prompts, are kept
    assert plan["met"] and (plan["replicas"], plan["gpus_per_replica"]) == (2, 4)
    assert answer["cost"]["instances"] == 1 and answer["cost"]["count"] == 8
