"""A stated budget against the priced set-up, and money in the budget's currency.

"Within 3k USD a month", "预算 2000 元", "500 USD: how many tokens can we afford?": the priced set-up over the
budget's own period (an hour, a day, a month, the whole job), converted only with the operator's dated rates; what
a whole-job budget buys when the job's length is not known; and the picks a period budget pays for first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.reply.model import BudgetOut, CostOut
from bot.reply.pricing import PriceChoice, plan_for
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.fx import ExchangeRate, convert
from rules.constants import HOURS_PER_MONTH
from rules.types import Pick

BUDGET_PERIOD_HOURS = {"hour": 1.0, "day": 24.0, "month": HOURS_PER_MONTH}
"""Hours a budget per period pays for (a total budget pays for the job, whatever its length)."""


def in_currency(amount: float, currency: str, target: str, rates: Sequence[ExchangeRate]) -> float | None:
    """`amount` in `target`: as it is when the currencies agree, by the operator's rate otherwise, else None."""
    if currency == target:
        return amount
    converted = convert(amount, currency, target, rates)
    return converted.amount if converted is not None else None


def within_budget_first(picks: Sequence[Pick], kb: KnowledgeBase, question: Question,
                        choice: PriceChoice) -> list[Pick]:
    """With a budget per hour, day or month, the picks whose price fits it come first (in their order): the
    cheapest-per-token card is no answer when a slower one is the only one the budget pays for."""
    hours = BUDGET_PERIOD_HOURS.get(question.budget_period or "")
    if question.budget_amount is None or question.budget_currency is None or hours is None:
        return list(picks)
    budget, currency = question.budget_amount, question.budget_currency

    def over(pick: Pick) -> bool:
        plan = plan_for(kb, pick.gpu_id, pick.count, choice)
        spend = in_currency(plan.per_hour * hours, plan.currency, currency, choice.rates) if plan else None
        return spend is None or spend > budget

    return sorted(picks, key=lambda p: (not p.fits, over(p)))


def budget_check(question: Question, cost: CostOut | None, rates: Sequence[ExchangeRate]) -> BudgetOut | None:
    """The question's budget against the priced set-up over the budget's own period (an hour, a day, a month,
    or the whole job), in the budget's currency; said not compared, and why, when it cannot be."""
    if question.budget_amount is None or question.budget_currency is None or question.budget_period is None:
        return None
    out = BudgetOut(amount=question.budget_amount, currency=question.budget_currency, period=question.budget_period)
    if question.budget_period == "purchase":
        return out.model_copy(update={"reason": "purchase", **_rented_instead(out, cost, rates)})
    if cost is None or cost.currency is None or cost.per_hour is None:
        return out.model_copy(update={"reason": "price"})
    hours = BUDGET_PERIOD_HOURS.get(question.budget_period)
    spend = cost.per_hour * hours if hours is not None else cost.total
    month = cost.subscription_per_month
    by_subscription = (question.budget_period == "month" and month is not None and spend is not None
                       and month < spend)
    if by_subscription:
        spend = month  # a month's budget rents the month: the subscription quoted for it, when it is cheaper
    if spend is None:
        return out.model_copy(update={"reason": "duration", **_bought(out, cost, rates)})
    in_budget_currency = in_currency(spend, cost.currency, question.budget_currency, rates)
    if in_budget_currency is None:
        return out.model_copy(update={"reason": "currency", "spend": round(spend, 2),
                                      "by_subscription": by_subscription})
    within = in_budget_currency <= question.budget_amount
    if within and cost.gpu_only:
        return out.model_copy(update={"reason": "host"})  # the GPU alone fits it; its VM, billed on top, may not
    return out.model_copy(update={"cost": round(in_budget_currency, 2), "within": within,
                                  "by_subscription": by_subscription})


