"""A thread's cards asked on different clouds, then "哪个更便宜" (audit 28 M-42, J02): the A10 asked on Alibaba Cloud
was priced on AWS, the cloud of the latest turn, where it has no price, and the two currencies were never set side
by side. Each card is now priced where it was asked, and with no exchange rate assumed the reply says the rate at
which the two cost the same."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import thread

KB = default_knowledge()




def test_each_card_is_priced_on_the_cloud_it_was_asked_on() -> None:
    question = thread("Qwen2.5-14B 推理，阿里云上一张 A10 一个月多少钱？", "换成 AWS 的 L4 呢？", "哪个更便宜？")
    assert question.intent == "compare" and question.compare_clouds == {"a10": "alibaba", "l4": "aws"}
    result = answer(question, KB)
    currencies = {p.gpu: p.price_currency for p in result.picks if p.gpu in ("a10", "l4")}
    assert currencies == {"a10": "CNY", "l4": "USD"}
    verdict = next(line for line in render_text(result, KB).splitlines() if line.startswith("小结"))
    # 2× A10 at 20.19 CNY/h against 2× L4 at 4.60 USD/h: the same price at 20.19 / 4.60 ≈ 4.39 CNY a dollar
    assert "每小时 20.19 CNY" in verdict and "每小时 4.60 USD" in verdict and "4.39 CNY" in verdict
    assert "没有公开标价" not in verdict


def test_the_rate_is_said_the_right_way_round_in_english() -> None:
    question = thread("Llama 3 8B inference on one A10 on Alibaba Cloud, cost per month?", "and an L4 on AWS?",
                       "which one is cheaper?")
    text = render_text(answer(question, KB), KB)
    # 8.58 CNY < 0.805 USD exactly when a dollar buys more than 8.58 / 0.805 ≈ 10.7 CNY
    assert "1× A10 is the cheaper while 1 USD buys more than 10.7 CNY" in text


def test_cards_asked_on_one_cloud_are_compared_as_before() -> None:
    question = thread("Llama 3 8B inference on one A10 on Alibaba Cloud, cost per month?", "and an L4?",
                       "which one is cheaper?")
    assert question.compare_clouds == {}


def test_the_cards_a_cloud_rents_lead_when_the_thread_card_is_not_rented_there() -> None:
    # audit 29 M-57 residue: "and on Alibaba?" after an L4 thread led with two L4 lines, the rentable L20 third
    question = thread("Serve Llama-3.1-8B for 20 concurrent users at 8k context, what GPU?",
                       "what about on an L4 instead?", "and with fp8?", "what about cheaper?", "and on Alibaba?")
    from bot.reply.answer import answer

    result = answer(question, KB)
    assert result.picks[0].gpu != "l4" and result.picks[0].cloud == "alibaba"
    assert result.cost is not None and result.cost.cloud == "alibaba"
