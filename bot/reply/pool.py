"""Which cards a reply ranks: the default pool (the NVIDIA datacenter and workstation cards a team rents or buys
for ML work), widened or narrowed by what the question says."""

from __future__ import annotations

from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU

DEFAULT_POOL_FORMS = ("datacenter", "workstation")
DEFAULT_POOL_VENDORS = ("NVIDIA",)


MIN_CARDS_TO_NARROW = 4
"""A cloud's price rows narrow the pool only when they name at least this many cards: one GCP row (an L4) is what
the knowledge base happens to hold, not all that GCP rents."""


def candidate_gpus(question: Question, kb: KnowledgeBase) -> tuple[list[GPU], bool]:
    """The cards to rank, and whether the default pool was narrowed (the reply says so).

    By default: NVIDIA datacenter cards, and the workstation cards a cloud rents (a dated price row lists
    them: the RTX A6000, not an RTX A4000 bought for a desk), which is what a team renting or buying for ML work
    chooses between. Consumer and other workstation cards join when the question asks for the cheapest option
    or names such a card; other vendors when one is named; on Alibaba Cloud, the cards its instances carry; on
    another cloud named, the cards its price rows rent (none of the desk cards where no row is known). A question
    that asks for a consumer card gets consumer cards only (GeForce; Radeon when one is named).
    """
    gpus = [gpu for gpu in kb.gpus.values() if gpu.recommended
            and not (question.cloud and gpu.only_on and question.cloud not in gpu.only_on)]  # no A10G on Azure
    if question.cloud == "alibaba":
        offered = {family.gpu_id for family in kb.instance_families.values() if family.gpu_id}
        on_cloud = [gpu for gpu in gpus if gpu.id in offered]
        if on_cloud:
            return on_cloud, False
    named = [kb.gpus[g] for g in [question.gpu, *question.compare_gpus] if g and g in kb.gpus]
    if question.cloud and not named and not question.consumer:
        # "on AWS": the cards that cloud rents (its dated price rows, and the cards its VM types carry, priced or
        # not: an H20 or an H200 NVL is no answer on Azure, which rents neither, audit 27 M-37); a cloud with none
        # known rents no desk cards either, so GeForce is no answer there even for "the cheapest"
        offered_there = kb.rented_on(question.cloud)
        there = [gpu for gpu in gpus if gpu.id in offered_there]
        if len(there) >= MIN_CARDS_TO_NARROW:
            return there, False
        gpus = [gpu for gpu in gpus if gpu.form != "consumer"]
    vendors = set(DEFAULT_POOL_VENDORS) | {g.vendor for g in named}
    if question.consumer:
        # "a gaming GPU", "at home": the cards someone buys for a desk, however cheap a rented V100 is
        bought = [gpu for gpu in gpus if gpu.form in {"consumer"} | {g.form for g in named} and gpu.vendor in vendors]
        if bought:
            return bought, True
    local = question.engine == "llama.cpp" or any(g.form == "consumer" for g in named)
    forms = set(DEFAULT_POOL_FORMS) | ({"consumer"} if question.budget or local else set()) | {g.form for g in named}
    if not (question.budget or local or any(g.form == "workstation" for g in named)):
        rented = {price.gpu for price in kb.prices.values()}
        gpus = [gpu for gpu in gpus if gpu.form != "workstation" or gpu.id in rented]
    pool = [gpu for gpu in gpus if gpu.form in forms and gpu.vendor in vendors]
    return (pool or gpus), len(pool) < len(gpus)


def as_candidate(gpu: GPU) -> GPU:
    """A card the question names, ranked like a pick even when it is never recommended (a laptop chip runs models,
    and two of them can be compared): `rules.rank_picks` skips cards that are not."""
    return gpu if gpu.recommended else gpu.model_copy(update={"recommended": True})
