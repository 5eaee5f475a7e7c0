"""Money: cost per million tokens from an hourly price and a throughput."""

from __future__ import annotations


def cost_per_million_tokens(price_per_hour: float, tokens_per_s: float) -> float:
    """price / (tokens per hour) × 10⁶, in the price's currency."""
    if tokens_per_s <= 0:
        raise ValueError("tokens_per_s must be positive")
    if price_per_hour < 0:
        raise ValueError("price_per_hour must not be negative")
    return price_per_hour / (tokens_per_s * 3600.0) * 1e6


def training_cost(price_per_hour: float, hours: float) -> float:
    return price_per_hour * hours
