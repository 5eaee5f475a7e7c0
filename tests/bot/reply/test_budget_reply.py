"""A stated budget against the priced set-up: within, over, or not comparable (and why)."""

from __future__ import annotations

import pytest

from bot.errors import BadRequestError
from bot.reply.answer import answer
from bot.reply.budget_money import budget_check
from bot.reply.money_model import CostOut
from bot.reply.render import render_text
from bot.reply.request import answer_request
from bot.understand.parse import parse
from bot.understand.question import Question
from knowledge.fx import ExchangeRate
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def _budget(amount: float, currency: str, period: str) -> Question:
    return Question(text="", intent="recommend", budget_amount=amount, budget_currency=currency,
                    budget_period=period)  # type: ignore[arg-type]


def test_budget_check_compares_the_same_period_and_currency() -> None:
    cost = CostOut(currency="USD", per_hour=1.0, per_month=730.0, total=None)
    assert budget_check(_budget(800, "USD", "month"), cost, ()).within is True
    assert budget_check(_budget(20, "USD", "day"), cost, ()).cost == 24.0  # 24 h at 1 USD: over 20
    assert budget_check(_budget(20, "USD", "day"), cost, ()).within is False
    assert budget_check(_budget(500, "USD", "total"), cost, ()).reason == "duration"  # no job length to total
    assert budget_check(_budget(5000, "CNY", "month"), cost, ()).reason == "currency"  # no rate set
    rate = ExchangeRate(base="USD", quote="CNY", rate=7.0, date="2026-12-01")
    converted = budget_check(_budget(5000, "CNY", "month"), cost, (rate,))
    assert (converted.cost, converted.within) == (5110.0, False)  # 730 USD × 7
    assert budget_check(_budget(5, "USD", "hour"), None, ()).reason == "price"


def test_a_budget_in_another_currency_says_the_rate_at_which_it_is_met() -> None:
    # audit 32 M-101: "NT$30萬/月" was parsed and then only "not compared" (USD prices, no rate set). No rate is
    # assumed; the rate at which the set-up meets the budget is said: 300,000 TWD / 6,117 USD a month = 49 TWD.
    cost = CostOut(currency="USD", per_hour=10.0, per_month=7300.0, total=None)
    out = budget_check(_budget(300_000, "TWD", "month"), cost, ())
    assert (out.reason, out.spend, out.within) == ("currency", 7300.0, None)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("GPU_ADVISOR_FX", raising=False)
        text = "我們預算 NT$30萬/月，跑 Llama 3.1 70B 推論服務，50 人同時用，要幾張 H100？"
        result = answer_request({"text": text}, KB)
    assert result.budget is not None and result.cost is not None and result.budget.spend is not None
    rate = 300_000 / result.budget.spend
    assert 20 < rate < 200
    assert f"只要 1 USD 不超過 {rate:,.3g} TWD，就在預算內" in render_text(result, KB)


def test_a_whole_job_budget_with_no_length_says_the_hours_and_tokens_it_buys() -> None:
    # 500 USD at 16 USD/h is 31.25 h; at 1,000 USD per billion training tokens, 0.5B tokens; at 2 USD per
    # million generated tokens, 250M
    training = CostOut(currency="USD", per_hour=16.0, per_billion_tokens=1000.0)
    out = budget_check(_budget(500, "USD", "total"), training, ())
    assert (out.reason, out.hours_bought, out.tokens_bought) == ("duration", 31.25, 5e8)
    serving = CostOut(currency="USD", per_hour=16.0, per_million_tokens=2.0)
    assert budget_check(_budget(500, "USD", "total"), serving, ()).tokens_bought == 2.5e8
    rate = ExchangeRate(base="USD", quote="CNY", rate=7.0, date="2026-12-01")
    in_yuan = budget_check(_budget(700, "CNY", "total"), CostOut(currency="USD", per_hour=10.0), (rate,))
    assert (in_yuan.hours_bought, in_yuan.tokens_bought) == (10.0, None)  # 100 USD at 10 USD/h


def test_how_many_tokens_a_budget_affords_is_answered() -> None:
    # audit 19 M-4 (e12): "not compared: the job's length is not known", two lines above the price per billion
    result = answer(parse("Our team has a budget of 500 USD. How many tokens of LoRA on Llama 3.1 70B can we "
                          "afford on H100s?", KB), KB)
    assert result.budget is not None and result.cost is not None and result.cost.per_billion_tokens
    expected = 500 / result.cost.per_billion_tokens * 1e9
    assert result.budget.tokens_bought == pytest.approx(expected, rel=0.01)
    text = render_text(result, KB)
    assert "buys ≈" in text and "training tokens" in text and "not compared" not in text


