""""which one is cheaper in total?" after the same job was sized on one card and then another chooses among the
thread's cards (audit 23 M-19: the thread form answered the last card alone, with a V100 beside it and no
comparison). Through `Advisor.respond`, as a Slack thread or the console runs it."""

from __future__ import annotations

import pytest

from bot.reply.render import render_text
from bot.service import Advisor
from bot.understand.followup import follow_up
from bot.understand.parse import parse
from knowledge.loader import load_knowledge

JOB = "bge-m3 embeddings for 10M docs of 512 tokens on one L4: how long?"


@pytest.fixture()
def advisor() -> Advisor:
    return Advisor(fetch_config=None)


@pytest.mark.parametrize("choice", ["which one is cheaper in total?", "which of the two is cheaper overall",
                                    "哪个总价更便宜？", "哪張比較划算？", "which is faster?"])
def test_a_choice_after_two_cards_compares_them_with_their_totals(advisor: Advisor, choice: str) -> None:
    l4 = advisor.respond(JOB, "T:m19").answer
    h100 = advisor.respond("and on an H100?", "T:m19").answer
    reply = advisor.respond(choice, "T:m19")
    assert reply.question.intent == "compare"
    assert reply.question.compare_gpus == ["l4", reply.question.compare_gpus[1]]
    assert reply.question.compare_gpus[1].startswith("h100") and reply.question.compare_counts == {
        "l4": 1, reply.question.compare_gpus[1]: 1}
    assert reply.question.encodes_documents and reply.question.training_samples == 10_000_000
    by_gpu = {pick.gpu: pick for pick in reply.answer.picks}
    # each card's total is the one its own turn gave
    assert by_gpu["l4"].job_hours == pytest.approx(l4.speed["job_hours"], rel=0.01)
    assert by_gpu[reply.question.compare_gpus[1]].job_hours == pytest.approx(h100.speed["job_hours"], rel=0.01)
    text = render_text(reply.answer, advisor.kb)
    assert "L4 vs H100" in text and "V100" not in text


def test_the_cheaper_total_is_named_from_both_jobs(advisor: Advisor) -> None:
    advisor.respond(JOB, "T:total")
    advisor.respond("and on an H100?", "T:total")
    reply = advisor.respond("which one is cheaper in total?", "T:total")
    totals = {pick.gpu: pick.job_cost for pick in reply.answer.picks}
    cheaper = min(totals, key=lambda gpu: totals[gpu] or float("inf"))
    name = advisor.kb.gpus[cheaper].name.removeprefix("NVIDIA ")
    assert f"1× {name} is cheapest in total" in render_text(reply.answer, advisor.kb)


def test_a_single_card_thread_or_another_question_is_not_a_choice() -> None:
    kb = load_knowledge()
    one_card = parse(JOB, kb)
    # one card so far: nothing to choose among
    assert follow_up(one_card, parse("which one is cheaper in total?", kb), kb).intent != "compare"
    two_cards = follow_up(one_card, parse("and on an H100?", kb), kb)
    assert list(two_cards.thread_gpus) == ["l4"]
    # "which quantisation" states a precision: a follow-up about the job on the H100, not a card comparison
    assert follow_up(two_cards, parse("哪个量化更好？int4还是int8", kb), kb).intent != "compare"
    # naming a new model asks about it
    assert follow_up(two_cards, parse("which one runs Llama 3 8B?", kb), kb).compare_gpus == []


def test_a_load_thread_compares_each_card_at_the_plan_that_meets_the_load(advisor: Advisor) -> None:
    # audit 24 HIGH 17: "which is cheaper overall?" priced each card at one sequence (8.25 and 8.10 USD per
    # million output tokens against 0.34 for the plan below it) and switched the job to 8-bit weights
    advisor.respond("Qwen2.5-7B at 20 requests/s, 1k in / 200 out, on L4s: how many and what per hour on AWS?",
                    "T:load")
    advisor.respond("what about on L40S?", "T:load")
    reply = advisor.respond("which is cheaper overall?", "T:load")
    assert reply.question.intent == "compare" and reply.answer.query.precision == "bf16"
    by_gpu = {pick.gpu: pick for pick in reply.answer.picks}
    assert by_gpu["l4"].count == 7 and by_gpu["l40s"].count == 3  # the replicas each turn planned
    for pick in (by_gpu["l4"], by_gpu["l40s"]):
        # the load's own 20 × 200 tok/s, the same on both (audit 25 LOW-50: not each plan's spare capacity)
        assert pick.work_tokens_per_s == 4000
        assert pick.work_cost is not None and pick.work_cost < 1.0  # USD per million output tokens
    # so the cheaper bill is the cheaper answer
    cheaper = min((by_gpu["l4"], by_gpu["l40s"]), key=lambda p: p.price_per_hour or float("inf"))
    assert cheaper.work_cost == min(by_gpu["l4"].work_cost or 9, by_gpu["l40s"].work_cost or 9)


@pytest.mark.parametrize("choice", ["which is cheaper overall, that or one L40S?",
                                    "that vs one L40S, which costs less?"])
def test_a_card_set_against_that_is_compared_with_the_previous_setup(advisor: Advisor, choice: str) -> None:
    # audit 24 M-26: the L40S replaced the thread's 2× L4 instead of being compared with it
    advisor.respond("Llama 3.1 8B AWQ with vLLM on one L4, 20 concurrent users at 4k context: fits?", "T:that")
    advisor.respond("what about on 2 cards?", "T:that")
    reply = advisor.respond(choice, "T:that")
    assert reply.question.intent == "compare" and reply.question.compare_gpus == ["l4", "l40s"]
    assert reply.question.compare_counts == {"l4": 2, "l40s": 1}


