""""Cheapest", "budget", "性价比": the cheapest way includes quantised weights and smaller cards.

Serving a 32B model in bf16 on two 48 GB cards is not the cheapest way when a 4-bit checkpoint runs on one
24 GB card. When the question asks for the cheapest option and states no precision, the released precision,
8-bit and 4-bit weights are each ranked over the same cards, and the variant whose best configuration costs
least per hour wins (ties keep the higher precision); the reply states the quality trade-off in one line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import rules
from bot.reply.budget_money import BUDGET_PERIOD_HOURS, in_currency
from bot.reply.model import Assumption
from bot.reply.pricing import plan_for, price_choice
from bot.understand.intent import CAPACITY
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, InstanceFamily
from rules.fit import pick_cost
from rules.types import Precision, Workload

QUANTISED_VARIANTS: tuple[tuple[Precision, str, str], ...] = (
    ("int8", "gptq-int8", "gguf-q8_0"),
    ("int4", "awq", "gguf-q4_k_m"),
)
"""(precision, format on GPU serving engines, format on llama.cpp): the checkpoints people serve cheaply."""


def _best_cost(workload: Workload, pool: Sequence[GPU], instances: Sequence[InstanceFamily],
               max_count: int) -> float | None:
    picks = rules.rank_picks(workload, pool, instances, limit=1, budget=True, max_count=max_count)
    if not picks or not picks[0].fits:
        return None
    gpu = next(g for g in pool if g.id == picks[0].gpu_id)
    return pick_cost(picks[0], gpu)


def cheapest_variant(question: Question, workload: Workload, pool: Sequence[GPU],
                     instances: Sequence[InstanceFamily], max_count: int,
                     hourly_price_of: Callable[[GPU, int], float | None] | None = None,
                     kb: KnowledgeBase | None = None) -> tuple[Workload, Assumption | None]:
    """The workload at the precision that serves it cheapest (asked for the cheapest, or on cards bought for a
    desk), and the assumption that says so. Cards compared on cost ("which card is cheaper per token") are
    weighed in the formats the model's makers release only: the question weighs the cards, not a community
    quantisation of the model."""
    if (not (question.budget or question.consumer) or workload.task != "inference" or question.precision
            or question.quant or workload.model.arch != "decoder" or workload.precision in ("int4", "mxfp4")):
        return workload, None
    if question.intent == "check" and question.budget and not question.consumer:
        # "does it fit on a single T4, and what's the cheapest way to serve it there": the verdict is the model's as
        # released (No at 16.7 GiB), and the quantisation that fits is the fix the check gives; a silent INT4
        # made it a bare "Yes" (audit 23 M-16)
        return workload, None
    best = _best_cost(workload, pool, instances, max_count)
    chosen = workload
    for precision, quant, gguf in QUANTISED_VARIANTS:
        if precision == "int8" and workload.precision == "fp8":
            continue  # an FP8 release is already one byte per weight
        variant = replace(workload, precision=precision, quant=gguf if workload.engine == "llama.cpp" else quant)
        if (question.intent == "compare" and question.compare_gpus
                and _release_name(variant.quant) not in workload.model.official_quants):
            continue
        cost = _best_cost(variant, pool, instances, max_count)
        if cost is not None and (best is None or cost < best):
            best, chosen = cost, variant
    if chosen is workload:
        return workload, None
    if hourly_price_of is not None and kb is not None and _release_within_budget(
            question, workload, pool, instances, max_count, hourly_price_of, kb):
        # "a $2/hr budget, best GPU to serve it": a sum to stay within, not a wish for the least spent; the
        # release served within it needs no quantisation (audit 31 M-81: a community INT4 on a T4, while an RTX
        # A6000 at 0.50 USD/h serves the bf16 release)
        return workload, None
    if hourly_price_of is not None and _same_set_up(workload, chosen, pool, instances, max_count, hourly_price_of):
        # the quantised weights land on the very set-up the release does at its dated price: they buy nothing but
        # a loss of quality, or someone else's checkpoint (audit 30 LOW-121)
        return workload, None
    reason = "budget-quantised" if question.budget else "consumer-quantised"
    if _release_name(chosen.quant) not in workload.model.official_quants:
        reason += "-community"  # the makers release no such checkpoint: the reply says it is someone else's
    note = Assumption(field="precision", value=f"{chosen.precision} ({chosen.quant})", reason=reason)
    return chosen, note


def _release_within_budget(question: Question, release: Workload, pool: Sequence[GPU],
                           instances: Sequence[InstanceFamily], max_count: int,
                           hourly_price_of: Callable[[GPU, int], float | None], kb: KnowledgeBase) -> bool:
    """Whether the release's cheapest priced set-up costs no more than the sum the question states for its
    period (an hour, a day, a month); False with no such sum, where the currencies have no rate, or where the
    cheapest is asked for in words as well."""
    hours = BUDGET_PERIOD_HOURS.get(question.budget_period or "")
    if (hours is None or question.budget_amount is None or question.budget_currency is None
            or "budget" in question.stated  # "cheapest" asked in words: the least spent, quantised if need be
            # a load to carry is billed for the replicas it takes, which a fit within the sum does not show
            or question.qps or question.ttft_s or question.tokens_per_s_per_user or question.output_tokens_per_s
            or (question.batch or 1) > 1 or question.users):
        return False
    choice = price_choice(question)
    for pick in rules.rank_picks(release, pool, instances, limit=3, budget=True, max_count=max_count,
                                 hourly_price_of=hourly_price_of):
        plan = plan_for(kb, pick.gpu_id, pick.count, choice) if pick.fits else None
        if plan is None:
            continue
        # the row's own currency, converted only at a known rate: the price levels that rank cards across
        # currencies are no rate to hold a sum against
        spend = in_currency(plan.per_hour * hours, plan.currency, question.budget_currency, choice.rates)
        if spend is not None and spend <= question.budget_amount:
            return True
    return False


def _same_set_up(release: Workload, variant: Workload, pool: Sequence[GPU], instances: Sequence[InstanceFamily],
                 max_count: int, hourly_price_of: Callable[[GPU, int], float | None]) -> bool:
    """Whether the cheapest set-up at the dated prices is the same cards for the release and the variant."""
    def first(w: Workload) -> tuple[str, int] | None:
        picks = rules.rank_picks(w, pool, instances, limit=1, budget=True, max_count=max_count,
                                 hourly_price_of=hourly_price_of)
        return (picks[0].gpu_id, picks[0].count) if picks and picks[0].fits else None

    own = first(release)
    return own is not None and own == first(variant)


def _release_name(quant: str | None) -> str:
    """A serving format as the knowledge base lists official releases (`Model.official_quants`)."""
    name = (quant or "").lower()
    if name.startswith("gguf"):
        return "gguf"
    return {"awq": "awq-int4", "gptq": "gptq-int4"}.get(name, name)


BUDGET_COUNTS = (1, 2, 4, 8)
"""Cards per configuration a budget is matched against: one node's worth."""


