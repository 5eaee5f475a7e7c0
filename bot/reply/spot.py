"""Spot (interruptible) prices, when a question asks for them: the dated spot price of the instance the bill names,
or that none is known. The bill itself stays on-demand, which is what a job that must finish can count on."""

from __future__ import annotations

from bot.reply.cost_view import cloud_name, money
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from knowledge.prices import Price
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
        line = t("spot_unknown", instance=cost.instance, cloud=cloud_name(t, cost.cloud))
        other = _cheapest_spot_elsewhere(kb, cost.gpu, cost.instance_gpus or cost.count, cost.currency)
        if other is not None:
            # the same cards rented elsewhere with a dated spot price: named, as the follow-up asked for spot
            # (audit 40 M-163: "no spot price" for the instance quoted, where Nebius lists 8 H100s at 10 USD/h)
            instances = cost.instances or 1
            spot = (other.spot_price_per_hour or 0.0) * instances
            line += t.sentence_gap + t("spot_elsewhere", instance=other.instance, cloud=cloud_name(t, other.cloud),
                                       v=money(spot), cur=other.currency, month=money(spot * HOURS_PER_MONTH),
                                       region=other.region)
            if cost.hours and cost.total is not None:
                line += t.sentence_gap + t("spot_job_total", total=money(spot * cost.hours), cur=other.currency)
        return line
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


def _cheapest_spot_elsewhere(kb: KnowledgeBase, gpu: str | None, count: int | None,
                             currency: str | None) -> Price | None:
    """The dated price row with the lowest spot price for instances of `count` × `gpu` in `currency`, or None."""
    if not gpu or not count:
        return None
    rows = [p for p in kb.prices.values() if p.gpu == gpu and p.count == count and p.spot_price_per_hour
            and (currency is None or p.currency == currency) and not p.host_billed_separately]
    return min(rows, key=lambda p: p.spot_price_per_hour or 0.0) if rows else None
