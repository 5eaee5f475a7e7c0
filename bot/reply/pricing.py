"""Which dated price rows a question uses, and the hourly price each card is ordered by.

* a cloud named in the question filters to that cloud;
* otherwise a question in Chinese (or one naming 阿里云) takes Alibaba Cloud whenever it prices the card, the
  advisor's home cloud for those users, and compares in CNY; an English question takes the cheapest known
  instance, compared in USD;
* money in two currencies is shown converted only through the operator's dated rate (`GPU_ADVISOR_FX`); to
  order cards priced in different currencies without one, the rows' own price level between the currencies
  is used, and never shown.
"""

from __future__ import annotations

import logging
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from statistics import median
from typing import Literal
from weakref import ref

from bot.reply.model import Answer, Assumption, PickOut
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.fx import ExchangeRate, fx_from_env
from knowledge.prices import Price
from knowledge.schema import GPU
from rules.cost import InstancePlan, cheapest_plan

log = logging.getLogger(__name__)

HOME_CLOUD_ZH = "alibaba"
CNY_CLOUDS = ("alibaba", "aws-china")
"""Clouds whose shipped prices are in CNY: naming one compares in CNY."""


@dataclass(frozen=True)
class PriceChoice:
    """How a question chooses among price rows."""

    currency: str
    cloud: str | None = None
    prefer_cloud: str | None = None
    rates: tuple[ExchangeRate, ...] = ()
    instances: tuple[tuple[str, str], ...] = ()
    """(GPU id, instance type) the question named: that card is priced on that instance where it holds the
    count, as the user will rent it (a g5.2xlarge costs more than the g5.xlarge with the same card)."""
    across_currencies: bool = False
    """"The cheapest", asked in Chinese with no cloud named: a card's rows in every quoted currency compete, ordered
    by the currencies' price level (`price_levels`), and the row kept is shown in its own currency."""
    home_region: Literal["mainland", "hongkong"] | None = None
    """Where a Chinese question's Alibaba Cloud instance runs when it names no region: a mainland-China region for
    Simplified Chinese, Hong Kong for Traditional; an instance with no row there keeps its cheapest region (a
    T4 quoted in Virginia, 7.79 CNY, is not what a user in China rents: 11.84 in Shanghai, audit 23 LOW-27)."""
    subscription: bool = False
    """A subscription month is asked for ("包月"): a row whose source quotes one is taken before a cheaper hourly row
    that has none, so the month asked is a quote rather than an upper bound."""
    min_host_ram_gib: float | None = None
    """Host RAM each machine must have (an offloaded job's optimizer or parameters): instances whose listed RAM is
    smaller cannot run it and are not priced for it; rows that list no RAM are kept."""


def exchange_rates() -> tuple[ExchangeRate, ...]:
    """The operator's rates; a malformed `GPU_ADVISOR_FX` converts nothing (and is logged), it never guesses."""
    try:
        return fx_from_env()
    except ValueError as exc:
        log.warning("GPU_ADVISOR_FX ignored: %s", exc)
        return ()


QUOTED_CURRENCIES = ("USD", "CNY")
"""The currencies the knowledge base's price rows are quoted in."""


def price_choice(question: Question, rates: tuple[ExchangeRate, ...] | None = None) -> PriceChoice:
    rates = exchange_rates() if rates is None else rates
    home: Literal["mainland", "hongkong"] | None = (
        "hongkong" if question.lang == "zh-Hant" and question.cloud not in MAINLAND_ONLY_CLOUDS
        else "mainland" if question.lang == "zh-Hans" else None)
    return replace(_price_choice(question, rates), instances=tuple(question.named_instances.items()),
                   home_region=home, subscription=question.subscription)


def _in_home_region(row: Price, home: str) -> bool:
    region = row.region.lower()
    return region == "cn-hongkong" if home == "hongkong" else region.startswith("cn-") and region != "cn-hongkong"


MAINLAND_ONLY_CLOUDS = frozenset({"aws-china"})
"""Clouds whose regions serve mainland China only (AWS's Beijing and Ningxia regions take a separate China account,
run by Sinnet and NWCD): not offered to a Traditional-Chinese question unless it names them (audit 22-24 LOW-10)."""


def home_region_rows(rows: Iterable[Price], home: str | None) -> list[Price]:
    """`rows` without an Alibaba Cloud instance's rows outside the home region when it has one there, and, for a
    Hong Kong / Taiwan reader, without the mainland-only clouds."""
    rows = list(rows)
    if home is None:
        return rows
    if home == "hongkong":
        rows = [row for row in rows if row.cloud not in MAINLAND_ONLY_CLOUDS]
    at_home = {row.instance for row in rows if row.cloud == HOME_CLOUD_ZH and _in_home_region(row, home)}
    return [row for row in rows if row.cloud != HOME_CLOUD_ZH or row.instance not in at_home
            or _in_home_region(row, home)]


