"""A thread whose first message named no card remembers the set-up its reply recommended, so "换成 H20 呢 … 哪个更便宜"
weighs the H20 against it (audit 30 HIGH 61: the thread fell to the generic size chart)."""

from __future__ import annotations

from bot.service import Advisor


def test_which_is_cheaper_weighs_the_new_card_against_the_first_recommendation() -> None:
    advisor = Advisor(fetch_config=None)
    first = advisor.respond("DeepSeek-R1-Distill-Qwen-32B 推理，20 并发，上下文 8k，用什么卡", "T:h61").answer
    top = first.picks[0]
    advisor.respond("换成 H20 呢", "T:h61")
    reply = advisor.respond("哪个更便宜", "T:h61")
    assert reply.question.intent == "compare"
    assert reply.question.compare_gpus == [top.gpu, "h20"]
    assert reply.question.model == "deepseek-r1-distill-qwen-32b" and reply.question.batch == 20
    compared = {p.gpu: p for p in reply.answer.picks}
    assert compared[top.gpu].count == top.count and compared[top.gpu].price_per_hour == top.price_per_hour


def test_english_thread_and_a_named_card_thread() -> None:
    advisor = Advisor(fetch_config=None)
    advisor.respond("Qwen2.5-32B inference, 20 users at 8k, what GPU?", "T:e")
    advisor.respond("what about H20?", "T:e")
    assert advisor.respond("which is cheaper?", "T:e").question.intent == "compare"
    named = Advisor(fetch_config=None)
    named.respond("Qwen2.5-14B on an L40S for 10 users", "T:n")
    assert named.store.get_question("T:n").answered_pick is None  # a card named: the thread's card is that one
