"""An instance type named is the one priced: "g5.2xlarge" costs more than the g5.xlarge with the same A10G, and
a price per token is given at the load the side by side prices, not at one sequence (audit 17 M-10)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _price(instance: str) -> float:
    return min(row.price_per_hour for row in KB.prices.values() if row.instance == instance)


def test_the_named_size_is_priced_not_the_family_cheapest() -> None:
    result = answer(parse("serve Mistral 7B on a g5.2xlarge, cost per month?", KB), KB)
    assert result.cost is not None and result.cost.instance == "g5.2xlarge"
    assert result.cost.per_hour == _price("g5.2xlarge") > _price("g5.xlarge")
    assert result.picks[0].instance == "g5.2xlarge"
    # another card than the one named keeps its cheapest instance
    assert next(p for p in result.picks if p.gpu == "l4").instance == "g6.xlarge"


def test_two_named_sizes_compared_are_each_priced_and_the_cost_block_agrees() -> None:
    result = answer(parse("USD per million output tokens for Mistral 7B: g5.2xlarge vs g6.2xlarge?", KB), KB)
    by_card = {p.gpu: p for p in result.picks}
    assert by_card["a10g"].price_per_hour == _price("g5.2xlarge")
    assert by_card["l4"].price_per_hour == _price("g6.2xlarge")
    a10g = by_card["a10g"]
    assert a10g.work_cost is not None and a10g.work_tokens_per_s is not None
    assert a10g.work_cost == round(_price("g5.2xlarge") / (a10g.work_tokens_per_s * 3600) * 1e6, 3)
    # the cost block prices the same load as the side by side, not one sequence's decode
    assert result.cost is not None and result.cost.tokens_per_s == a10g.work_tokens_per_s
    assert abs((result.cost.per_million_tokens or 0) - a10g.work_cost) < 0.01
    text = render_text(result, kb=KB)
    assert f"{a10g.work_cost:.3g} USD per million output tokens at ≈ {a10g.work_tokens_per_s:,.0f} tok/s" in text


def test_chinese_price_per_output_token_is_a_token_cost_question() -> None:
    question = parse("Mistral 7B 在 g5.2xlarge 上每百万输出 token 多少钱", KB)
    assert question.asks_token_cost and question.named_instances == {"a10g": "g5.2xlarge"}
    result = answer(question, KB)
    assert result.cost is not None and result.cost.tokens_per_s and result.cost.tokens_per_s > 100
    cost = result.cost
    assert f"每百万输出 token {cost.per_million_tokens:.3g} USD（按约 {cost.tokens_per_s:,.0f} tok/s）" in \
        render_text(result, kb=KB)


def test_the_cheapest_for_a_request_rate_is_ranked_by_what_meeting_the_rate_costs() -> None:
    """With a rate to meet, a card is weighed by its serving plan's bill (replicas × instance), not by money per
    token at its own batch: the plan of the cheapest answer costs no more an hour than the plan on any card named."""
    base = "阿里云上部署 GLM-4-9B 对外提供 API，每天大概 10 万次调用"
    cheapest = answer(parse(base + "，最便宜的实例是哪个？", KB), KB)
    assert cheapest.serving is not None and cheapest.cost is not None and cheapest.cost.per_hour
    for card in ("L20", "A100 40GB", "T4", "V100 32GB"):
        named = answer(parse(f"{base}，用 {card}，按 bf16", KB), KB)
        if named.serving is None or named.cost is None or named.cost.per_hour is None:
            continue
        assert cheapest.cost.per_hour <= named.cost.per_hour + 0.01, card


def test_a_card_no_plan_prices_is_not_ranked_first_for_a_rate_to_meet() -> None:
    """Audit 19 H-4: ranked by plan cost, a card with no serving plan (the A10G had no compute figure then) fell back to
    money per token, another unit, and came first at one card for a load that needs two."""
    result = answer(parse("We will get about 500k API calls a day to Llama 3.1 8B (1k in, 200 out). Cheapest AWS "
                          "setup?", KB), KB)
    assert result.picks[0].gpu != "a10g"
    assert result.serving is not None and result.serving.replicas * result.serving.gpus_per_replica >= 2
    assert result.picks[0].count == result.serving.replicas * result.serving.gpus_per_replica


def test_a_cloud_with_vm_types_but_no_prices_gets_its_own_cards_and_vm_names() -> None:
    # audit 27 M-37: "Which Azure VM size" named no VM, and the picks were cards Azure does not rent (H200 NVL, H20)
    from bot.reply.answer import answer
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer(parse("Azure: we want to serve gpt-oss-120b for 40 concurrent users at 32k context with vLLM. "
                          "Which Azure VM size, and what does it cost per month running 24/7?", kb), kb)
    azure = {(layout.gpu, layout.instance) for layout in kb.instance_types.values() if layout.cloud == "azure"}
    assert result.picks
    for pick in result.picks:
        assert (pick.gpu, pick.instance) in azure and pick.cloud == "azure" and pick.price_per_hour is None