def _price_choice(question: Question, rates: tuple[ExchangeRate, ...]) -> PriceChoice:
    chinese = question.lang != "en"
    if question.cloud:
        currency = "CNY" if question.cloud in CNY_CLOUDS else ("CNY" if chinese and rates else "USD")
        choice = PriceChoice(currency=currency, cloud=question.cloud, rates=rates)
    elif chinese and question.budget and question.budget_amount is None and question.intent != "compare":
        # "最便宜的方案": the cheapest row of each card, whatever cloud and currency, not the home cloud's
        choice = PriceChoice(currency="CNY", rates=rates, across_currencies=True)
    elif chinese:
        choice = PriceChoice(currency="CNY", prefer_cloud=HOME_CLOUD_ZH, rates=rates)
    else:
        choice = PriceChoice(currency="USD", rates=rates)
    # a budget in a currency the prices are quoted in ("budget 10,000 CNY a month", asked in English) asks for
    # prices in it, so the budget is compared (audit 29 M-59), as the currency asked outright is
    asked = question.currency or (question.budget_currency if question.budget_currency in QUOTED_CURRENCIES
                                  else None)
    quoted = (("CNY",) if question.cloud in CNY_CLOUDS else ("USD",)) if question.cloud else QUOTED_CURRENCIES
    if asked is not None and asked != choice.currency and currency_reachable(asked, rates, quoted):
        # the home cloud is preferred for its own currency: asked for another, the rows that quote it lead
        return replace(choice, currency=asked, prefer_cloud=None)
    return choice


def currency_reachable(currency: str, rates: tuple[ExchangeRate, ...],
                       quoted: tuple[str, ...] = QUOTED_CURRENCIES) -> bool:
    """Whether prices can be shown in `currency`: rows are `quoted` in it, or a rate links it to one they are."""
    return currency in quoted or any(
        {rate.base, rate.quote} & {currency} and {rate.base, rate.quote} & set(quoted) for rate in rates)


def plan_for(kb: KnowledgeBase, gpu_id: str, count: int, choice: PriceChoice) -> InstancePlan | None:
    """The cheapest instance plan holding `count` × `gpu_id` under `choice`, or None (a gap stays a gap)."""
    need = choice.min_host_ram_gib
    rows = home_region_rows(kb.prices.values(), choice.home_region)
    if need is not None:
        rows = [row for row in rows if row.ram_gib is None or row.ram_gib >= need]
    named = dict(choice.instances).get(gpu_id)
    if named is not None:
        on_named = [row for row in rows if row.instance == named]
        plan = cheapest_plan(on_named, gpu_id, max(1, count), currency=choice.currency, cloud=choice.cloud,
                             rates=choice.rates) if on_named else None
        if plan is not None:
            return plan
    if choice.subscription:
        quoted = [row for row in rows if row.subscription_per_month is not None]
        plan = cheapest_plan(quoted, gpu_id, max(1, count), currency=choice.currency, cloud=choice.cloud,
                             prefer_cloud=choice.prefer_cloud, rates=choice.rates) if quoted else None
        if plan is not None:
            return plan
    levels = price_levels(kb, choice.currency) if choice.across_currencies else None
    return cheapest_plan(rows, gpu_id, max(1, count), currency=choice.currency, cloud=choice.cloud,
                         prefer_cloud=choice.prefer_cloud, rates=choice.rates, levels=levels)


MIN_CARDS_FOR_PRICE_LEVEL = 3
"""Cards priced in both currencies needed before their price ratio orders cards priced in one only."""


def price_levels(kb: KnowledgeBase, currency: str) -> dict[str, float]:
    """`_price_levels`, once per knowledge base and currency (plan_for asks for it per card and count)."""
    held = _LEVELS.get(id(kb))
    if held is None or held[0]() is not kb:  # an id is reused once its knowledge base is gone
        held = _LEVELS[id(kb)] = (ref(kb), {})
    if currency not in held[1]:
        held[1][currency] = _price_levels(kb, currency)
    return held[1][currency]


_LEVELS: dict[int, tuple[ref[KnowledgeBase], dict[str, dict[str, float]]]] = {}


