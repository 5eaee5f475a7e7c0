"""Exchange rates the operator sets, never ones the advisor assumes.

Prices stay in the currency their source quotes. `GPU_ADVISOR_FX` may name dated rates, e.g.
``USD/CNY=7.1@2026-11-30`` (1 USD = 7.1 CNY as of that day; several separated by commas); only then may a
caller convert, and the converted figure keeps the rate and its date so a reply can say so.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FX_ENV = "GPU_ADVISOR_FX"

_RATE = re.compile(r"^\s*([A-Za-z]{3})\s*/\s*([A-Za-z]{3})\s*=\s*([0-9]*\.?[0-9]+)\s*@\s*(\d{4}-\d{2}-\d{2})\s*$")


@dataclass(frozen=True)
class ExchangeRate:
    """1 `base` = `rate` `quote`, as of `date` (YYYY-MM-DD)."""

    base: str
    quote: str
    rate: float
    date: str

    def __str__(self) -> str:
        return f"{self.base}/{self.quote}={self.rate:g}@{self.date}"


@dataclass(frozen=True)
class Converted:
    """An amount converted with a stated rate: the original stays next to it."""

    amount: float
    currency: str
    original_amount: float
    original_currency: str
    rate: ExchangeRate


def parse_fx(text: str) -> tuple[ExchangeRate, ...]:
    """Rates from `BASE/QUOTE=RATE@YYYY-MM-DD[, ...]`; a rate without its date is refused (ValueError)."""
    rates = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        found = _RATE.match(part)
        if found is None:
            raise ValueError(f"{part!r} is not BASE/QUOTE=RATE@YYYY-MM-DD (e.g. USD/CNY=7.1@2026-11-30)")
        base, quote, value, date = found.groups()
        try:
            _dt.date.fromisoformat(date)
        except ValueError:
            raise ValueError(f"{date!r} in {part!r} is not a calendar date") from None
        if float(value) <= 0:
            raise ValueError(f"the rate in {part!r} must be positive")
        if base.upper() == quote.upper():
            raise ValueError(f"{part!r} converts a currency into itself")
        rates.append(ExchangeRate(base.upper(), quote.upper(), float(value), date))
    return tuple(rates)


def fx_from_env(environ: Mapping[str, str] | None = None) -> tuple[ExchangeRate, ...]:
    """The rates in `$GPU_ADVISOR_FX`; none when it is unset or empty (then nothing is ever converted)."""
    text = (os.environ if environ is None else environ).get(FX_ENV, "")
    return parse_fx(text) if text.strip() else ()


def convert(amount: float, from_currency: str, to_currency: str, rates: Iterable[ExchangeRate]) -> Converted | None:
    """`amount` in `to_currency` by a rate that names the pair (either direction), or None when none does.

    Same currency is not a conversion and returns None too: the caller keeps the amount as it is.
    """
    source, target = from_currency.upper(), to_currency.upper()
    if source == target:
        return None
    for rate in rates:
        if (rate.base, rate.quote) == (source, target):
            return Converted(amount * rate.rate, target, amount, source, rate)
        if (rate.base, rate.quote) == (target, source):
            return Converted(amount / rate.rate, target, amount, source, rate)
    return None
