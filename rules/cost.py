"""Money: which instances hold a job's GPUs and what they cost per hour, per month, per token, per job.

Pure arithmetic over price rows the caller passes in (`kb.prices.values()` or a user's negotiated rows):
nothing here looks a price up, so a reply can only quote a price the caller holds, with its date and source.

Money in two currencies is never compared without a rate: a plan in another currency than the one asked
for is converted only with an operator-set rate (`knowledge.fx`), and the plan keeps that rate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from knowledge.fx import ExchangeRate, convert
from knowledge.prices import Price
from rules import constants as C


def cost_per_million_tokens(price_per_hour: float, tokens_per_s: float) -> float:
    """price / (tokens per hour) × 10⁶, in the price's currency."""
    if tokens_per_s <= 0:
        raise ValueError("tokens_per_s must be positive")
    if price_per_hour < 0:
        raise ValueError("price_per_hour must not be negative")
    return price_per_hour / (tokens_per_s * 3600.0) * 1e6


def training_cost(price_per_hour: float, hours: float) -> float:
    """A job pays for every hour it holds the instances: price × wall-clock hours."""
    if price_per_hour < 0 or hours < 0:
        raise ValueError("price_per_hour and hours must not be negative")
    return price_per_hour * hours


def monthly_cost(price_per_hour: float, hours_per_month: float = C.HOURS_PER_MONTH) -> float:
    """Continuous rental for a month (730 h by default)."""
    return training_cost(price_per_hour, hours_per_month)


@dataclass(frozen=True)
class InstancePlan:
    """`instances` copies of one price row, holding at least the GPUs asked for, at `per_hour` in `currency`.

    An instance with more GPUs than needed counts at its full price. `rate` is the exchange rate used when
    `currency` is not the row's own; None means the figure is the source's.
    """

    price: Price
    instances: int
    per_hour: float
    currency: str
    rate: ExchangeRate | None = None

    @property
    def gpus(self) -> int:
        return self.instances * self.price.count

    @property
    def converted(self) -> bool:
        return self.rate is not None


def _quotable(row: Price) -> bool:
    """Rows `kb check` would reject cannot be multiplied into a cost."""
    return row.price_per_hour > 0 and row.count >= 1


def plans_for(
    prices: Iterable[Price],
    gpu: str,
    count: int,
    *,
    cloud: str | None = None,
    split_ok: bool = False,
    include_gpu_only: bool = False,
) -> list[InstancePlan]:
    """Every way one cloud's instance type holds `count` GPUs of `gpu`, each in the row's own currency.

    Within a cloud only the plans with the fewest instances are kept (unless `split_ok`): GPUs that one job
    shares (tensor parallelism, one training step) want one node, so four 1-GPU instances do not stand in
    for one 4-GPU instance, and a cloud without an instance of `count` cards (up to a node, GPUS_PER_NODE) has
    no plan; past a node the plan is several node-sized instances (16 GPUs = 2 × 8).
    GPU-only rows (host billed separately) are not the price of a runnable instance and are left out
    unless `include_gpu_only`.
    """
    if count < 1:
        raise ValueError("count must be at least 1")
    by_cloud: dict[str, list[InstancePlan]] = {}
    for row in prices:
        if row.gpu != gpu or not _quotable(row) or (row.host_billed_separately and not include_gpu_only):
            continue
        if cloud is not None and row.cloud.lower() != cloud.lower():
            continue
        instances = math.ceil(count / row.count)
        plan = InstancePlan(row, instances, instances * row.price_per_hour, row.currency)
        by_cloud.setdefault(row.cloud, []).append(plan)
    plans: list[InstancePlan] = []
    for candidates in by_cloud.values():
        if not split_ok:
            # A job of up to a node shares one node, and a bigger one is laid out in full nodes (tensor
            # parallel inside, pipeline or data parallel across): a VM with fewer of its cards cannot host it.
            candidates = [p for p in candidates if p.price.count >= min(count, C.GPUS_PER_NODE)]
            if not candidates:
                continue
        fewest = min(p.instances for p in candidates)
        plans.extend(p for p in candidates if split_ok or p.instances == fewest)
    return sorted(plans, key=lambda p: (p.currency, p.per_hour, p.price.cloud, p.price.instance, p.price.region))