def _price_levels(kb: KnowledgeBase, currency: str) -> dict[str, float]:
    """For each other currency, the median over the cards priced in both of (cheapest GPU-hour in `currency`) /
    (cheapest GPU-hour in it): how a card priced only in USD is placed among cards priced in CNY when no
    exchange rate is set. Ordering only: no price is ever shown converted by it."""
    cheapest: dict[str, dict[str, float]] = defaultdict(dict)
    for row in kb.prices.values():
        per_gpu = row.price_per_hour / row.count
        held = cheapest[row.gpu].get(row.currency)
        if held is None or per_gpu < held:
            cheapest[row.gpu][row.currency] = per_gpu
    ratios: dict[str, list[float]] = defaultdict(list)
    for by_currency in cheapest.values():
        if currency in by_currency:
            for other, price in by_currency.items():
                if other != currency:
                    ratios[other].append(by_currency[currency] / price)
    return {other: median(found) for other, found in ratios.items() if len(found) >= MIN_CARDS_FOR_PRICE_LEVEL}


def hourly_prices(kb: KnowledgeBase, choice: PriceChoice) -> Callable[[GPU, int], float | None]:
    """What `rules.rank_picks` orders cards by: the hourly price of `count` × a card in the question's currency,
    from the same rows the picks will show. A card priced only in another currency is placed at that price times
    the currencies' price level (`price_levels`), not by the capability proxy: 2× L4 at 4.60 USD an hour must not
    rank above one RTX 6000 Ada at 0.83 in a Chinese question. None where no row prices the card."""
    levels = price_levels(kb, choice.currency)

    def price(gpu: GPU, count: int) -> float | None:
        plan = plan_for(kb, gpu.id, count, choice)
        if plan is None:
            return None
        if plan.currency == choice.currency:
            return plan.per_hour
        level = levels.get(plan.currency)
        return plan.per_hour * level if level is not None else None
    return price


def plan_fields(plan: InstancePlan, cards: int) -> dict[str, object]:
    """A pick's price fields from the plan that bills its `cards`: the hour, the instances and, when they hold more
    cards than that, how many (the bill is for all of them)."""
    return {"price_per_hour": round(plan.per_hour, 4), "price_currency": plan.currency, "instance": plan.price.instance,
            "instances": plan.instances, "instance_gpus": plan.gpus if plan.gpus > cards else None,
            "cloud": plan.price.cloud, "region": plan.price.region}


def _priced(pick: PickOut, plan: InstancePlan | None, choice: PriceChoice, kb: KnowledgeBase) -> PickOut:
    if plan is None:
        # The rules' instance comes from the Alibaba Cloud families (cloud.yaml); it has no dated price.
        keep = pick.instance if choice.cloud in (None, HOME_CLOUD_ZH) else None
        vm = unpriced_vm(kb, pick, choice.cloud) if keep is None else None
        if vm is not None:
            # the cloud named rents it on a VM type with no list price here: its name, and the gap said
            held = vm[1] * vm[2]
            return pick.model_copy(update={"price_per_hour": None, "price_currency": None, "instance": vm[0],
                                           "instances": vm[1], "cloud": choice.cloud,
                                           "instance_gpus": held if held > pick.count else None})
        return pick.model_copy(update={"price_per_hour": None, "price_currency": None, "instance": keep,
                                       "cloud": HOME_CLOUD_ZH if keep else None})
    return pick.model_copy(update={
        **plan_fields(plan, pick.count), "price_date": plan.price.date, "price_source": list(plan.price.source),
        "price_fx_rate": str(plan.rate) if plan.rate else None,
    })


def price_picks(picks: Sequence[PickOut], kb: KnowledgeBase, choice: PriceChoice) -> list[PickOut]:
    return [_priced(p, _pick_plan(kb, p, choice), choice, kb) for p in picks]


def unpriced_vm(kb: KnowledgeBase, pick: PickOut, cloud: str | None) -> tuple[str, int, int] | None:
    """(VM type, how many, cards each) of the cloud named that carry the pick's cards, when no price row does: the
    smallest type holding a replica's cards, in as many as the pick takes ("Which Azure VM size" had named none;
    audit 27 M-37). None with no cloud named or no such VM type known."""
    if cloud is None:
        return None
    per_set = pick.count // (pick.replicas or 1)
    layouts = sorted((layout for layout in kb.instance_types.values()
                      if layout.cloud == cloud and layout.gpu == pick.gpu and layout.count >= per_set),
                     key=lambda layout: (layout.count, layout.instance))
    if not layouts:
        return None
    return layouts[0].instance, pick.replicas or 1, layouts[0].count


def without_idle_boxes(picks: Sequence[PickOut], asked: tuple[str | None, int | None]) -> list[PickOut]:
    """The picks less any that rents the same instances as one listed above it with fewer of their cards at work:
    4 H100s billed as the whole 8-card p5.48xlarge, below the 8 H100s on it, is the same bill for half the
    cards (audit 26 LOW-68). The set asked about (`asked`: card and count) stays, to be answered."""
    out: list[PickOut] = []
    for pick in picks:
        idle = (pick.gpu, pick.count) != asked and any(
            above.fits and pick.fits and above.gpu == pick.gpu and above.count > pick.count
            and above.instance is not None and above.instance == pick.instance
            and above.price_currency == pick.price_currency and above.price_per_hour is not None
            and pick.price_per_hour is not None and above.price_per_hour <= pick.price_per_hour
            for above in out)
        if not idle:
            out.append(pick)
    return out


