"""Money and time on a reply: every pick priced, `cost` for the recommended configuration, `prices` for a card.

Prices come only from the knowledge base's dated rows (`kb.prices`, shipped or the operator's own); a pick
without a row stays unpriced and the reply says so once. Which row a pick takes is `bot.reply.pricing`'s;
money in two currencies is compared only through the operator's dated rate (`GPU_ADVISOR_FX`), and the reply
then says it converted and at which rate.

"cheapest"/"budget"/"性价比" re-ranks the picks by money per useful work (per million generated tokens for
serving at the sized aggregate throughput, per billion trained tokens for training) where prices are known;
unpriced picks follow the priced ones in their earlier order.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import replace

import rules
from bot.reply.budget_money import budget_check, in_currency, purchase_weighed, with_power
from bot.reply.convert_picks import held_as_planned, laid_out_as_plan, plan_as_top_pick
from bot.reply.job_hours import add_output_hours, add_training_hours
from bot.reply.model import Answer, Assumption, PickOut
from bot.reply.money_model import CostOut, PriceOut, ServingPlanOut
from bot.reply.pricing import (
    PriceChoice,
    gpu_only_plan,
    home_region_rows,
    one_currency,
    plan_bill,
    plan_fields,
    plan_for,
    price_choice,
    price_picks,
    without_idle_boxes,
)
from bot.reply.serving import at_full_load, copy_a_card, full_load_rate
from bot.reply.work_money import has_load_to_meet, price_work, serving_bill
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.prices import Price, list_prices
from knowledge.schema import GPU
from rules.constants import HOURS_PER_MONTH
from rules.cost import CostEstimate, InstancePlan, cost_estimate
from rules.types import Pick, Workload

log = logging.getLogger(__name__)

def home_cloud_first(picks: Sequence[Pick], kb: KnowledgeBase, choice: PriceChoice) -> list[Pick]:
    """With a preferred cloud (Alibaba Cloud for a Chinese question that names none), the picks it offers come
    first, in their order: those it prices, and those its instance families hold with no dated price (the H20's
    gn8v); the rest (priced by another cloud only, the A10G on AWS China, or by none) follow in theirs."""
    if choice.prefer_cloud is None:
        return list(picks)

    def at_home(pick: Pick) -> bool:
        plan = plan_for(kb, pick.gpu_id, pick.count, choice)
        if plan is None:
            return pick.instance is not None  # the rules' instance comes from the Alibaba Cloud families
        return plan.price.cloud == choice.prefer_cloud

    return sorted(picks, key=lambda p: (not p.fits, not at_home(p)))


def _cost_out(estimate: CostEstimate, plan: InstancePlan, gpu_id: str, count: int,
              per_billion: float | None) -> CostOut:
    rounded = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in (
        ("per_hour", estimate.per_hour), ("per_month", estimate.per_month), ("total", estimate.total),
        ("per_million_tokens", estimate.per_million_tokens), ("per_billion_tokens", per_billion))}
    return CostOut(
        currency=estimate.currency, hours=_bill_hours(estimate.hours) if estimate.hours is not None else None,
        cloud=estimate.cloud, region=estimate.region, instance=estimate.instance, instances=estimate.instances,
        instance_gpus=plan.gpus if plan.gpus > count else None, gpu=gpu_id, count=count,
        price_date=estimate.price_date, source=list(estimate.source),
        authority=plan.price.authority, fx_rate=str(estimate.rate) if estimate.rate else None,
        original_currency=plan.price.currency if estimate.rate else None, **rounded,
    )


def _bill_hours(hours: float) -> float:
    """Hours as the cost keeps them: two decimals, four below a hundredth of an hour (an 11-second job is not
    0.0 hours: audit 34 LOW-190)."""
    return round(hours, 2) if hours >= 0.01 else round(hours, 4)


def config_cost(kb: KnowledgeBase, question: Question, workload: Workload | None, gpu: GPU, count: int,
                choice: PriceChoice, speed: dict[str, float | None],
                serving: ServingPlanOut | None = None, pick_replicas: int = 1) -> CostOut:
    """`cost` for `count` × `gpu` (× the serving plan's replicas), with nulls where no price is known.
    `pick_replicas`: the top pick's replicas when no serving plan lays them out (live speech streams, a card
    each): `count` is then all their cards, billed as that many instances of one replica's size."""
    training = workload is not None and workload.task != "inference"
    hours = speed.get("train_hours") if training and speed.get("train_hours") else question.hours
    if speed.get("audio_sets_daily"):
        # a day's recordings transcribed in one run a day: a month of those runs (cost_view's month line also
        # gives the bill of keeping the sets on around the clock; audit 25 HIGH 30)
        hours = float(speed.get("audio_work_hours_per_day") or 0.0) * HOURS_PER_MONTH / 24.0
    if not training and speed.get("job_hours"):
        # documents to embed or images to make: the bill covers that run; hours stated beside it ("in under
        # 24 hours") are its deadline, not the rent (audit 20 M-1: 24 h billed for a 9.2 h job); a batch that
        # arrives every day is billed for a month of such days
        hours = float(speed.get("job_hours") or 0.0) * (HOURS_PER_MONTH / 24.0 if question.daily_batch else 1.0)
    replicas = serving.replicas if serving is not None else pick_replicas
    if serving is None and pick_replicas > 1:
        count = max(1, count // pick_replicas)
    if serving is not None:
        count = serving.gpus_per_replica  # a plan's replica may be smaller than the configuration sized
    # replicas on instances of their own size, also where no single count of instances makes the total
    # (164 one-card image replicas)
    plan = plan_bill(kb, gpu.id, count, replicas, choice)
    gpu_only = plan is None and (plan := gpu_only_plan(kb, gpu.id, count * replicas, choice)) is not None
    if plan is None:
        return CostOut(gpu=gpu.id, count=count * replicas, hours=_bill_hours(hours) if hours else None)
    rate = None
    capped = False
    if serving is not None and serving.aggregate_tokens_per_s:
        rate = serving.aggregate_tokens_per_s
    elif not training:
        rate = speed.get("aggregate_tokens_per_s") or speed.get("decode_tokens_per_s")
        if workload is not None and at_full_load(question):
            # a price per token with no serving plan (a card with no compute figure): at the load the side by
            # side prices, not at one sequence, which is tens of times dearer per token
            full = full_load_rate(workload, gpu, count)
            capped = bool(full) and not rules.compute_known(gpu)
            rate = full or rate
        if rate and replicas > 1:
            # the speed figures are one replica's and the bill is all of them: the tokens are all of them too
            # (4 one-card L20 replicas at 58.52 CNY/h had been priced per token at one replica's 208 tok/s)
            rate *= replicas
    estimate = cost_estimate(plan, hours=hours, tokens_per_s=rate if not training else None)
    per_billion = None
    train_rate = speed.get("train_tokens_per_s")
    if training and train_rate:
        per_billion = plan.per_hour / (train_rate * 3600.0) * 1e9
    out = _cost_out(estimate, plan, gpu.id, count * replicas, per_billion)
    if gpu_only:
        out = out.model_copy(update={"gpu_only": True, "instance_gpus": None})
    out = _with_subscription(out, plan, question.subscription, kb)
    if estimate.per_million_tokens is not None and rate:
        out = out.model_copy(update={"tokens_per_s": round(rate, 1), "rate_capped": capped})
    if (training and workload is not None and out.instance_gpus and question.tokens and out.per_hour
            and rules.compute_known(gpu)):
        # the instance is billed whole: the same tokens data-parallel over all its cards (audit 33 M-110: 10.5 h
        # and 234 USD on 1 of a Lambda node's 8 A100s, where the 8 take 1.3 h for 29 USD)
        whole = rules.training_hours(workload, gpu, out.instance_gpus, float(question.tokens))
        if whole:
            out = out.model_copy(update={"whole_instance_hours": round(whole, 2),
                                         "whole_instance_total": round(whole * out.per_hour, 2)})
    if training and train_rate and question.hours and not question.tokens and not speed.get("train_hours"):
        out = out.model_copy(update={"trained_tokens": float(f"{train_rate * 3600.0 * question.hours:.3g}")})
    return out


def subscription_quote(kb: KnowledgeBase, price: Price) -> Price | None:
    """The row quoting a subscription month for `price`'s instance: its own, else the newest dated row of the same
    cloud, instance and currency that quotes one. The cheapest hourly row of an instance (CloudPilot's 2024 copy of
    Alibaba Cloud's price file) may carry no month while another source quotes it (audit 32 M-97: a monthly budget
    of 5,000 CNY judged on 730 hours at 6,263 though the instance is quoted at 4,675.66 a subscription month)."""
    if price.subscription_per_month is not None:
        return price
    quoted = [row for row in kb.prices.values() if row.subscription_per_month is not None and row.date
              and (row.cloud, row.instance, row.currency) == (price.cloud, price.instance, price.currency)]
    return max(quoted, key=lambda row: str(row.date)) if quoted else None


def _with_subscription(out: CostOut, plan: InstancePlan, asked: bool, kb: KnowledgeBase) -> CostOut:
    """The subscription month beside the hourly price, when a source quotes one; asked for ("包月"), it is
    the month and the total (whole months bought), since 730 pay-as-you-go hours cost far more (Alibaba Cloud's
    L20: 7,019 CNY against 10,680)."""
    quote = subscription_quote(kb, plan.price)
    if quote is None or quote.subscription_per_month is None:
        return out
    month = quote.subscription_per_month * plan.per_hour / plan.price.price_per_hour  # its instances, plan currency
    update: dict[str, object] = {"subscription_per_month": round(month, 2),
                                 "subscription_promotion": quote.subscription_promotion}
    if quote is not plan.price:
        update["subscription_date"] = quote.date
    if asked:
        months = math.ceil(out.hours / HOURS_PER_MONTH - 1e-6) if out.hours else None
        update.update(by_subscription=True, per_month=round(month, 2),
                      total=round(month * months, 2) if months else None)
    return out.model_copy(update=update)


FAR_OFF_FACTOR = 20.0
"""An alternative pick that takes this many times the first pick's time for the same job is no alternative (8 B200s
for 31.6 years beside 10,000 H800s for 25 days, audit 31 LOW-146): not offered."""


def within_reach(picks: list[PickOut]) -> list[PickOut]:
    """`picks` without the alternatives that take more than FAR_OFF_FACTOR times the first pick's job time."""
    first = picks[0].job_hours if picks else None
    if not first:
        return picks
    return [picks[0], *[p for p in picks[1:] if p.job_hours is None or p.job_hours <= FAR_OFF_FACTOR * first]]


def other_cloud_costs(kb: KnowledgeBase, question: Question, workload: Workload | None, gpu: GPU, count: int,
                      speed: dict[str, float | None], serving: ServingPlanOut | None = None,
                      per_gpu: bool = False) -> list[CostOut]:
    """The configuration priced on each further cloud the question names ("AWS vs GCP"), in that cloud's
    currency; a cloud with no known price keeps its place with nulls, so the reply says so rather than drop it.
    `per_gpu`: each cloud's instance with the lowest price a GPU-hour, whatever its size (`per_gpu_count`)."""
    out = []
    for cloud in question.other_clouds:
        there = question.model_copy(update={"cloud": cloud})
        choice = price_choice(there)
        size = per_gpu_count(kb, gpu.id, choice) if per_gpu else count
        cost = config_cost(kb, there, workload, gpu, size, choice, speed, serving)
        out.append(cost.model_copy(update={"cloud": cloud}))
    return out


def per_gpu_count(kb: KnowledgeBase, gpu_id: str, choice: PriceChoice) -> int:
    """The number of GPUs of the cloud's instance with the lowest price a GPU-hour (fewer GPUs on a tie): clouds
    compared for a card with no count are ranked on that, not on each one's smallest instance (audit 30 LOW-143:
    Lambda's 1-GPU box at 4.29 beside its 8-GPU box at 3.99 a GPU, when Hyperstack's 8-GPU box was used)."""
    rows = [p for p in home_region_rows(list_prices(kb, gpu=gpu_id, cloud=choice.cloud), choice.home_region)
            if not p.host_billed_separately and p.currency == choice.currency]
    if not rows:
        return 1
    return min(rows, key=lambda p: (p.price_per_gpu_hour, p.count)).count


def gpu_prices(kb: KnowledgeBase, question: Question) -> list[PriceOut]:
    """Every known instance price of the card asked about (in the cloud named, when one is)."""
    if not question.gpu or question.gpu not in kb.gpus:
        return []
    rows = list_prices(kb, gpu=question.gpu, cloud=question.cloud)
    return [PriceOut(cloud=p.cloud, instance=p.instance, gpu=p.gpu, count=p.count,
                     price_per_hour=p.price_per_hour, currency=p.currency, region=p.region, date=p.date,
                     source=list(p.source), spot_price_per_hour=p.spot_price_per_hour)
            for p in rows if not p.host_billed_separately]


def compare_prices(kb: KnowledgeBase, question: Question, per_card: int = 2) -> list[PriceOut]:
    """For cards compared with no model ("rent an H200 vs a B200 for an hour"): each card's cheapest known rows by
    GPU-hour (in the cloud named, when one is), so the prices asked for stand side by side."""
    out: list[PriceOut] = []
    for gpu in question.compare_gpus:
        rows = [p for p in list_prices(kb, gpu=gpu, cloud=question.cloud) if not p.host_billed_separately]
        rows.sort(key=lambda p: (p.currency != "USD", p.price_per_gpu_hour))
        out += [PriceOut(cloud=p.cloud, instance=p.instance, gpu=p.gpu, count=p.count,
                         price_per_hour=p.price_per_hour, currency=p.currency, region=p.region, date=p.date,
                         source=list(p.source), spot_price_per_hour=p.spot_price_per_hour)
                for p in rows[:per_card]]
    return out


def attach_money(result: Answer, question: Question, workload: Workload | None, kb: KnowledgeBase,
                 config: tuple[GPU | None, int]) -> Answer:
    """Price the picks, total the job, and (for gpu_info) list the card's prices; returns `result`."""
    from bot.reply.audio_service import audio_plan
    from bot.reply.image_service import embedding_plan, image_plan
    from bot.reply.reply_length import short_reply_plan
    from bot.reply.serving import fits_at, serving_plan  # serving sizing reads the speed rules; only replies need it

    choice = price_choice(question)
    if result.estimate is not None and result.estimate.host_ram_gb:
        # an offloaded job runs only on instances with the host RAM it moves there (a 23 GiB V100 box cannot
        # hold 191 GiB of optimizer states)
        choice = replace(choice, min_host_ram_gib=result.estimate.host_ram_gb)
    result.picks = price_picks(result.picks, kb, choice)
    if question.intent != "compare":
        result.picks = without_idle_boxes(result.picks, (question.gpu, question.gpu_count))
    if question.intent == "compare" and question.compare_clouds:
        # the thread's cards, each priced on the cloud it was asked about, in that cloud's currency
        result.picks = [price_picks([pick], kb, price_choice(question.model_copy(
            update={"cloud": question.compare_clouds[pick.gpu], "currency": None})))[0]
            if pick.gpu in question.compare_clouds else pick for pick in result.picks]
        if config[0] is not None and config[0].id in question.compare_clouds:  # the cost block's card, where asked
            question = question.model_copy(update={"cloud": question.compare_clouds[config[0].id], "currency": None})
            choice = price_choice(question)
    elif question.intent == "compare" and question.currency is None and question.cloud is None:
        choice = one_currency(result, kb, choice)
    if question.currency is not None and question.currency != choice.currency:
        result.assumptions.append(Assumption(field="currency", value=choice.currency, reason="currency-no-rate"))
    gpu, count = config
    if question.intent == "gpu_info":
        result.prices = gpu_prices(kb, question)
        card = kb.gpus.get(question.gpu or "")
        # clouds set side by side for a card with no count are weighed a GPU-hour each, on their cheapest box
        per_gpu = bool(question.other_clouds) and question.gpu_count is None and question.cloud is not None
        if card is not None and result.prices:
            size = per_gpu_count(kb, card.id, choice) if per_gpu else question.gpu_count or 1
            result.cost = config_cost(kb, question, None, card, size, choice, {})
            if result.cost.currency is None:
                result.cost = None
        if card is not None:
            result.other_cloud_costs = other_cloud_costs(kb, question, None, card, question.gpu_count or 1, {},
                                                         per_gpu=per_gpu)
        _said_home_region(result, choice)
        if "budget-most-memory" in question.notes and card is not None:
            # "the biggest model my budget serves": the cards were chosen as the most memory it rents; say so
            result.budget = budget_check(question, result.cost, choice.rates)
            result.assumptions.append(Assumption(field="gpu", value=card.id, reason="budget-most-memory"))
        elif question.budget_period == "purchase" and result.cost is not None:
            # "an 8x H100 server costs $250k: buy or rent?": the price against renting those cards (HIGH-115)
            result.budget = with_power(purchase_weighed(question, result.cost, question.gpu_count, choice.rates),
                                       result.cost, kb, question.gpu_count)
        return result
    if workload is not None and (question.intent == "compare" or (workload.task != "inference" and question.tokens)
                                 or (workload.task == "inference" and question.asks_token_cost
                                     and (question.batch or question.users))):
        # each pick's work rate: compared side by side, timed for the tokens a training question gives (an
        # alternative that holds the job may take years), or priced per token at the load stated when that
        # price is asked (the card named first can cost ten times another pick per token)
        result.picks = price_work(result.picks, workload, kb, question, choice)
        if question.intent != "compare":
            result.picks = within_reach(result.picks)
    if gpu is None or gpu.id not in kb.gpus or workload is None:
        return result
    add_training_hours(result.speed, question, workload, gpu, count)
    count *= int(result.speed.get("image_copies") or 1)  # the copies run side by side, each billed
    if workload.task == "inference":
        result.serving = (serving_plan(question, workload, gpu, count, serving_bill(kb, choice))
                          or image_plan(result.speed, gpu, count) or embedding_plan(result.speed, gpu, count)
                          or audio_plan(result.speed, gpu, count))
        short_reply_plan(question, workload, gpu, count, result.serving,
                         lambda q, w, g, n: serving_plan(q, w, g, n, serving_bill(kb, choice)))
        add_output_hours(result.speed, question, workload, result.serving, count)
    top = result.picks[0] if result.picks else None
    top_replicas = (top.replicas or 1) if top is not None and (top.gpu, top.count) == (gpu.id, count) else 1
    top_replicas = max(top_replicas, int(result.speed.get("image_copies") or 1))  # a copy a card, each rented so
    # the memory block's own reading (serving.copy_a_card), also where no speed figure times the job (a Whisper
    # job on an A10G), and any encoder; audio arriving daily is billed as the sets that keep up instead
    encoding = (copy_a_card(question, workload) or workload.model.arch == "encoder") and not result.speed.get(
        "audio_sets_daily")
    if (top_replicas == 1 and count > 1 and result.serving is None and encoding
            and fits_at(workload, gpu, 1, 1)):
        # an offline encoding job runs a copy of the encoder on each card (serving.encoder_rate), so its cards are
        # rented as one-card instances where those exist, not as a bigger box billed whole (audit 19/20 M-3); so
        # does an encoder on a card with no compute figure to time it on (audit 21 M-9: 2× A10G on a g5.12xlarge)
        top_replicas = count
        if top is not None and (top.gpu, top.count) == (gpu.id, count) and not top.replicas:
            per_card = top.memory_per_gpu_gb
            if result.estimate is not None and "one-copy-a-card" in result.estimate.notes:
                per_card = result.estimate.per_gpu_gb  # a whole copy on each card, as the memory block says
            more = per_card - top.memory_per_gpu_gb
            result.picks[0] = price_picks([top.model_copy(update={
                "replicas": count, "memory_per_gpu_gb": per_card, "free_gb": round(top.free_gb - more, 2),
                "headroom_gb": round(top.headroom_gb - more, 2)})], kb, choice)[0]
        if result.estimate is not None:  # nor are its layers split over the cards
            result.estimate = result.estimate.model_copy(
                update={"notes": [n for n in result.estimate.notes if n != "layer-split"]})
    result.cost = config_cost(kb, question, workload, gpu, count, choice, result.speed, result.serving,
                              pick_replicas=top_replicas)
    if (result.cost.per_hour is None and (question.asks_cost or question.hours) and result.serving is None
            and (question.gpu is None or question.cloud is None)):
        # the cost asked, and the top pick (or the card named: "H20 呢？… 一个月多少钱？", audit 38 M-148) has no
        # public price: the first pick that has one is priced instead (its line names its cards; no per-token
        # figure, which would need its own speed)
        priced = next((p for p in result.picks if p.fits and p.price_per_hour is not None and p.gpu in kb.gpus), None)
        if priced is not None:
            result.cost = config_cost(kb, question, workload, kb.gpus[priced.gpu], priced.count, choice, {})
    result.other_cloud_costs = other_cloud_costs(kb, question, workload, gpu, count, result.speed, result.serving)
    _said_home_region(result, choice)
    if question.cloud and result.cost.currency is None:
        # nothing known on the cloud named (Azure): the same cards at their cheapest list price elsewhere, labelled
        anywhere = question.model_copy(update={"cloud": None})
        reference = config_cost(kb, anywhere, workload, gpu, count, replace(price_choice(anywhere), prefer_cloud=None),
                                result.speed, result.serving, pick_replicas=top_replicas)
        result.reference_cost = reference if reference.currency is not None and not reference.gpu_only else None
    asked = kb.gpus.get(question.gpu or "")
    if (asked is not None and question.gpu_count and question.hours and result.check is not None
            and not result.check.fits and (asked.id, question.gpu_count) != (gpu.id, count)):
        rent = config_cost(kb, question, None, asked, question.gpu_count, choice, {})
        result.asked_cost = rent if rent.total is not None else None
    result.budget = with_power(purchase_weighed(question, result.cost, count, choice.rates), result.cost, kb,
                               question.gpu_count)
    if result.budget is not None and result.budget.reason == "price":
        # the set-up sized has no public price, but picks below do: named, so "no card that holds the job has a
        # price" is not said of a list that shows one (audit 35 LOW-203)
        priced_below = [{"gpu": p.gpu, "count": p.count, "per_hour": p.price_per_hour, "currency": p.price_currency}
                        for p in result.picks if p.fits and p.price_per_hour is not None and p.price_currency]
        if priced_below:
            result.budget = result.budget.model_copy(update={"uncompared": priced_below[:2]})
    if result.budget is not None and result.budget.within is False:
        # the picks priced in a currency the budget cannot be compared with may be within it: said, not hidden
        other = [{"gpu": p.gpu, "count": p.count, "per_hour": p.price_per_hour, "currency": p.price_currency}
                 for p in result.picks if p.fits and p.price_per_hour is not None and p.price_currency
                 and in_currency(p.price_per_hour, p.price_currency, result.budget.currency, choice.rates) is None]
        result.budget = result.budget.model_copy(update={"uncompared": other})
    if result.serving is not None and result.cost is not None:
        result.serving = result.serving.model_copy(update={"per_hour": result.cost.per_hour,
                                                           "currency": result.cost.currency})
    result.picks = held_as_planned(result.picks, result.serving)
    if workload is not None and question.intent == "recommend" and question.gpu_count is None:
        result.picks = plan_as_top_pick(result.picks, result.serving, result.cost, workload, kb)
        result.picks = result.picks[:1] + alternatives_as_plans(result.picks[1:], question, workload, kb, choice)
    if result.cost is not None and result.cost.currency:
        # "no rate to the currency asked": the figures stay in the price's own currency, the one to name (audit 39
        # M-160: "currency CNY" was said beside USD figures for a TWD question)
        result.assumptions = [a.model_copy(update={"value": result.cost.currency})
                              if a.reason == "currency-no-rate" else a for a in result.assumptions]
    return result


def _said_home_region(result: Answer, choice: PriceChoice) -> None:
    """A Traditional-Chinese question is priced in Hong Kong, where Alibaba Cloud costs up to 2× the mainland's:
    said under Assumed, as the reader may be in Taiwan or on the mainland (audit 29 LOW-103)."""
    regions = {result.cost.region if result.cost is not None else None, *(p.region for p in result.prices)}
    if choice.home_region == "hongkong" and "cn-hongkong" in regions:
        result.assumptions.append(Assumption(field="region", value="cn-hongkong", reason="zh-hant-region"))


def alternatives_as_plans(picks: Sequence[PickOut], question: Question, workload: Workload, kb: KnowledgeBase,
                          choice: PriceChoice) -> list[PickOut]:
    """The other picks laid out as their own serving plans for the load stated: beside "2 × H100 for 5 requests/s"
    a "1× A100 · 1.29 USD/h" line compares a card that misses the rate at one card's price (audit 19 M-1)."""
    from bot.reply.audio_service import audio_plan
    from bot.reply.media_figures import media_speed
    from bot.reply.serving import serving_plan  # serving sizing reads the speed rules; only replies need it

    live = question.live_audio and workload.model.modality == "audio" and workload.batch > 1
    if not has_load_to_meet(question, workload) and not live:
        return list(picks)
    out: list[PickOut] = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu)
        plan = serving_plan(question, workload, gpu, pick.count, serving_bill(kb, choice)) \
            if gpu is not None and pick.fits else None
        if plan is None and gpu is not None and pick.fits and workload.model.modality == "audio" and (
                question.qps or question.live_audio):
            # a speech model at a request rate, or live streams: the cards it takes on this card
            # (bot.reply.audio_service; audit 30 M-71: the other picks were one card each, sized for memory)
            rate = (question.qps, question.clip_seconds) if question.qps else None
            plan = audio_plan(media_speed(workload, gpu, kb, None, audio_requests=rate,
                                          live_audio=question.live_audio), gpu, pick.count)
        if gpu is None or plan is None or plan.replicas * plan.gpus_per_replica <= pick.count:
            out.append(pick)
            continue
        bill = plan_bill(kb, gpu.id, plan.gpus_per_replica, plan.replicas, choice)
        price = plan_fields(bill, plan.replicas * plan.gpus_per_replica) if bill is not None else None
        out.append(laid_out_as_plan(pick, plan, workload, kb, price) or pick)
    return out


__all__ = ["attach_money", "compare_prices", "config_cost", "gpu_prices", "home_cloud_first"]