def test_an_unpriced_card_gets_its_break_even_price(advisor: Advisor) -> None:
    advisor.respond("LoRA 微調 Qwen2.5-14B，1 億 token，一張 H100 要多久？", "T:h20")
    advisor.respond("換成 H20 呢", "T:h20")
    reply = advisor.respond("哪個總花費比較便宜？", "T:h20")
    by_gpu = {pick.gpu: pick for pick in reply.answer.picks}
    h100 = next(pick for gpu, pick in by_gpu.items() if gpu.startswith("h100"))
    h20 = next(pick for gpu, pick in by_gpu.items() if gpu.startswith("h20"))
    assert h20.price_per_hour is None and h100.job_cost and h20.job_hours
    break_even = h100.job_cost / h20.job_hours  # the H100's bill for the job over the H20's hours for it
    assert f"每小時低於約 {break_even:.3f} USD 才更便宜" in render_text(reply.answer, advisor.kb)


def test_an_audio_thread_compares_each_cards_transcription_and_its_break_even(advisor: Advisor) -> None:
    # audit 24 M-26 (d04): Whisper on an L4, then on an H20, then "哪個比較便宜？" gave the L4's time alone and
    # "H20 餘量最大", with no H20 time and no word on its missing price
    l4 = advisor.respond("Whisper large-v3 在一張 L4 上轉寫 1000 小時錄音要多久？", "T:audio").answer
    h20 = advisor.respond("換成 H20 呢", "T:audio").answer
    reply = advisor.respond("哪個比較便宜？", "T:audio")
    by_gpu = {pick.gpu: pick for pick in reply.answer.picks}
    assert by_gpu["l4"].job_hours == pytest.approx(l4.speed["job_hours"], rel=0.01)
    h20_id = next(gpu for gpu in by_gpu if gpu.startswith("h20"))
    assert by_gpu[h20_id].job_hours == pytest.approx(h20.speed["job_hours"], rel=0.01)
    l4_total = by_gpu["l4"].job_cost
    assert l4_total is not None and by_gpu[h20_id].job_cost is None  # no public H20 price
    # the H20 is cheaper only below the L4's total over its own hours
    break_even = l4_total / (by_gpu[h20_id].job_hours or 1)
    assert f"每小時低於約 {break_even:.2f} USD 才更便宜" in render_text(reply.answer, advisor.kb)


def test_a_cost_choice_whose_one_fitting_set_is_unpriced_says_so(advisor: Advisor) -> None:
    # audit 25 M-26 residue (k02): "哪个总成本更低？" after 4× L20 (does not fit) and 4× H20 (fits, no public
    # price) answered only which fits. The L20 is now compared at the 8 its turn recommended (audit 26 M-35);
    # neither set has a public price for the whole machine, and the reply says so
    advisor.respond("DeepSeek-R1-Distill-Llama-70B 用 vLLM FP8，4 张 L20，32 并发，16k 上下文，够吗？", "T:k02")
    advisor.respond("换成 H20 呢", "T:k02")
    reply = advisor.respond("哪个总成本更低？", "T:k02")
    text = render_text(reply.answer, advisor.kb)
    assert {(p.gpu, p.count, p.fits) for p in reply.answer.picks} == {("l20", 8, True), ("h20", 4, True)}
    assert "都没有按所比较的卡数找到公开标价" in text and "无法比较成本" in text


@pytest.mark.parametrize("choice", ["which is cheaper per month?", "which is cheaper overall?", "哪个每月更便宜？"])
def test_sets_that_needed_more_cards_are_compared_as_their_replies_sized_them(advisor: Advisor, choice: str) -> None:
    # audit 26 M-35: after 4× L40S and 2× H100 both needed more cards (8 and 4), "which is cheaper per month?"
    # answered the last set alone and "which is cheaper overall?" said none of them holds the job
    advisor.respond("DeepSeek-R1-Distill-Llama-70B FP8 on 4x L40S with vLLM, 32 users at 8k: fits?", "T:m35")
    advisor.respond("what if batch 64", "T:m35")
    advisor.respond("and on 2x H100?", "T:m35")
    reply = advisor.respond(choice, "T:m35")
    answer = reply.answer
    assert reply.question.intent == "compare" and reply.question.compare_as_sized
    by_gpu = {p.gpu: p for p in answer.picks}
    assert by_gpu["l40s"].fits and by_gpu["h100-sxm"].fits
    assert (by_gpu["l40s"].count, by_gpu["h100-sxm"].count) == (8, 4)
    text = render_text(answer)
    assert "none of these" not in text and "都放不下" not in text
    if "month" in choice or "每月" in choice:
        hourly = by_gpu["h100-sxm"].price_per_hour
        assert hourly is not None and hourly < (by_gpu["l40s"].price_per_hour or 0)
        assert f"{hourly * 730:,.0f}" in text


def test_a_set_compared_as_written_still_says_it_does_not_fit(advisor: Advisor) -> None:
    # the control: a comparison written out ("4x L40S vs 2x H100") compares the sets as asked
    reply = advisor.respond("DeepSeek-R1-Distill-Llama-70B FP8 with vLLM, 64 users at 8k: 4x L40S vs 2x H100?", "T:c")
    assert not reply.question.compare_as_sized
    assert not any(p.fits for p in reply.answer.picks)