def most_memory_within(question: Question, kb: KnowledgeBase) -> tuple[GPU, int] | None:
    """"The biggest model 2,000 USD a month serves": the configuration with the most GPU memory whose dated price
    over the budget's period (an hour, a day, a month of 730 h) is within it, in the budget's currency; ties go
    to the cheaper. None without a per-period budget or when no priced configuration is within it."""
    hours = BUDGET_PERIOD_HOURS.get(question.budget_period or "")
    if hours is None or question.budget_amount is None or question.budget_currency is None:
        return None
    choice = price_choice(question)
    best: tuple[float, float, GPU, int] | None = None
    for gpu in kb.gpus.values():
        if not gpu.recommended:
            continue
        for count in BUDGET_COUNTS:
            plan = plan_for(kb, gpu.id, count, choice)
            if plan is None or plan.gpus != count:
                continue
            spend = in_currency(plan.per_hour * hours, plan.currency, question.budget_currency, choice.rates)
            if spend is None or spend > question.budget_amount:
                continue
            key = (gpu.memory_gb * count, -spend)
            if best is None or key > (best[0], best[1]):
                best = (key[0], key[1], gpu, count)
    return (best[2], best[3]) if best is not None else None


def budget_capacity(question: Question, kb: KnowledgeBase) -> Question | None:
    """A budget and no model ("预算每月1万元，能部署多大的模型"): the question as a capacity question about the
    cards with the most memory the budget rents, or None when it is not such a question or nothing is within."""
    if question.model or question.params_b or question.gpu or question.memory_gb:
        return None
    if question.intent == "faq" and CAPACITY.search(question.text) is None:
        return None  # "is an A10 worth it on a budget" is the FAQ's; "what is the largest model $2k runs" is ours
    found = most_memory_within(question, kb)
    if found is None:
        return None
    gpu, count = found
    return question.model_copy(update={"intent": "gpu_info", "gpu": gpu.id, "gpu_count": count,
                                       "asks_capacity": True, "notes": [*question.notes, "budget-most-memory"]})
