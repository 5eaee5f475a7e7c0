"""Cards of different kinds run as one set: "a 3090 and a 3060", "4090 + 3090", "一张3090加一张3060".

Two cards named together are a comparison unless the text joins them into one machine: a "+" (or "plus",
"加"), or an "and"/"和" in a question about running the job on them ("can I run … on a 3090 and a 3060?").
Any comparison word ("vs", "or", "better", "还是", "对比") keeps it a comparison.
"""

from __future__ import annotations

from bot.understand.intent import _CHECK, _COMPARE
from bot.understand.mentions import Mention
from bot.understand.slots.base import SlotState, read_number, rx
from bot.understand.slots.sizes import COUNT_BEFORE

_PLUS = rx(r"^\s*(?:\+|plus|加上?|外加|再加)\s*$")
_AND = rx(r"^\s*(?:&|and|,|、|和|与|跟|以及|及)\s*$")
_ON = rx(r"(?:\bon|\bwith|\busing|\bhave|\bgot|\bacross|\bbetween|\bover|用|在)\s*(?:an?\s+|my\s+|one\s+)?$")
"""Words that place the job on the cards named after them: "on a 3090 and a 3060", "split across an RTX 3090 and
an RTX 3060" (a layer split, audit 26 HIGH 35)."""
MAX_SET_CARDS = 16
"""A mixed set is a home or lab machine: more cards than this are not one."""


def mixed_set(state: SlotState, gpus: list[Mention]) -> list[tuple[str, int]] | None:
    """[(card id, count), …] in the order named, when the text runs one job on cards of different kinds."""
    if len({m.entry_id for m in gpus}) < 2 or _COMPARE.search(state.text):
        return None
    folded = state.folded
    ordered = sorted(gpus, key=lambda m: m.start)
    cards: list[tuple[str, int]] = []
    joined_by_plus = True
    placed = False  # "on a 3090 and …", "用一张3090和…": the cards are where the job runs
    previous_end = 0
    for index, mention in enumerate(ordered):
        before = folded[previous_end: mention.start]
        count_match = COUNT_BEFORE.search(before)
        count = 1
        if count_match is not None:
            value = read_number(count_match)
            count = int(value) if value is not None and 0 < value <= MAX_SET_CARDS else 1
            before = before[: count_match.start()]
        if index == 0:
            placed = _ON.search(before) is not None
        elif _AND.match(before) or (count_match is not None and not before.strip()):
            joined_by_plus = False  # "and", or counts side by side ("一张3090一张3060")
        elif not _PLUS.match(before):
            return None
        cards.append((mention.entry_id, count))
        previous_end = mention.end
    if not joined_by_plus and not placed and not _CHECK.search(state.text):
        return None
    merged: dict[str, int] = {}
    for card, count in cards:
        merged[card] = merged.get(card, 0) + count
    if sum(merged.values()) > MAX_SET_CARDS:
        return None
    return list(merged.items())