def _pick_plan(kb: KnowledgeBase, pick: PickOut, choice: PriceChoice) -> InstancePlan | None:
    """The instances a pick takes (`replicas_plan` when it is laid out as replicas)."""
    if not pick.replicas:
        return plan_for(kb, pick.gpu, pick.count, choice)
    return replicas_plan(kb, pick.gpu, pick.count // pick.replicas, pick.replicas, choice)


def replicas_plan(kb: KnowledgeBase, gpu_id: str, cards: int, replicas: int,
                  choice: PriceChoice) -> InstancePlan | None:
    """`replicas` deployments of `cards` × the card. A replica that fills part of one instance shares it with as
    many others as fit whole (two 4-card servers on an 8-GPU p5, each on its own GPUs); one spanning instances
    gets its own."""
    single = plan_for(kb, gpu_id, cards, choice)
    if single is None:
        return None
    per_instance = single.price.count
    if single.instances == 1 and per_instance > cards and per_instance % cards == 0:
        instances = math.ceil(replicas / (per_instance // cards))
        own = InstancePlan(single.price, instances, single.per_hour * instances, single.currency, single.rate)
    else:
        own = InstancePlan(single.price, single.instances * replicas, single.per_hour * replicas, single.currency,
                           single.rate)
    # Two 4-card replicas also run on one 8-card machine, which a cloud may rent for less than two 4-card ones
    # (Hyperstack's H100 SXM: 19.20 USD/h for 8 against 2 × 16.36): the cheaper way their cards are rented
    together = plan_for(kb, gpu_id, cards * replicas, choice)
    if (together is not None and together.price.count % cards == 0 and together.currency == own.currency
            and together.per_hour < own.per_hour):
        return together
    return own


def gpu_only_plan(kb: KnowledgeBase, gpu_id: str, count: int, choice: PriceChoice) -> InstancePlan | None:
    """`count` × the card at a cloud's price for the GPU alone (GCP lists an L4 apart from the VM it attaches to,
    one to eight a VM), in the cheapest such row of `choice`'s cloud, or None. Every figure built on it is a floor:
    the host VM is billed on top and no price for it is known here."""
    rows = [row for row in kb.prices.values() if row.host_billed_separately and row.gpu == gpu_id
            and row.price_per_hour > 0 and row.count >= 1
            and (choice.cloud is None or row.cloud.lower() == choice.cloud.lower())]
    if not rows:
        return None
    row = min(rows, key=lambda r: (r.price_per_hour / r.count, r.cloud, r.region))
    instances = math.ceil(count / row.count)
    return InstancePlan(row, instances, instances * row.price_per_hour, row.currency)


def plan_bill(kb: KnowledgeBase, gpu_id: str, cards: int, replicas: int, choice: PriceChoice) -> InstancePlan | None:
    """How `replicas` deployments of `cards` × the card are billed: one replica's cheapest plan, or replicas on
    instances of their own size (sharing one where several fit whole). The one rule the cost block, the pick
    lines and the choice between serving plans all bill by, so the cheapest plan is the one the reply prices."""
    if replicas <= 1:
        return plan_for(kb, gpu_id, cards, choice)
    return replicas_plan(kb, gpu_id, cards, replicas, choice) or plan_for(kb, gpu_id, cards * replicas, choice)


def one_currency(result: Answer, kb: KnowledgeBase, choice: PriceChoice) -> PriceChoice:
    """Cards compared whose prices come in different currencies (an A100 on Alibaba Cloud in CNY, an H100 only
    in USD) cannot be compared on cost: priced in a currency that covers all of them instead, said under
    Assumed; `choice` when none does, or when one already does."""
    def currencies(picks: Sequence[PickOut]) -> set[str]:
        return {p.price_currency for p in picks if p.price_currency}

    if len(currencies(result.picks)) < 2:
        return choice
    priced = sum(p.price_per_hour is not None for p in result.picks)
    for currency in QUOTED_CURRENCIES:
        alternative = replace(choice, currency=currency, prefer_cloud=None)
        repriced = price_picks(result.picks, kb, alternative)
        if (currencies(repriced) == {currency}
                and sum(p.price_per_hour is not None for p in repriced) == priced):
            result.picks = repriced
            result.assumptions.append(Assumption(field="currency", value=currency, reason="compare-one-currency"))
            return alternative
    return choice