def test_hours_stated_for_training_say_the_tokens_they_train() -> None:
    # audit 19 M-4 (p01): "10,000 H100s for a week. How many tokens can we pre-train a 70B model on?" gave the
    # rate and the bill, no total, and a "longest context" line nobody asked for
    result = answer(parse("We have 10,000 H100s for a week. How many tokens can we pre-train a 70B model on?",
                          KB), KB)
    rate = result.speed["train_tokens_per_s"]
    assert result.cost is not None and result.cost.trained_tokens == pytest.approx(rate * 168 * 3600, rel=0.01)
    assert result.max_context is None
    assert "training tokens in that time" in render_text(result, KB)


def test_the_set_up_the_budget_pays_for_comes_first() -> None:
    result = answer(parse("serve Llama-3-8B for 20 users on AWS, budget $600 a month", KB), KB)
    assert result.budget is not None and result.budget.within
    assert result.cost is not None and result.cost.per_month is not None and result.cost.per_month <= 600
    assert "Within your budget of 600 USD a month" in render_text(result, kb=KB)


def test_over_budget_is_said_with_what_it_costs() -> None:
    result = answer(parse("serve Llama-3-70B for 50 users on AWS, budget $1,000 a month", KB), KB)
    assert result.budget is not None and result.budget.within is False
    text = render_text(result, kb=KB)
    assert "Over your budget of 1,000 USD a month" in text and "A smaller precision" in text


def test_a_chinese_monthly_budget_is_priced_in_yuan() -> None:
    result = answer(parse("在阿里云上部署DeepSeek-R1-Distill-Qwen-32B，预算每月1万元，推荐什么实例", KB), KB)
    assert result.budget is not None and result.budget.currency == "CNY" and result.budget.within
    assert "在你的预算内（每月10,000 CNY）" in render_text(result, kb=KB)


def test_flags_and_json_keys_state_a_budget_and_refuse_bad_values() -> None:
    result = answer_request({"text": "serve Llama-3-8B for 20 users", "budget_amount": "1.5k",
                             "budget_period": "month"}, KB)
    assert result.budget is not None and (result.budget.amount, result.budget.currency) == (1500.0, "USD")
    assert result.budget.period == "month" and result.budget.within
    chinese = answer_request({"text": "部署Qwen2.5-7B", "budget_amount": "1万", "budget_currency": "cny"}, KB)
    assert chinese.budget is not None and (chinese.budget.amount, chinese.budget.currency) == (10_000.0, "CNY")
    assert chinese.budget.period == "total"  # a sum alone covers the whole job
    with pytest.raises(BadRequestError, match="budget_period must be one of hour, day, month, total"):
        answer_request({"text": "Llama-3-8B", "budget_amount": 100, "budget_period": "week"}, KB)
    with pytest.raises(BadRequestError, match="budget_amount must be a positive sum"):
        answer_request({"text": "Llama-3-8B", "budget_amount": -5}, KB)


@pytest.mark.parametrize(("text", "amount", "currency", "period"), [
    ("I have $2000 a month, what's the biggest LLM I can serve?", 2000.0, "USD", "month"),
    ("budget $5 per hour, biggest model I can fine-tune with LoRA?", 5.0, "USD", "hour"),
    ("预算每月1万元，能部署多大的模型？", 10000.0, "CNY", "month"),
])
def test_a_budget_without_a_model_is_answered_with_what_the_most_memory_it_rents_holds(
        text: str, amount: float, currency: str, period: str) -> None:
    from bot.reply.budget import BUDGET_COUNTS
    from bot.reply.budget_money import BUDGET_PERIOD_HOURS
    from bot.reply.pricing import plan_for, price_choice

    question = parse(text, KB)
    assert (question.budget_amount, question.budget_currency, question.budget_period) == (amount, currency, period)
    result = answer(question, KB)
    assert result.intent == "gpu_info" and result.capacity
    assert any(a.reason == "budget-most-memory" for a in result.assumptions)
    assert result.budget is not None and result.budget.within
    gpu, count = KB.gpus[result.query.gpu], result.query.gpu_count or 1
    hours = BUDGET_PERIOD_HOURS[period]
    assert result.cost is not None and result.cost.per_hour * hours <= amount
    # No priced configuration of up to a node holds more memory within the same budget.
    choice = price_choice(question)
    for card in KB.gpus.values():
        for n in BUDGET_COUNTS:
            plan = plan_for(KB, card.id, n, choice)
            if (card.recommended and plan is not None and plan.gpus == n and plan.currency == currency
                    and plan.per_hour * hours <= amount):
                assert card.memory_gb * n <= gpu.memory_gb * count


