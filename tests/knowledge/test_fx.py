"""Exchange rates: parsed only from what the operator wrote, dated, applied in either direction."""

from __future__ import annotations

import pytest

from knowledge.fx import ExchangeRate, convert, fx_from_env, parse_fx


def test_parse_one_and_several() -> None:
    assert parse_fx("USD/CNY=7.1@2026-11-30") == (ExchangeRate("USD", "CNY", 7.1, "2026-11-30"),)
    two = parse_fx(" usd/cny = 7.1 @ 2026-11-30 , EUR/USD=1.08@2026-11-29")
    assert [str(r) for r in two] == ["USD/CNY=7.1@2026-11-30", "EUR/USD=1.08@2026-11-29"]


@pytest.mark.parametrize(
    "text", ["USD/CNY=7.1", "USD/CNY=7.1@2026-02-30", "USD/CNY=0@2026-11-30", "USD/USD=1@2026-11-30", "7.1"]
)
def test_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_fx(text)


def test_env_unset_means_no_conversion() -> None:
    assert fx_from_env({}) == ()
    assert fx_from_env({"GPU_ADVISOR_FX": "USD/CNY=7.1@2026-11-30"})[0].rate == 7.1


def test_convert_both_directions_and_records_the_rate() -> None:
    rates = parse_fx("USD/CNY=7.1@2026-11-30")
    to_cny = convert(2.0, "USD", "CNY", rates)
    assert to_cny is not None and to_cny.amount == pytest.approx(14.2) and to_cny.rate.date == "2026-11-30"
    to_usd = convert(71.0, "CNY", "USD", rates)
    assert to_usd is not None and to_usd.amount == pytest.approx(10.0) and to_usd.original_amount == 71.0
    assert convert(1.0, "EUR", "USD", rates) is None
    assert convert(1.0, "USD", "USD", rates) is None
