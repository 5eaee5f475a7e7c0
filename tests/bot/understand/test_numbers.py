"""Chinese numerals and unit suffixes, each expected value worked out by hand."""

from __future__ import annotations

import pytest

from bot.service import ask
from bot.understand.numbers import cn_numeral, scaled_number
from bot.understand.slots.context import BATCH_UNITS, CONTEXT_UNITS


@pytest.mark.parametrize(("text", "value"), [
    ("三千二", 3_200),        # 3 × 1000 + 2 × 100 (the final digit counts in hundreds)
    ("一万二", 12_000),       # 1 × 10000 + 2 × 1000
    ("两万五", 25_000),       # 2 × 10000 + 5 × 1000
    ("三百五", 350),          # 3 × 100 + 5 × 10
    ("三万二千五", 32_500),    # 30000 + 2000 + 5 × 100
    ("三点五万", 35_000),      # 3.5 × 10000
    ("零点五", 0.5),
    ("十二点五", 12.5),
    ("十二", 12),              # after 十 the digit is units: no abbreviation
    ("一百二十八", 128),
    ("一千零五", 1_005),       # 零 keeps the 5 literal
    ("一百零二", 102),
    ("一二八", 128),           # digit by digit
    ("两", 2),
    ("千", 1_000),
])
def test_chinese_numerals(text: str, value: float) -> None:
    assert cn_numeral(text) == value


@pytest.mark.parametrize("text", ["三点", "点五", "三点五五万万", "abc", ""])
def test_not_chinese_numerals(text: str) -> None:
    assert cn_numeral(text) is None


@pytest.mark.parametrize(("text", "units", "value"), [
    ("10k", CONTEXT_UNITS, 10_240),      # a context k is 1,024 tokens, as the text reads it
    ("32K", CONTEXT_UNITS, 32_768),
    ("1.5万", CONTEXT_UNITS, 15_000),
    ("三点五万", CONTEXT_UNITS, 35_000),
    ("32,768", CONTEXT_UNITS, 32_768),
    ("10k", BATCH_UNITS, 10_000),        # any other count's k is 1,000
    ("1.5k", BATCH_UNITS, 1_500),
    ("两千", BATCH_UNITS, 2_000),
])
def test_scaled_numbers(text: str, units: dict[str, float], value: float) -> None:
    assert scaled_number(text, units) == value


@pytest.mark.parametrize("text", ["10kk", "lots", "k", "1.2.3", "1万k"])
def test_garbage_is_not_a_number(text: str) -> None:
    assert scaled_number(text, CONTEXT_UNITS) is None


@pytest.mark.parametrize(("text", "context"), [
    ("Qwen-7B 推理，上下文三千二", 3_200),
    ("Qwen-7B 推理，上下文一万二", 12_000),
    ("Qwen-7B 推理，上下文三点五万", 35_000),
    ("Qwen-7B 推理，上下文1.5万", 15_000),
    ("Qwen-7B 推理，上下文两万五", 25_000),
])
def test_context_in_chinese_text(text: str, context: int) -> None:
    assert ask({"text": text}).query.context == context


def test_batch_in_chinese_text() -> None:
    assert ask({"text": "Qwen-7B 推理，并发两千五"}).query.batch == 2_500
    assert ask({"text": "Qwen-7B 推理，并发1.5千"}).query.batch == 1_500


@pytest.mark.parametrize("text", ["serve qwen2.5-7b for 1e400 users", "qwen2.5-7b for 3e1000 users"])
def test_a_huge_power_of_ten_is_capped_not_read_as_its_exponent(text: str) -> None:
    answer = ask({"text": text})
    assert answer.query.batch != 400 and answer.query.batch != 1000
    assert answer.understood.get("clamped")  # the reply says the number was capped