def in_currency(plan: InstancePlan, currency: str, rates: Sequence[ExchangeRate]) -> InstancePlan:
    """The plan re-expressed in `currency` when a rate names the pair; unchanged otherwise."""
    converted = convert(plan.per_hour, plan.currency, currency, rates)
    if converted is None:
        return plan
    return InstancePlan(plan.price, plan.instances, converted.amount, converted.currency, converted.rate)


def cheapest_plan(
    prices: Iterable[Price],
    gpu: str,
    count: int,
    *,
    currency: str,
    cloud: str | None = None,
    prefer_cloud: str | None = None,
    rates: Sequence[ExchangeRate] = (),
    split_ok: bool = False,
    levels: Mapping[str, float] | None = None,
) -> InstancePlan | None:
    """The cheapest plan holding `count` × `gpu`, or None when no row prices that GPU (a gap stays a gap).

    `cloud` filters; `prefer_cloud` is taken whenever it has a plan (the caller decides, e.g. Alibaba Cloud
    for a question in Chinese), even if another cloud is cheaper. Plans are compared in `currency` (after
    conversion where `rates` allow); if none is, the plans are compared within the first currency by code,
    never across currencies. With `levels` (another currency's price level against `currency`, for ordering
    only) plans in any currency with a level are ranked together: "the cheapest" must not keep an 18 CNY row
    over a card's 0.14 USD one. The plan keeps its own currency and price.
    """
    plans = plans_for(prices, gpu, count, cloud=cloud, split_ok=split_ok)
    if prefer_cloud is not None:
        preferred = [p for p in plans if p.price.cloud.lower() == prefer_cloud.lower()]
        plans = preferred or plans
    plans = [in_currency(p, currency, rates) for p in plans]
    if not plans:
        return None
    wanted = [p for p in plans if p.currency == currency]
    if levels:
        def levelled(plan: InstancePlan) -> float:
            return plan.per_hour * (1.0 if plan.currency == currency else levels[plan.currency])

        ranked = [p for p in plans if p.currency == currency or p.currency in levels]
        if ranked:
            return min(ranked, key=lambda p: (levelled(p), p.price.cloud, p.price.instance, p.price.region))
    if not wanted:
        first = min(p.currency for p in plans)
        wanted = [p for p in plans if p.currency == first]
    return min(wanted, key=lambda p: (p.per_hour, p.price.cloud, p.price.instance, p.price.region))


@dataclass(frozen=True)
class CostEstimate:
    """The `cost` object of a reply: a plan's price and what it adds up to (None where not asked/known)."""

    currency: str
    per_hour: float
    per_month: float
    hours: float | None
    total: float | None
    per_million_tokens: float | None
    cloud: str
    region: str
    instance: str
    instances: int
    price_date: str | None
    source: list[str]
    rate: ExchangeRate | None


def cost_estimate(plan: InstancePlan, *, hours: float | None = None, tokens_per_s: float | None = None) -> CostEstimate:
    """Per hour, per month (730 h), for `hours` of work, and per million tokens at `tokens_per_s`.

    `tokens_per_s` is what the whole plan produces (all its instances together), as the speed rules size it.
    """
    return CostEstimate(
        currency=plan.currency,
        per_hour=plan.per_hour,
        per_month=monthly_cost(plan.per_hour),
        hours=hours,
        total=training_cost(plan.per_hour, hours) if hours is not None else None,
        per_million_tokens=cost_per_million_tokens(plan.per_hour, tokens_per_s) if tokens_per_s else None,
        cloud=plan.price.cloud,
        region=plan.price.region,
        instance=plan.price.instance,
        instances=plan.instances,
        price_date=plan.price.date,
        source=list(plan.price.source),
        rate=plan.rate,
    )
