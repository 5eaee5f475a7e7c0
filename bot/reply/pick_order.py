"""Where the card named gives way in the recommended list.

The card someone names leads the picks at the count that holds the job ("is one H20 enough for DeepSeek-V3":
8× H20 first), because that answers "how many of mine". When that larger set of it is both dearer to rent and
slower than a set listed below it, leading with it misleads: 2× A100 40GB at 3.98 USD/h and ~9.6 tok/s came
above one A100 80GB at 1.29 USD/h and ~12 tok/s (audit 26 LOW-58). The check's "what would fit" still names the
larger set of the card asked about."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.reply.serving import layout_bill
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules.types import Pick


def _outdone_by(scale_out: Pick, other: Pick, kb: KnowledgeBase,
                hourly_price_of: Callable[[GPU, int], float | None]) -> bool:
    """`other` holds the job with room, rents for less and decodes no slower than `scale_out`."""
    if not other.fits or other.tight or other.gpu_id == scale_out.gpu_id:
        return False
    mine, theirs = layout_bill(scale_out, kb, hourly_price_of), layout_bill(other, kb, hourly_price_of)
    if mine is None or theirs is None or theirs >= mine:
        return False
    return (scale_out.decode_tokens_per_s is not None and other.decode_tokens_per_s is not None
            and other.decode_tokens_per_s >= scale_out.decode_tokens_per_s)


def named_scale_out_gives_way(picks: Sequence[Pick], named: GPU | None, asked_count: int | None, kb: KnowledgeBase,
                              hourly_price_of: Callable[[GPU, int], float | None]) -> list[Pick]:
    """`picks` with the first, when it is more of the card named than asked (or a count the rules found for it)
    and a pick below it outdoes it on bill and speed, moved after the first such pick. The set asked about as
    written stays first: its verdict is the question's answer."""
    out = list(picks)
    if named is None:
        return out
    # the set asked about, when it cannot hold the job, may lead the list with its "No" (kept for its replicas)
    lead = next((i for i, p in enumerate(out) if p.gpu_id != named.id or p.count != asked_count), None)
    if lead is None:
        return out
    first = out[lead]
    if first.gpu_id != named.id or not first.fits:
        return out
    for i in range(lead + 1, len(out)):
        if _outdone_by(first, out[i], kb, hourly_price_of):
            return [*out[:lead], *out[lead + 1:i + 1], first, *out[i + 1:]]
    return out