def test_a_budget_beside_a_model_still_sizes_the_model() -> None:
    result = answer(parse("budget $3000/month, which GPU for llama 3 70b?", KB), KB)
    assert result.query.model == "llama-3-70b" and result.estimate is not None and not result.capacity


def test_a_budget_to_buy_hardware_is_not_compared_with_rental_prices() -> None:
    from bot.reply.render import render_text
    from bot.service import ask

    answer = ask({"text": "I want to buy a GPU for about 3000 dollars to run Qwen2.5-32B at home"})
    assert answer.budget is not None and answer.budget.period == "purchase" and answer.budget.within is None
    assert answer.budget.reason == "purchase"
    assert "I have no sourced purchase prices, only cloud rental prices" in render_text(answer)
    rented = ask({"text": "rent a GPU for 3000 dollars a month for Qwen2.5-32B"})
    assert rented.budget is not None and rented.budget.period == "month" and rented.budget.within is not None


def test_over_a_yuan_budget_the_dollar_priced_picks_are_named_not_called_over() -> None:
    # 6,000 CNY a month: the Alibaba L20 (14.63 CNY/h × 730 = 10,680; 7,019.25 a subscription month) is over; the
    # A6000 at 0.50 USD/h may be within it, which cannot be told without a USD/CNY rate. (At 10,000 CNY the L20's
    # subscription month is within it: audit 32 M-97.)
    from bot.reply.render import render_text
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("GPU_ADVISOR_FX", raising=False)
        result = answer_request({"text": "预算每月6000元，用vLLM部署Qwen2.5-14B，并发20，上下文8k，选什么卡？"}, kb)
    assert result.budget is not None and result.budget.within is False
    assert any(p["currency"] == "USD" for p in result.budget.uncompared)
    text = render_text(result, kb=kb)
    assert "可能在预算内" in text and "找到的能放下这个任务的有标价配置都超出预算" not in text


def test_a_cheapest_quantisation_its_makers_do_not_publish_is_said_to_be_a_community_one() -> None:
    # audit 14 A-M2: Llama 3.1 8B sized as AWQ for "cheaper per million tokens" with no word that Meta ships bf16 only
    from bot.reply.answer import answer
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    llama = answer(parse("cheapest way to serve Llama 3.1 70B to 20 users", kb), kb)
    [note] = [a for a in llama.assumptions if a.field == "precision"]
    assert note.reason == "budget-quantised-community" and "awq" not in kb.models["llama-3.1-70b"].official_quants
    # where the release lands on the same set-up (one RTX A6000 for 20 users of the 8B), it is kept (LOW-121)
    same = answer(parse("cheapest way to serve Llama 3.1 8B to 20 users", kb), kb)
    assert same.query.precision == "bf16"
    # cards compared on cost keep the release: "an L4 or an A10G" weighs the cards, not the format
    cards = answer(parse("Which is cheaper per million tokens for Llama 3.1 8B: an L4 or an A10G on AWS?", kb), kb)
    assert cards.query.precision == "bf16"
    qwen = answer(parse("cheapest way to serve Qwen2.5-32B-Instruct", kb), kb)
    [note] = [a for a in qwen.assumptions if a.field == "precision"]
    assert note.reason == "budget-quantised"  # Qwen publishes its AWQ checkpoint


def test_the_cheapest_in_chinese_ranks_every_currency_by_its_price_level() -> None:
    # audit 19 M-9 (s09): the home cloud's 18.26 CNY row stood for the V100 16GB, so the knowledge base's
    # 0.138 USD Verda row (≈ 1 CNY at the rows' own price level of ≈ 7 CNY per USD) was never weighed, and a
    # 0.80 USD L4 came after 7.79 CNY; the rows keep their own currency
    result = answer(parse("最便宜能跑 Qwen3-14B 的方案是什么？单用户，8k 上下文，用 Ollama。", KB), KB)
    priced = [p for p in result.picks if p.price_per_hour is not None]
    assert priced[0].gpu == "v100-16gb" and priced[0].price_currency == "USD"
    level = {"USD": 7.0, "CNY": 1.0}
    in_yuan = [p.price_per_hour * level[p.price_currency or "CNY"] for p in priced]
    assert in_yuan == sorted(in_yuan)


def test_a_chinese_question_that_is_not_about_the_cheapest_keeps_the_home_cloud() -> None:
    result = answer(parse("Qwen3-14B 推理用什么卡？", KB), KB)
    assert result.cost is not None and result.cost.cloud == "alibaba"