def _rented_instead(budget: BudgetOut, cost: CostOut | None, rates: Sequence[ExchangeRate]) -> dict[str, Any]:
    """A sum to buy hardware with, set against renting: the hours of the priced set-up it would rent instead and,
    when the hours of use are known, what renting them costs in the sum's currency. Cloud prices say nothing of
    what cards cost to buy, but "buy or rent?" is answered by the break-even the user's own price gives (audit 38
    HIGH-115, M-149: the budget was said not compared, with a rental price on the same screen)."""
    if cost is None or not cost.per_hour or cost.currency is None:
        return {}
    amount = in_currency(budget.amount, budget.currency, cost.currency, rates)
    if amount is None:
        return {"reason": "currency"}  # no rate assumed: said so, rather than that no price is known
    rented: dict[str, Any] = {"hours_bought": round(amount / cost.per_hour, 1)}
    if cost.total is not None and cost.hours:
        rent = in_currency(cost.total, cost.currency, budget.currency, rates)
        if rent is not None:
            rented["cost"] = round(rent, 2)
            rented["use_hours"] = cost.hours
    return rented


def purchase_weighed(question: Question, cost: CostOut | None, count: int | None,
                     rates: Sequence[ExchangeRate]) -> BudgetOut | None:
    """The budget check, with the rent the buyer states for the alternative ("rent 4090s at $0.69/hr per card")
    in place of the catalogue's price when a purchase is weighed (audit 40 HIGH-125: the stated rent was ignored,
    and an unpriced card left the question unanswered)."""
    if question.budget_period != "purchase" or not question.rent_per_hour or not question.rent_currency:
        return budget_check(question, cost, rates)
    # the cards bought are the ones the rent is set against: those the question counts, else the set-up priced
    cards = max(1, question.gpu_count or (cost.count if cost is not None and cost.count else count) or 1)
    per_hour = question.rent_per_hour * (cards if question.rent_per_card else 1)
    hours = question.hours or (cost.hours if cost is not None else None)
    stated = CostOut(currency=question.rent_currency, per_hour=round(per_hour, 4), hours=hours,
                     total=round(per_hour * hours, 2) if hours else None,
                     gpu=cost.gpu if cost is not None else None, count=cards)
    out = budget_check(question, stated, rates)
    if out is None:
        return None
    return out.model_copy(update={"rent_stated": True, "rent_per_hour": stated.per_hour,
                                  "rent_currency": stated.currency})


def with_power(budget: BudgetOut | None, cost: CostOut | None, kb: KnowledgeBase,
               cards: int | None = None) -> BudgetOut | None:
    """A purchase weighed against renting, with what the bought cards draw: their rated board power and, over the
    hours of use, the energy; the electricity price is the buyer's (no sourced tariff), so it is left to them."""
    if budget is None or budget.reason != "purchase" or cost is None or not cost.gpu or not cost.count:
        return budget
    card = kb.gpus.get(cost.gpu)
    if card is None or not card.tdp_w:
        return budget
    kw = card.tdp_w * (cards or cost.count) / 1000.0
    hours = budget.use_hours or cost.hours
    energy = round(kw * hours / 1000.0, 1) if hours else None
    return budget.model_copy(update={"power_kw": round(kw, 2), "energy_mwh": energy})


def _bought(budget: BudgetOut, cost: CostOut, rates: Sequence[ExchangeRate]) -> dict[str, float]:
    """What a whole-job budget pays for when the job's length is not known: hours of the priced set-up and, at
    its sized throughput, the tokens trained or generated in them ("500 USD: how many tokens can we afford?")."""
    amount = in_currency(budget.amount, budget.currency, cost.currency or budget.currency, rates)
    if amount is None or not cost.per_hour:
        return {}
    bought = {"hours_bought": round(amount / cost.per_hour, 2)}
    if cost.per_billion_tokens:
        bought["tokens_bought"] = float(f"{amount / cost.per_billion_tokens * 1e9:.3g}")
    elif cost.per_million_tokens:
        bought["tokens_bought"] = float(f"{amount / cost.per_million_tokens * 1e6:.3g}")
    return bought
