"""Bisection over a whole-number setting whose answer flips once: the most layers, sequences or batch that fit,
the fewest expert blocks to move. Each check may size a whole job, so it is asked O(log n) times, not n."""

from __future__ import annotations

from collections.abc import Callable


def largest_true(check: Callable[[int], bool], low: int, high: int) -> int:
    """The largest n in [low, high] with check(n), for a check true up to some point; low − 1 when check(low)
    is not."""
    if not check(low):
        return low - 1
    while low < high:
        mid = (low + high + 1) // 2
        if check(mid):
            low = mid
        else:
            high = mid - 1
    return low


def smallest_true(check: Callable[[int], bool], low: int, high: int) -> int | None:
    """The smallest n in [low, high] with check(n), for a check true from some point on; None when check(high)
    is not."""
    if not check(high):
        return None
    while low < high:
        mid = (low + high) // 2
        if check(mid):
            high = mid
        else:
            low = mid + 1
    return low
