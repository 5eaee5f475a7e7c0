"""A batch that arrives every day, with the hours a day's batch runs asked, is one day's job billed for a month of
such days (audit 24 HIGH 13: priced as a 24/7 endpoint, 730 h, 3.5× the daily batches; the hours a day were not
given and each document's length was lost)."""

from __future__ import annotations

import pytest

from rules.constants import HOURS_PER_MONTH
from tests.bot.reply._answers import ask_json as _ask


@pytest.mark.parametrize("text", [
    "bge-large-zh-v1.5 每天新增 300 万条文档（每条约 400 token）要入库，用阿里云 T4 实例，"
    "每天要跑几个小时，每月多少钱？",
    "Every day we embed 3 million new docs of 400 tokens with bge-large-en-v1.5 on an AWS T4: how many hours a day, "
    "and cost per month?",
])
def test_a_days_batch_is_timed_and_billed_for_the_month(text: str) -> None:
    answer = _ask(text)
    assert answer["query"]["daily_batch"] and answer["query"]["context"] == 400
    day = answer["speed"]["job_hours"]
    assert 5 < day < 9  # 3M × 400 tokens at ≈ 120 documents/s on a T4
    cost = answer["cost"]
    assert cost["hours"] == pytest.approx(day * HOURS_PER_MONTH / 24, rel=0.01)
    assert cost["total"] == pytest.approx(cost["hours"] * cost["per_hour"], rel=0.01)


def test_a_daily_count_without_the_hours_asked_stays_a_rate() -> None:
    answer = _ask("bge-large-en-v1.5, 3 million new docs of 400 tokens every day on an AWS T4: which setup keeps up?")
    assert not answer["query"]["daily_batch"]


def test_a_days_requests_are_said_to_be_its_average() -> None:
    # audit 30 LOW-134: "每天 100 万次请求" was sized at 11.6/s with no word that busy hours carry 2–3× that
    from tests.bot.reply._answers import ask_json

    reply = ask_json("Llama-3.1-8B, 2 million requests per day, how many L4?")
    assert any(a["reason"] == "daily-average" for a in reply["assumptions"])
    peak = ask_json("Llama-3.1-8B, 2 million requests per day, peak 3x the average, how many L4?")
    assert not any(a["reason"] == "daily-average" for a in peak["assumptions"])
