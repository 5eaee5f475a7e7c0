"""A purchase price set against renting the same cards (audit 38 HIGH-115, M-149): the hours the sum rents, and
over the hours of use stated whether renting costs less; never the price read as a context length."""

from __future__ import annotations

import pytest

from bot.reply.render import render_text
from bot.service import ask

SERVER = "Buy or rent: an 8x H100 server costs about ${price}; we'd use it 24/7 for a year. Which is cheaper?"


def test_a_server_price_is_weighed_against_a_year_of_renting_its_cards() -> None:
    answer = ask({"text": SERVER.format(price="250k")})
    assert answer.query.context is None  # "$250k" is money, not a 256,000-token context
    assert answer.cost is not None and answer.cost.per_hour and answer.cost.currency == "USD"
    budget = answer.budget
    assert budget is not None and (budget.amount, budget.period, budget.reason) == (250_000, "purchase", "purchase")
    per_hour = answer.cost.per_hour
    assert budget.hours_bought == round(250_000 / per_hour, 1)  # 19.20 USD/h today: 13,020.8 h
    assert budget.cost == round(per_hour * 8_760, 2)  # a year around the clock: 168,192 USD at 19.20
    text = render_text(answer)
    months = f"{250_000 / per_hour / 730:,.1f}"
    assert f"about {months} months around the clock" in text
    assert "renting costs ≈" in text and "less than buying" in text
    assert "the purchase price is yours" in text


def test_a_cheap_enough_purchase_is_said_to_cost_less_than_renting() -> None:
    answer = ask({"text": SERVER.format(price="100,000")})
    assert answer.budget is not None and answer.cost is not None and answer.cost.per_hour
    assert answer.budget.cost is not None and answer.budget.cost > 100_000  # 8,760 h × 19.20 = 168,192
    assert "more than buying" in render_text(answer)


def test_a_purchase_budget_in_chinese_says_how_long_it_rents_the_pick() -> None:
    answer = ask({"text": "预算 10 万人民币，买卡还是租卡？主要跑 Qwen2.5-72B 推理"})
    assert answer.budget is not None and answer.budget.reason == "purchase"
    assert answer.cost is not None and answer.cost.currency == "CNY" and answer.cost.per_hour
    hours = round(100_000 / answer.cost.per_hour, 1)  # 14.63 CNY/h (Alibaba L20): 6,835.3 h
    assert answer.budget.hours_bought == hours
    text = render_text(answer)
    assert f"约 {hours:,.0f} 小时" in text and f"约合全天候 {hours / 730:,.1f} 个月" in text
    assert answer.budget.cost is None  # no hours of use stated: no verdict on which is cheaper


def test_a_price_in_another_currency_than_the_rent_is_said_not_converted() -> None:
    answer = ask({"text": "一台 8 卡 H100 服务器要 200 万，买还是租划算？一年 24 小时跑"})
    assert answer.intent == "gpu_info" and answer.query.context is None
    assert answer.budget is not None and (answer.budget.amount, answer.budget.currency) == (2_000_000, "CNY")
    assert answer.cost is not None and answer.cost.currency == "USD"
    assert answer.budget.reason == "currency" and answer.budget.hours_bought is None  # no rate is assumed
    assert "未设置汇率" in render_text(answer)


def test_without_a_purchase_word_a_price_is_no_budget() -> None:
    answer = ask({"text": "the H100 costs $2.5 per hour on Lambda, is that good for Llama 3 70B inference?"})
    assert answer.budget is None or answer.budget.period != "purchase"


def test_a_month_of_a_card_with_no_public_price_is_billed_on_the_next_priced_pick_and_said_so() -> None:
    # audit 38 M-148: "H20 呢？" → "一个月多少钱？" gave no cost at all, though priced picks held the job
    from bot.service import Advisor

    advisor = Advisor(fetch_config=None)
    for turn in ("Qwen2.5-72B 推理需要什么卡", "换成 int4 呢？", "H20 呢？"):
        advisor.respond(turn, "T:month")
    reply = advisor.respond("一个月多少钱？", "T:month")
    cost = reply.answer.cost
    assert cost is not None and cost.per_hour is not None and cost.gpu != "h20"
    assert cost.per_month == pytest.approx(cost.per_hour * 730, rel=0.01)
    text = render_text(reply.answer, advisor.kb)
    assert "1× H20 96GB 没有公开标价，下面按推荐列表中下一个有标价的配置 1× " in text


def test_a_purchase_says_what_the_bought_cards_draw_over_the_hours_of_use() -> None:
    # 8 H100 SXM at 700 W each (NVIDIA's rated board power) = 5.6 kW; a year around the clock = 49 MWh
    answer = ask({"text": SERVER.format(price="250k")})
    assert answer.budget is not None and (answer.budget.power_kw, answer.budget.energy_mwh) == (5.6, 49.1)
    assert "draw up to 5.6 kW at their rated power: ≈ 49 MWh over the 8,760 h" in render_text(answer)


def test_the_rent_the_buyer_states_is_weighed_not_the_catalogues() -> None:
    # audit 40 HIGH-125: "buy a 4x RTX 4090 workstation for $14,000 or rent 4090s at $0.69/hr per card" made no
    # comparison (no public 4090 price); 4 × 0.69 = 2.76 USD/h, so 14,000 USD rents 5,072 h; 8 h a day for 2 years
    # is 5,840 h of use, 16,118 USD of rent: more than buying
    answer = ask({"text": "Should we buy a 4x RTX 4090 workstation for $14,000 or rent 4090s on RunPod at $0.69/hr "
                          "per card? We train Qwen2.5-7B LoRA 8 hours a day for 2 years"})
    budget = answer.budget
    assert budget is not None and budget.rent_stated and budget.rent_per_hour == pytest.approx(2.76)
    assert budget.hours_bought == pytest.approx(14_000 / 2.76, abs=0.1)
    assert budget.cost == pytest.approx(2.76 * 5_840, abs=1) and budget.use_hours == pytest.approx(5_840)
    text = render_text(answer)
    assert "at the rent you give (2.76 USD/h for the set-up)" in text and "more than buying" in text


def test_a_rent_stated_per_hour_in_chinese_is_weighed() -> None:
    # 30,000 USD at 2 USD/h = 15,000 h; 40 h a week for 3 years = 6,257 h of use = 12,514 USD: less than buying
    answer = ask({"text": "租 H100 每小時 2 美元，買一張要 3 萬美元，一週用 40 小時，用三年，划算嗎？"})
    assert answer.budget is not None and answer.budget.rent_per_hour == 2.0
    assert answer.budget.hours_bought == 15_000 and answer.budget.cost == pytest.approx(12_514.29, abs=0.5)
