"""A follow-up that names no model may state the thread's model's own slots: a Whisper job's beam width and its
hours of audio, a vision model's images a request (audit 23 HIGH 5, M-25). Through `Advisor.respond`, as a Slack
thread or the console runs it."""

from __future__ import annotations

import pytest

from bot.reply.render import render_text
from bot.service import Advisor

WHISPER = "Whisper large-v3 on an L4 for 2,000 hours of audio, greedy decoding: how long?"


@pytest.fixture()
def advisor() -> Advisor:
    return Advisor(fetch_config=None)


@pytest.mark.parametrize("follow", ["and with beam_size 5?", "what about beam size 5?", "and with beam 5?",
                                    "换成 beam 5 呢？"])
def test_a_beam_said_in_a_whisper_thread_is_that_jobs_beam(advisor: Advisor, follow: str) -> None:
    first = advisor.respond(WHISPER, "T:beam")
    greedy_hours = first.answer.speed["job_hours"]
    reply = advisor.respond(follow, "T:beam")
    assert reply.question.model == "whisper-large-v3" and reply.question.beam_size == 5
    assert reply.question.audio_hours == 2000
    assert reply.answer.speed["job_hours"] > 2 * greedy_hours  # 48 h at beam 5 against 20 h greedy
    text = render_text(reply.answer, advisor.kb)
    assert "BGE-M3" not in text and "didn't understand" not in text
    # the next turn keeps the beam
    priced = advisor.respond("how much on AWS then?", "T:beam")
    assert priced.question.beam_size == 5 and priced.answer.speed["job_hours"] == reply.answer.speed["job_hours"]


def test_more_hours_in_a_whisper_thread_are_more_audio_not_rent(advisor: Advisor) -> None:
    advisor.respond(WHISPER, "T:hours")
    reply = advisor.respond("and for 5,000 hours?", "T:hours")
    assert reply.question.audio_hours == 5000 and reply.question.hours is None
    assert reply.question.beam_size == 1  # the thread's greedy decoding carries over
    assert 45 < reply.answer.speed["job_hours"] < 55  # 5,000 h at ≈ 100× real time greedy


def test_images_a_request_in_a_vision_thread_are_not_a_batch(advisor: Advisor) -> None:
    advisor.respond("Qwen2.5-VL-7B on one L40S, one 1280x720 image per request, 8k context: how many concurrent "
                    "requests?", "T:images")
    reply = advisor.respond("what if 4 images per request?", "T:images")
    assert reply.question.images_per_request == 4 and reply.question.batch in (None, 1)
    assert "4 images a request" in render_text(reply.answer, advisor.kb)


def test_a_beam_with_no_thread_is_no_model(advisor: Advisor) -> None:
    reply = advisor.respond("and with beam 5?", "T:alone")
    assert reply.question.beam_size is None


def test_whisper_named_alone_in_a_whisper_thread_is_the_threads_release(advisor: Advisor) -> None:
    # audit 38 LOW-214: "and faster-whisper int8?" after large-v3 said "“Whisper” alone is sized as large-v3"; after
    # medium it switched the thread to large-v3
    advisor.respond("whisper medium on a T4, how fast?", "T:family")
    reply = advisor.respond("and faster-whisper int8?", "T:family")
    assert reply.question.model == "whisper-medium" and "family-release" not in reply.question.notes
    assert "alone is sized" not in render_text(reply.answer, advisor.kb)
    fresh = advisor.respond("which gpu for whisper?", "T:new")
    assert fresh.question.model == "whisper-large-v3" and "family-release" in fresh.question.notes


def test_spot_asked_in_a_follow_up_prices_spot(advisor: Advisor) -> None:
    # audit 39 HIGH-121: "monthly cost on spot?" was answered with the on-demand bill and no word of spot
    advisor.respond("Serve Mixtral 8x7B with vLLM for 30 concurrent users at 16k context on H100s", "T:spot")
    reply = advisor.respond("monthly cost on spot?", "T:spot")
    assert reply.question.asks_spot and reply.question.asks_cost
    said = render_text(reply.answer, advisor.kb)
    assert "Spot (interruptible)" in said or "No spot price is known" in said  # the source's spot row, or none
    zh = Advisor(fetch_config=None)
    zh.respond("我們要用 Qwen3-235B-A22B 提供服務，每天 1 億 token，H100 要幾張？", "T:spot-zh")
    said = render_text(zh.respond("改用 spot 呢？每月多少美元？", "T:spot-zh").answer, zh.kb)
    assert "spot" in said.lower()  # a spot price, or that the source has none for the instance priced


def test_zero_sharding_after_unsloth_is_sized_on_deepspeed_and_said(advisor: Advisor) -> None:
    # audit 39 M-162: "用两张卡 ZeRO-2 呢？" after an Unsloth thread was sharded and offloaded "under Unsloth",
    # which keeps a whole copy on each card
    advisor.respond("用 Unsloth 做 Qwen2.5-7B LoRA 微调，RTX 3090 够吗", "T:unsloth")
    advisor.respond("换成全参微调呢？", "T:unsloth")
    reply = advisor.respond("用两张卡 ZeRO-2 呢？", "T:unsloth").answer
    engines = [(a.value, a.reason) for a in reply.assumptions if a.field == "engine"]
    assert engines == [("transformers", "unsloth-no-sharding")] and reply.query.engine == "transformers"


def test_a_currency_without_a_rate_names_the_currency_the_figures_are_in(advisor: Advisor) -> None:
    # audit 39 M-160: "換算成新台幣" said "currency CNY" under Assumed beside figures in USD
    advisor.respond("我們要用 Qwen3-235B-A22B 提供服務，每天 1 億 token，H100 要幾張？", "T:twd")
    reply = advisor.respond("換算成新台幣大概多少？", "T:twd").answer
    assert reply.cost is not None and reply.cost.currency
    said = [a.value for a in reply.assumptions if a.reason == "currency-no-rate"]
    assert said == [reply.cost.currency]


@pytest.mark.parametrize("follow", ["what about two?", "what about 2?", "and with two?"])
def test_a_bare_count_after_a_card_question_is_that_many_of_the_card(advisor: Advisor, follow: str) -> None:
    # audit 40 HIGH-127: "what about two?" after "can an RTX 4090 run Qwen2.5-32B in fp16?" got the help page
    advisor.respond("can an RTX 4090 run Qwen2.5-32B in fp16?", "T:two")
    reply = advisor.respond(follow, "T:two")
    assert (reply.question.gpu, reply.question.gpu_count, reply.question.model) == ("rtx-4090", 2, "qwen2.5-32b")


def test_spot_asked_where_the_instance_quoted_has_none_names_the_same_cards_with_one(advisor: Advisor) -> None:
    # audit 40 M-163: "and on spot?" after 8× H100 said only "no spot price" for the box quoted, where the sources
    # list 8 H100s at Nebius for 10 USD/h spot
    advisor.respond("pretrain a 1.3B model on 26B tokens on 8x H100, how long and how much?", "T:spot8")
    said = render_text(advisor.respond("and on spot?", "T:spot8").answer, advisor.kb)
    assert "No spot price is known" in said and "The same cards with a dated spot price" in said
    assert "10.00 USD/h" in said
