"""bot.understand.slots.daily_volume: a day's tokens split by an input:output ratio, and the peak factor (audit 24
HIGH 7: "日均 5 亿 token（输入:输出约 4:1）" was a 10M-token context and 4 output tokens, 64 H20s for a job 8 serve)."""

from __future__ import annotations

import pytest

from bot.understand.slots.base import SlotState
from bot.understand.slots.daily_volume import busy_window_factor, daily_token_rates, peak_factor


def _state(text: str) -> SlotState:
    folded = text.lower()
    return SlotState(original=text, folded=folded, masked=list(folded))


@pytest.mark.parametrize(("text", "prompt", "output"), [
    ("日均 5 亿 token（输入:输出约 4:1）", 5e8 * 0.8 / 86400, 5e8 * 0.2 / 86400),
    ("500M tokens a day, input:output about 4:1", 5e8 * 0.8 / 86400, 5e8 * 0.2 / 86400),
    ("每天 2 亿 token，输入:输出 3:1", 2e8 * 0.75 / 86400, 2e8 * 0.25 / 86400),
])
def test_a_day_split_by_its_ratio(text: str, prompt: float, output: float) -> None:
    state = _state(text)
    rates = daily_token_rates(state)
    assert rates["prompt_tokens_per_s"] == pytest.approx(prompt)
    assert rates["output_tokens_per_s"] == pytest.approx(output)
    assert "4:1" not in state.text and "3:1" not in state.text  # masked: no output length of 4 or 3


def test_a_volume_without_a_ratio_is_its_output() -> None:
    assert daily_token_rates(_state("日均 5 亿 token")) == {"output_tokens_per_s": pytest.approx(5e8 / 86400)}


@pytest.mark.parametrize(("text", "factor"), [
    ("峰值是均值的 3 倍", 3.0), ("高峰期约平时的 2.5 倍", 2.5), ("peak is 3x the average", 3.0),
    ("peak traffic about 4 times the mean", 4.0), ("峰值是均值的 500 倍", None), ("no peak said", None),
])
def test_the_peak_factor(text: str, factor: float | None) -> None:
    assert peak_factor(_state(text)) == factor


@pytest.mark.parametrize(("text", "factor"), [
    ("30k chats a day, mostly during 8 working hours", 3.0),
    ("1 million requests a day, all within 8 business hours", 3.0),
    ("每天 3 万次对话，集中在 8 个小时", 3.0),
    ("8 working hours", None),  # no day's volume to spread
    ("finish in 8 hours", None),  # a deadline, not a busy window
])
def test_the_busy_window(text: str, factor: float | None) -> None:
    assert busy_window_factor(_state(text)) == factor


def test_a_requests_prompt_and_output_split_the_day() -> None:
    # audit 24 LOW-31: "2M tokens a day (avg 1.5k prompt, 300 out)" was all output, 6× the decode load
    rates = daily_token_rates(_state("2M tokens a day of chat traffic (avg 1.5k prompt, 300 out)"))
    assert rates["output_tokens_per_s"] == pytest.approx(2e6 * 300 / 1836 / 86400)
    assert rates["prompt_tokens_per_s"] == pytest.approx(2e6 * 1536 / 1836 / 86400)
