"""The budget line of the cost block: whether the priced set-up is within the budget the question stated, what it
buys when the budget is a sum rather than a rate, or why it was not compared (a purchase budget, another
currency with no rate set)."""

from __future__ import annotations

from bot.reply.cost_view import PERIOD_WORDS, amount, money
from bot.reply.formatting import billed_hours, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer, BudgetOut, CostOut
from knowledge.base import KnowledgeBase
from rules.constants import HOURS_PER_MONTH


def budget_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Whether the priced set-up is within the budget the question stated (or why it was not compared)."""
    budget = answer.budget
    if budget is None:
        return ""
    per = t.pick(PERIOD_WORDS, budget.period)
    values = {"amount": money(budget.amount), "cur": budget.currency, "per": per}
    if budget.within is None:
        cost = answer.cost
        if budget.reason == "purchase" and budget.hours_bought is not None and (
                budget.rent_stated or (cost is not None and cost.per_hour is not None)):
            return _rent_or_buy(budget, cost, t, values)
        if budget.hours_bought is not None and cost is not None and cost.per_hour is not None:
            hours = billed_hours(budget.hours_bought)
            tokens = ""
            if budget.tokens_bought:
                key = "budget_buys_trained" if cost.per_billion_tokens else "budget_buys_generated"
                tokens = t(key, tokens=amount(budget.tokens_bought))
            return t("budget_buys", hours=hours, per_hour=money(cost.per_hour), cost_cur=cost.currency,
                     tokens=tokens, **values)
        if budget.reason == "price" and budget.uncompared:
            others = ", ".join(f"{p['count']}× {gpu_name(kb, p['gpu'])} ({money(p['per_hour'])} {p['currency']}/h)"
                               for p in budget.uncompared)
            return t("budget_unpriced", reason=t("budget_reason_price_top", others=others), **values)
        reason = t(f"budget_reason_{budget.reason or 'price'}", cur=cost.currency if cost else "")
        line = t("budget_unpriced", reason=reason, **values)
        if budget.reason == "currency" and budget.spend and cost is not None and cost.currency:
            # no rate is assumed: the rate at which the set-up meets the budget is what the reader can check
            line += t.sentence_gap + t(
                "budget_break_even", spend=money(budget.spend), cost_cur=cost.currency,
                rate=f"{budget.amount / budget.spend:,.3g}", **values)
        return line
    if budget.within or not budget.uncompared:
        floor = "≥ " if answer.cost is not None and answer.cost.gpu_only else ""  # the GPU alone: its VM is extra
        key = "budget_within" if budget.within else "budget_over"
        return t(key + ("_subscription" if budget.by_subscription else ""), cost=floor + money(budget.cost),
                 **values)
    others = ", ".join(f"{p['count']}× {gpu_name(kb, p['gpu'])} ({money(p['per_hour'])} {p['currency']}/h)"
                       for p in budget.uncompared)
    return t("budget_over_priced_in_other", cost=money(budget.cost), others=others,
             other=budget.uncompared[0]["currency"], **values)


def _rent_or_buy(budget: BudgetOut, cost: CostOut | None, t: Translator, values: dict[str, str]) -> str:
    """A purchase price set against renting (at the rent the question states, else the catalogue's): the hours the
    same sum rents, and over the hours of use stated which costs less. Power, hosting and resale are said to be
    left out, and the purchase price to be the user's."""
    per_hour = budget.rent_per_hour if budget.rent_stated else (cost.per_hour if cost is not None else None)
    currency = budget.rent_currency if budget.rent_stated else (cost.currency if cost is not None else None)
    line = t("budget_purchase_rents_stated" if budget.rent_stated else "budget_purchase_rents",
             hours=billed_hours(budget.hours_bought or 0),
             months=f"{(budget.hours_bought or 0) / HOURS_PER_MONTH:,.1f}", per_hour=money(per_hour or 0),
             cost_cur=currency, **values)
    hours = budget.use_hours
    if budget.cost is not None and hours:
        key = "budget_purchase_rent_less" if budget.cost < budget.amount else "budget_purchase_rent_more"
        line += t.sentence_gap + t(key, use=billed_hours(hours), rent=money(budget.cost), **values)
    if budget.power_kw:
        # the bought cards' own draw, the running cost renting includes (audit 36 M-134): energy, not a tariff
        key = "budget_purchase_energy" if budget.energy_mwh else "budget_purchase_power"
        line += t.sentence_gap + t(key, kw=f"{budget.power_kw:,.1f}", mwh=f"{budget.energy_mwh or 0:,.0f}",
                                   use=billed_hours(hours or 0))
    return line + t.sentence_gap + t("budget_purchase_left_out")


__all__ = ["budget_line"]
