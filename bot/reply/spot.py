"""Spot (interruptible) prices, when a question asks for them: the dated spot price of the instance the bill names,
or that none is known. The bill itself stays on-demand, which is what a job that must finish can count on."""

from __future__ import annotations

from bot.reply.cost_view import cloud_name, money
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from rules.constants import HOURS_PER_MONTH


def spot_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """"How much does spot save for 8x H100 on AWS?": a spot price beside the on-demand one, or "no spot price is
    known" — never silence, and never a guess (audit 25 LOW-52)."""
    cost = answer.cost
    if not answer.understood.get("asks_spot") or cost is None or not cost.instance or cost.per_hour is None:
        return ""
    rows = [p for p in kb.prices.values() if p.cloud == cost.cloud and p.instance == cost.instance]
    row = next((p for p in rows if p.region == cost.region and p.spot_price_per_hour), None) or next(
        (p for p in rows if p.spot_price_per_hour), None)
    if row is None or row.spot_price_per_hour is None:
        return t("spot_unknown", instance=cost.instance, cloud=cloud_name(t, cost.cloud))
    instances = cost.instances or 1
    spot = row.spot_price_per_hour * instances
    saving = 100 * (1 - row.spot_price_per_hour / row.price_per_hour) if row.price_per_hour else 0.0
    line = t("spot_price", instance=cost.instance, cloud=cloud_name(t, cost.cloud), v=money(spot),
             cur=row.currency, pct=f"{saving:.0f}", month=money(spot * HOURS_PER_MONTH), region=row.region)
    if cost.hours and cost.total is not None and row.currency == cost.currency:
        # a job of known length: its total at the spot rate too, if uninterrupted (audit 33 LOW-187 gave it only at
        # on-demand)
        line += t.sentence_gap + t("spot_job_total", total=money(spot * cost.hours), cur=row.currency)
    return line
