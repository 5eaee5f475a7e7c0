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
                hourly_price_of: Callable[[GPU, int], float | None], cheapest: bool = False) -> bool:
    """`other` holds the job with room, rents for less and costs less a token decoded than `scale_out`; asked for
    the cheapest, renting for less is enough (its speed is on its line)."""
    if not other.fits or other.tight or other.gpu_id == scale_out.gpu_id:
        return False
    mine, theirs = layout_bill(scale_out, kb, hourly_price_of), layout_bill(other, kb, hourly_price_of)
    if mine is None or theirs is None or theirs >= mine:
        return False
    if cheapest:
        return True
    if scale_out.decode_tokens_per_s is None or other.decode_tokens_per_s is None:
        return False
    # money per useful work (design.md's order where prices are known): both serve the load asked, so each
    # token costs the bill over the speed a sequence decodes at; 4× L4 at 4.60 USD/h and ~22 tok/s had led one
    # RTX A6000 at 0.50 USD/h and ~17 tok/s, 7× the cost a token (audit 34 M-127)
    return theirs / other.decode_tokens_per_s < mine / scale_out.decode_tokens_per_s


def named_scale_out_gives_way(picks: Sequence[Pick], named: GPU | None, asked_count: int | None, kb: KnowledgeBase,
                              hourly_price_of: Callable[[GPU, int], float | None],
                              cheapest: bool = False) -> list[Pick]:
    """`picks` with the sets of the card named at more than the count asked, when a pick below them outdoes them
    on bill and speed (on bill alone when the question asks for the cheapest: "cheaper?" after 4× H100 kept them
    first at 16.36 USD/h above 4× RTX A6000 at 2.00, audit 33 M-111), moved after the first such pick (each layout
    of it the pick outdoes: tensor parallel and replicas alike). The set asked about as written stays where it
    is: its verdict is the question's answer."""
    out = list(picks)
    if named is None:
        return out
    # the set asked about, when it cannot hold the job, may lead the list with its "No" (kept for its replicas)
    lead = next((i for i, p in enumerate(out) if p.gpu_id != named.id or p.count != asked_count), None)
    if cheapest:
        # "cheaper?" asks past the set asked about too (audit 35, M-111 again: "4× L40S" stayed first after
        # "what about 4 of them?" → "cheaper?", above 2× RTX A6000 at a ninth of the price)
        lead = next((i for i, p in enumerate(out) if p.gpu_id == named.id), None)
    if lead is None:
        return out
    block_end = next((i for i in range(lead, len(out)) if out[i].gpu_id != named.id), len(out))
    block = out[lead:block_end]
    if not block or not block[0].fits:
        return out
    below = range(block_end, len(out))
    # asked for the cheapest, the card named goes after every cheaper pick, not only the first
    for i in reversed(below) if cheapest else below:
        if _outdone_by(block[0], out[i], kb, hourly_price_of, cheapest):
            # every layout of the card named that this set outdoes moves with the first, in their order
            moved = [p for p in block if _outdone_by(p, out[i], kb, hourly_price_of, cheapest)]
            stay = [p for p in block if p not in moved]
            return [*out[:lead], *stay, *out[block_end:i + 1], *moved, *out[i + 1:]]
    return out
