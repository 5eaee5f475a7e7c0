"""ASCII thousands separators are taken out of numbers before the slots read them, keeping offsets."""

from __future__ import annotations

import pytest

from bot.understand.numbers import keep_clause_commas, ungroup_thousands


@pytest.mark.parametrize(("text", "expected"), [
    ("~1,500 tokens", "~01500 tokens"),
    ("a 1,000-token answer", "a 01000-token answer"),
    ("10,000 H100s and 1,234,567 rows", "010000 H100s and 001234567 rows"),
    ("fp8,128k", "fp8,128k"),          # after a letter: a list, not a number
    ("1.5,000", "1.5,000"),            # after a dot: not a grouped integer
    ("32,4k", "32,4k"),                # a group of one digit: not thousands
    ("1,5000", "1,5000"),              # a group of four digits: not thousands
    ("并发 32，128 路", "并发 32，128 路"),  # a full-width comma is a clause break
])
def test_grouped_thousands(text: str, expected: str) -> None:
    out = ungroup_thousands(text)
    assert out == expected and len(out) == len(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("并发 32，128k 上下文", "并发 32、128k 上下文"),
    ("1000 条样本，512 tokens", "1000 条样本，512 tokens"),  # no digit before: a clause break NFKC may fold
    ("no comma", "no comma"),
])
def test_full_width_commas_between_numbers_stay_breaks(text: str, expected: str) -> None:
    out = keep_clause_commas(text)
    assert out == expected and len(out) == len(text)
