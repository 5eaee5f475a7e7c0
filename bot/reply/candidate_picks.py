"""The candidate picks before they are ordered: the card named at the counts that hold the job, and the pool's
cards beside it.

Split from `bot.reply.answer.answer`, whose one function had grown past what a reader holds at once; the order of
the picks and what the reply says of them stay there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import rules
from bot.reply.convert import check_out
from bot.reply.request_cap import lowered_request_cap
from bot.reply.serving import at_full_load
from bot.understand.question import Question
from knowledge.schema import GPU, InstanceFamily, Model
from rules import constants as C
from rules.constants import GPUS_PER_NODE
from rules.engine_profile import profile_for, reservation_fraction
from rules.fit import reserves_share_of_card
from rules.memory_common import is_transformer, num_layers
from rules.types import Pick, Workload

MAX_PICKS = 3
"""A Slack reader compares three options; more are a scroll, not advice."""
CANDIDATE_PICKS = 4 * MAX_PICKS
"""Picks ranked before the home cloud and the budget reorder them, so that a card one of them prefers is not
cut by a cheaper card elsewhere before it is looked at; the reply then shows MAX_PICKS."""


def named_card_picks(question: Question, workload: Workload, gpu: GPU, instances: list[InstanceFamily],
                     max_count: int, count: int, priced: Callable[[GPU, int], float | None]
                     ) -> tuple[list[Pick], Question | None]:
    """The card named at the count asked (or the fewest that hold the job), at the count that holds it when the
    count asked does not, and beyond the usual training counts; with the question to answer instead when only
    vLLM's start-up warm-up of its request cap keeps the card from holding the job."""
    picks: list[Pick] = []
    picks.extend(rules.rank_picks(workload, [gpu], instances, limit=1, budget=question.budget,
                                  max_count=max(max_count, count), fixed_count=question.gpu_count,
                                  hourly_price_of=priced))
    if question.gpu_count is not None and gpu.form != "consumer" and not any(p.fits for p in picks):
        # "is a single H20 enough for DeepSeek-V3": No, and the card they asked about leads at the count
        # that holds the job (8× H20) before the other cards. A GeForce card is one someone owns: what
        # more of it would do is the check's to say.
        picks.extend(p for p in rules.rank_picks(workload, [gpu], instances, limit=1, budget=question.budget,
                                                 max_count=max_count, hourly_price_of=priced) if p.fits)
    if workload.task != "inference" and not any(p.fits for p in picks):
        # "how many H100s to fully fine-tune DeepSeek-V3": beyond the 64 cards other picks stop at, the count of
        # the card named that holds it, in whole nodes (audit 26 HIGH 37: only 64 B300s were offered)
        # (and past the 128 asked: 512 of them, audit 26 HIGH 37 residue)
        asked = question.gpu_count or 0
        more = next((p for n in C.BEYOND_TRAINING_GPUS if n > asked for p in rules.rank_picks(
            workload, [gpu], instances, limit=1, max_count=n, fixed_count=n, hourly_price_of=priced) if p.fits),
            None)
        if more is not None:
            picks = [*picks, more] if asked else [more]
    if question.gpu_count is None and not any(p.fits for p in picks if p.gpu_id == gpu.id):
        # the card named holds the job at no count only because of vLLM's start-up warm-up of its request cap
        # (Llama 3.2 Vision encodes a dummy image per slot): the cap lowered, as for the count asked
        fraction = reservation_fraction(workload, profile_for(workload)) if reserves_share_of_card(workload) \
            else None
        trial = check_out(rules.check_fit(workload, gpu, 1, instances), fraction)
        if (lowered := lowered_request_cap(question, workload, trial)) is not None:
            return picks, lowered
    return picks, None


def pool_picks(question: Question, workload: Workload, gpu: GPU | None, pool: list[GPU],
               instances: list[InstanceFamily], max_count: int, priced: Callable[[GPU, int], float | None],
               picks: list[Pick]) -> list[Pick]:
    """`picks` with the pool's best cards for the job after them (and, for money per token at full load, every
    priced card at the fewest that hold the job)."""
    picks = list(picks)
    seen = {(p.gpu_id, p.count) for p in picks}
    # The layers or experts someone keeps in system RAM (-ngl, --n-cpu-moe) are their card's compromise:
    # the cards recommended beside it are those that hold every layer.
    whole = replace(workload, gpu_layers=None, cpu_moe_layers=None,
                    layer_split=tuple(question.layer_split) if question.layer_split else None)
    # a card named needs only its own neighbours, unless the cheapest job is asked: then the job's bill ranks
    # a wider field (bot.reply.answer, audit 38 HIGH-118)
    job_billed = bool(question.budget and workload.task != "inference" and question.tokens)
    wanted = MAX_PICKS if gpu is not None and not job_billed else CANDIDATE_PICKS
    for pick in rules.rank_picks(whole, pool, instances, limit=wanted, budget=question.budget,
                                 max_count=max_count, fixed_count=question.gpu_count if gpu is None else None,
                                 hourly_price_of=priced):
        # the named card's "No" is dropped below when others fit: it leaves its place to one that does
        if (pick.gpu_id, pick.count) not in seen and sum(p.fits for p in picks) < wanted:
            picks.append(pick)
    if question.budget and gpu is None and workload.task == "inference" and at_full_load(question):
        # money per token at full load (a price per token, a batch job) can favour a large card that serves
        # many sequences at once: every priced card, at the fewest that hold the job, is weighed with them
        named = {p.gpu_id for p in picks}
        for card in pool:
            if card.id in named or not card.recommended or priced(card, 1) is None:
                continue  # money per token needs the card's price
            picks += rules.rank_picks(whole, [card], instances, limit=1, max_count=max_count,
                                      hourly_price_of=priced)
    return picks


def most_cards(model: Model, question: Question) -> int | None:
    """The most cards a stated count can lay one copy of the model over, when the count is beyond it: tensor
    parallel over a node's cards and one pipeline stage a layer. None when within it, not a transformer, or when
    the cards run many copies: training data-parallel, or users and a load served by replicas."""
    if (not question.gpu_count or question.gpu_count <= GPUS_PER_NODE or not is_transformer(model)
            or question.task not in (None, "inference") or question.users or question.qps
            or question.tokens_per_s_per_user or question.output_tokens or (question.batch or 1) > 1):
        return None
    most = GPUS_PER_NODE * num_layers(model)
    return most if question.gpu_count > most else None


__all__ = ["CANDIDATE_PICKS", "MAX_PICKS", "most_cards", "named_card_picks", "pool_picks"]
