"""Cost per million tokens (the speed model itself is tested in test_speed.py)."""

from __future__ import annotations

import pytest

from rules import cost_per_million_tokens


def test_cost_per_million_tokens() -> None:
    # 3.6 per hour at 1,000 tokens/s = 3.6 per 3.6 M tokens = 1.0 per million.
    assert cost_per_million_tokens(3.6, 1000) == pytest.approx(1.0)
    assert cost_per_million_tokens(10.0, 50) == pytest.approx(10 / (50 * 3600) * 1e6)  # 55.6
    with pytest.raises(ValueError):
        cost_per_million_tokens(1.0, 0)