def test_hours_beside_a_batch_job_are_its_deadline_not_its_bill() -> None:
    # audit 20 M-1 (e06): "embed 10 million chunks … in under 24 hours" billed 24 h for a 9.2 h run
    result = answer(parse("Cheapest GPU to embed 10 million chunks of 256 tokens with bge-large-en-v1.5 in under "
                          "24 hours?", KB), KB)
    job = result.speed["job_hours"]
    assert job and job < 24 and result.cost is not None and result.cost.hours == job
    assert result.cost.total == pytest.approx(result.cost.per_hour * job, rel=0.01)
    assert "Within the 24.0 h asked" in render_text(result, KB)
    # a run longer than the deadline says how many set-ups side by side would finish in time
    slow = answer(parse("embed 100 million chunks of 256 tokens with bge-large-en-v1.5 on one T4 in under "
                        "24 hours?", KB), KB)
    hours = slow.speed["job_hours"]
    assert hours and hours > 24
    assert f"{-(-hours // 24):,.0f} such set-ups side by side" in render_text(slow, KB)


def test_cards_compared_on_cost_per_token_keep_the_models_precision() -> None:
    # "H100 vs H200 … which is cheaper per token?" was answered for a community AWQ quantisation nobody asked for
    result = answer(parse("H100 vs H200 for Llama 3.1 70B inference at 32 concurrent users, which is cheaper per "
                          "token?", KB), KB)
    assert result.query.precision == "bf16" and result.query.quant is None
    assert not any(a.reason.startswith("budget-quantised") for a in result.assumptions)


def test_clouds_compared_are_ranked_cheapest_first() -> None:
    # audit 21 M-4: four clouds priced for 8× H100 and the answer to "which is cheapest" left to the reader
    result = answer(parse("what's the cheapest cloud for 8x H100 per month, Lambda vs Nebius vs Hyperstack vs AWS?",
                          KB), KB)
    priced = [c for c in [result.cost, *result.other_cloud_costs] if c is not None and c.per_hour]
    cheapest = min(priced, key=lambda c: c.per_hour or 0.0)
    line = next(x for x in render_text(result, KB).splitlines() if x.startswith("Cheapest of the clouds named"))
    assert cheapest.instance is not None and cheapest.instance in line
    order = [line.index(name) for name in ("Nebius", "Lambda", "AWS")]
    assert order == sorted(order)


def test_does_it_fit_and_the_cheapest_way_there_checks_the_release_and_gives_the_quantisation_as_the_fix() -> None:
    # audit 23 M-16: a silent INT4 made it a bare "Yes: 6.9 GiB"; as released (bf16, fp16 on a T4) it needs 16.7
    answer = ask_json("does llama 3.1 8b fit on a single T4 and what's the cheapest way to serve it there?")
    assert answer["check"]["fits"] is False and answer["query"]["precision"] in ("bf16", "fp16")
    assert answer["text"].startswith("== Llama 3.1 8B") and "\nNo: it needs 16.7 GiB per card" in answer["text"]
    assert "quantise to INT8" in answer["text"]
    # the cheapest asked with no card to check still weighs the quantised checkpoints
    open_ended = ask_json("cheapest way to serve llama 3.1 8b?")
    assert open_ended["query"]["precision"] in ("int4", "int8")


def test_no_quantisation_where_the_release_lands_on_the_same_set_up() -> None:
    # audit 30 LOW-121: "最便宜的实例" for GLM-4-9B assumed a community int8 checkpoint on the A10 bf16 already fits
    from tests.bot.reply._answers import ask_json

    reply = ask_json("阿里云上跑 GLM-4-9B 推理，最便宜的实例是哪个，每月多少钱？")
    assert reply["query"]["precision"] == "bf16" and reply["picks"][0]["gpu"] == "a10"
    assert not any(a["reason"].startswith("budget-quantised") for a in reply["assumptions"])


def test_a_sum_to_stay_within_keeps_the_release_when_it_is_served_within_it() -> None:
    # audit 31 M-81: "$2/hr budget, best GPU" had become a community INT4 on a T4 (0.53 USD/h) while the bf16
    # release runs on an RTX A6000 at 0.50 USD/h, within the sum
    reply = ask_json("we have $2/hr budget, best GPU to serve Llama-3.1-8B for a small team?")
    assert reply["query"]["precision"] == "bf16" and reply["picks"][0]["price_per_hour"] <= 2.0
    assert not any(a["reason"].startswith("budget-quantised") for a in reply["assumptions"])


def test_a_sum_too_small_for_the_release_still_weighs_quantised_weights() -> None:
    reply = ask_json("budget $1 per hour, cheapest way to serve Qwen2.5-32B?")
    assert reply["query"]["precision"] in ("int4", "int8")
