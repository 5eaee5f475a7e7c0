"""The cost section's words: where each price comes from and as of when, the job's total, the serving plan.

Kept apart from view.py so the money lines have one home; view.py merges `cost_view()` into the view.
"""

from __future__ import annotations

import math
from typing import Any

from bot.reply.formatting import (
    PRETRAINING_CORPUS_TOKENS,
    PUBLISHED_BATCH_TOKENS,
    billed_hours,
    hours_figure,
    rounded_hours,
)
from bot.reply.i18n import Translator
from bot.reply.job_hours import generation_rate
from bot.reply.labels import PRICE_AUTHORITIES
from bot.reply.model import Answer, PickOut
from bot.reply.money_model import CostOut
from knowledge.base import KnowledgeBase
from rules.constants import HOURS_PER_MONTH
from rules.speed_constants import UNLISTED_COMPUTE_DECODE_BATCH

PERIOD_WORDS = {"hour": {"en": " an hour", "zh-Hans": "每小时"}, "day": {"en": " a day", "zh-Hans": "每天"},
                "month": {"en": " a month", "zh-Hans": "每月"}, "total": {"en": "", "zh-Hans": ""},
                "purchase": {"en": " to buy hardware", "zh-Hans": "购机"}}
"""How a budget's period is written beside its amount."""

CLOUD_NAMES: dict[str, dict[str, str]] = {
    "alibaba": {"en": "Alibaba Cloud", "zh-Hans": "阿里云"},
    "aws": {"en": "AWS", "zh-Hans": "AWS"},
    "aws-china": {"en": "AWS China", "zh-Hans": "亚马逊云科技中国区"},
    "gcp": {"en": "GCP", "zh-Hans": "谷歌云"},
    "azure": {"en": "Azure", "zh-Hans": "Azure"},
    "lambda": {"en": "Lambda", "zh-Hans": "Lambda"},
    "nebius": {"en": "Nebius", "zh-Hans": "Nebius"},
    "runpod": {"en": "RunPod", "zh-Hans": "RunPod"},
    "hyperstack": {"en": "Hyperstack", "zh-Hans": "Hyperstack"},
    "verda": {"en": "Verda", "zh-Hans": "Verda"},
}
MAX_PRICE_ROWS = 10
"""gpu_info lists this many instances in words (the JSON `prices` holds them all)."""


DEADLINE_SLACK = 0.1
"""A run this close to its deadline is said to have little slack: the time is timed at a typical utilisation,
which real runs miss by more than this (restarts, evaluation, a slower data loader)."""


def money(value: float | None) -> str:
    if value is None:
        return "?"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:,.2f}"
    return f"{value:.3g}"


def amount(value: float) -> str:
    """Token counts as people write them: 300B, 1.5T, 500M."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            scaled = value / scale
            return f"{scaled:.3g}{suffix}" if scaled < 1000 else f"{scaled:,.0f}{suffix}"
    return f"{value:g}"



def train_time(answer: Answer, tokens_per_s: float | None, t: Translator,
               price_per_hour: float | None = None, currency: str | None = None) -> str:
    """How long a training pick takes for the tokens the question gives, in the unit a reader plans in, and what
    that run costs where the pick is priced: the picks of a job are compared on its total, not on the hour."""
    tokens = answer.query.tokens
    if not tokens or not tokens_per_s or answer.query.task in (None, "inference"):
        return ""
    hours = tokens / tokens_per_s / 3600
    # days up to a year: 1,132 h had read "≈ 0.1 years" beside "≈ 20.1 days" on the line above (audit 27 LOW-74)
    for key, size, limit in (("span_minutes", 1 / 60, 1.0), ("span_hours", 1.0, 48.0), ("span_days", 24.0, 8766.0)):
        if hours < limit:
            span = t(key, v=f"{max(hours / size, 1.0):,.0f}" if key == "span_minutes" else f"{hours / size:,.1f}")
            break
    else:
        span = t("span_years", v=hours_figure(hours / 8766))
    text = t("pick_train_time", time=span, tokens=amount(tokens))
    if price_per_hour and currency:
        # billed on the hours as the job's own total rounds them (bot.reply.job_hours), so the two agree
        billed = rounded_hours(hours)
        text += t("pick_train_total", total=money(price_per_hour * billed), cur=currency)
    return text


def cloud_name(t: Translator, cloud: str | None) -> str:
    return t.pick(CLOUD_NAMES, cloud) if cloud else ""


def _gpu_name(kb: KnowledgeBase, gpu_id: str | None) -> str:
    gpu = kb.gpus.get(gpu_id or "")
    return gpu.name.removeprefix("NVIDIA ") if gpu else (gpu_id or "?")


def pick_place(p: PickOut, t: Translator, kb: KnowledgeBase | None = None,
               host_ram_gb: float | None = None) -> dict[str, Any]:
    """Extra keys of one pick's view: which cloud and instance its price (or its instance) belongs to. An instance
    holding more cards than the pick, when the cloud rents that card in a smaller one, was taken for its host RAM
    (an offload's): said, or "1× RTX A6000" billed as 8 reads as a mistake (audit 32 LOW-177)."""
    instance = p.instance
    if instance and p.instances and p.instances > 1:
        instance = f"{p.instances}× {instance}"
    if instance and p.instance_gpus:
        smaller = kb is not None and host_ram_gb and any(
            row.gpu == p.gpu and row.cloud == p.cloud and row.count < p.instance_gpus for row in kb.prices.values())
        instance += " " + (t("instance_holds_more_for_ram", n=p.instance_gpus, ram=f"{host_ram_gb:,.0f}")
                           if smaller else t("instance_holds_more", n=p.instance_gpus))
    return {"cloud_name": cloud_name(t, p.cloud), "instance": instance}


def _subscription_lines(t: Translator, cost: CostOut, asked: bool) -> list[str]:
    """A subscription month against 730 pay-as-you-go hours: said when asked for ("包月") or when the rent runs a
    month or more; asked for with none quoted, the gap is said rather than the hourly month passed off as it."""
    month = cost.subscription_per_month
    if month is None:
        return [t("cost_no_subscription", instance=cost.instance)] if asked and cost.instance else []
    if cost.per_hour is None or not (asked or (cost.hours or 0) >= HOURS_PER_MONTH):
        return []
    payg = cost.per_hour * HOURS_PER_MONTH
    share = f"{100 * (1 - month / payg):.0f}"
    promo = t("cost_subscription_promotion") if cost.subscription_promotion else ""
    if cost.subscription_date:
        promo += t("cost_subscription_dated", date=cost.subscription_date)
    if cost.by_subscription:
        return [t("cost_subscription_saves", share=share, payg=money(payg), cur=cost.currency, promo=promo)]
    return [t("cost_subscription_quoted", v=money(month), cur=cost.currency, share=share, promo=promo)]


GPU_SOURCE_LABEL = "GPU count and model: "
"""How a price row in knowledge/data/prices.yaml labels the source of its instance's cards (audit 26 LOW-54)."""


def _price_from(t: Translator, cost: CostOut) -> str:
    date = t("as_of", date=cost.price_date) if cost.price_date else t.date_unknown
    authority = t.pick(PRICE_AUTHORITIES, cost.authority) if cost.authority else "?"
    sources = [t("source_gpu_label") + item.removeprefix(GPU_SOURCE_LABEL) if item.startswith(GPU_SOURCE_LABEL)
               else item for item in cost.source]  # the label a price row's second source carries, translated
    line = t("price_from", authority=authority, date=date, source="; ".join(sources) or "?")
    if cost.fx_rate:
        line += "; " + t("fx_converted", orig=cost.original_currency or "?", rate=cost.fx_rate)
    return line


def _cost_lines(answer: Answer, kb: KnowledgeBase, t: Translator) -> list[str]:
    lines: list[str] = []
    cost, speed, query = answer.cost, answer.speed, answer.query
    config = f"{cost.count}× {_gpu_name(kb, cost.gpu)}" if cost and cost.gpu else ""
    on = answer.speed_on
    if (cost is not None and cost.gpu and cost.per_hour is not None and on is not None and on.gpu != cost.gpu
            and not any(p.gpu == on.gpu and p.price_per_hour is not None for p in answer.picks)):
        # the card sized has no public price: the bill below is another pick's, said before it (audit 38 M-148)
        lines.append(t("cost_priced_instead", asked=f"{on.count}× {_gpu_name(kb, on.gpu)}", config=config))
    if speed.get("train_hours") and query.tokens:
        hours = float(speed["train_hours"] or 0)
        gpu_hours = float(speed.get("gpu_hours") or 0)
        if hours < 1:  # a small job: minutes, not "≈ 0 h"
            lines.append(t("train_total_minutes", tokens=amount(query.tokens), config=config or "?",
                           minutes=f"{max(1.0, hours * 60):,.0f}", gpu_hours=f"{gpu_hours:,.2g}"))
        elif hours < 24:  # under a day: no "0.0 days"
            lines.append(t("train_total_hours", tokens=amount(query.tokens), config=config or "?",
                           hours=f"{hours:,.1f}".removesuffix(".0"), gpu_hours=f"{gpu_hours:,.0f}"))
        else:
            lines.append(t("train_total", tokens=amount(query.tokens), config=config or "?", hours=f"{hours:,.0f}",
                           days=hours_figure(hours / 24), gpu_hours=f"{gpu_hours:,.0f}"))
        if query.tokens > PRETRAINING_CORPUS_TOKENS:
            lines.append(t("tokens_beyond_corpora", tokens=amount(query.tokens),
                           times=f"{query.tokens / PRETRAINING_CORPUS_TOKENS:,.0f}"))
        step_tokens = (cost.count or 0) * (query.batch or 1) * (query.context or 0) if cost else 0
        if cost is not None and step_tokens > PUBLISHED_BATCH_TOKENS:
            # every card a data-parallel replica: one step takes them all (audit 32 M-107: 100,000 H100s "train"
            # 1T tokens in 14 minutes in 410M-token steps)
            lines.append(t("batch_beyond_published", tokens=amount(step_tokens), cards=f"{cost.count:,}",
                           times=_times(step_tokens / PUBLISHED_BATCH_TOKENS)))
        deadline = speed.get("deadline_hours")
        if deadline:
            cards = speed.get("cards_for_deadline")
            values = {"deadline": f"{deadline:,.0f}", "days": f"{deadline / 24:,.0f}"}
            slack = 1.0 - float(speed.get("train_hours") or 0) / deadline
            # the step that gives room is a card on one machine, a machine of 8 beyond one (audit 29 LOW-113)
            step = "deadline_met_tight_node" if (answer.speed_on is not None and answer.speed_on.count > 8) \
                else "deadline_met_tight"
            lines.append(t("deadline_missed", cards=f"{cards:,.0f}", **values) if cards
                         else t(step, slack=f"{100 * slack:.0f}", **values)
                         if slack < DEADLINE_SLACK else t("deadline_met", **values))
        if (cost is None or cost.currency is None) and gpu_hours and answer.speed_on is not None:
            # no price for the card: the GPU-hours are the bill's other factor, so the user can finish it
            lines.append(t("unpriced_gpu_hours", gpu=_gpu_name(kb, answer.speed_on.gpu), gpu_hours=f"{gpu_hours:,.0f}"))
        if speed.get("month_cards") and cost and cost.gpu:
            month = float(speed.get("month_hours") or 0)
            month_gpu_hours = float(speed.get("month_gpu_hours") or 0)
            # more cards may need fewer GPU-hours (no checkpointing once the states are sharded): say which
            key = ("month_plan_same" if abs(month_gpu_hours - gpu_hours) <= 0.005 * max(gpu_hours, 1.0)
                   else "month_plan_more" if month_gpu_hours > gpu_hours else "month_plan_fewer")
            # the same GPU-hours are neither more nor fewer (audit 35 LOW-198: "32,524 … 比上面少" beside 32,524)
            lines.append(t(key, cards=f"{speed['month_cards']:,.0f}", gpu=_gpu_name(kb, cost.gpu),
                           hours=f"{month:,.0f}", days=f"{month / 24:,.1f}", gpu_hours=f"{month_gpu_hours:,.0f}"))
            if cost.per_hour and cost.count and cost.currency:
                # the same price a GPU-hour as the configuration priced above (a larger instance of the card)
                total = month_gpu_hours * cost.per_hour / cost.count
                lines.append(t("month_plan_cost", total=money(total), cur=cost.currency))
    job_hours = float(speed.get("job_hours") or 0)
    took = _hours_text(job_hours)
    if job_hours and speed.get("documents"):
        lines.append(t("encode_total", docs=f"{speed['documents']:,.0f}", context=f"{query.context or 0:,}",
                       config=config or "?", time=took, batch=f"{speed.get('documents_batch') or 1:,.0f}",
                       rate=f"{speed.get('documents_per_s') or 0:,.0f}"))
    if job_hours and query.daily_batch:
        lines.append(t("daily_batch_month", hours=f"{job_hours * HOURS_PER_MONTH / 24:,.0f}",
                       days=f"{HOURS_PER_MONTH / 24:.1f}"))
    if job_hours and speed.get("output_tokens"):
        plan = answer.serving
        rate = generation_rate(speed, plan) or 0
        load = plan.sequences_per_replica * plan.replicas if plan is not None else query.batch or 1
        if speed.get("requests"):
            lines.append(t("batch_job_total", requests=f"{speed['requests']:,.0f}", config=config or "?", time=took,
                           prompt=f"{speed.get('prompt_tokens') or 0:,.0f}",
                           prefill_time=_hours_text(float(speed.get("prefill_hours") or 0)),
                           prefill_rate=f"{float(speed.get('prefill_tokens_per_s') or 0):,.0f}",
                           tokens=f"{speed['output_tokens']:,.0f}",
                           generation_time=_hours_text(float(speed.get("generation_hours") or 0)),
                           rate=f"{rate:,.0f}", batch=f"{load:,}"))
        else:
            lines.append(t("output_total", tokens=f"{speed['output_tokens']:,.0f}", config=config or "?", time=took,
                           rate=f"{rate:,.0f}", batch=f"{load:,}"))
    if speed.get("audio_sets_daily"):
        sets = int(speed["audio_sets_daily"] or 1)
        batched = float(speed.get("audio_seconds_per_s_batched") or speed.get("audio_seconds_per_s") or 0)
        work = float(speed.get("audio_work_hours_per_day") or 0)
        per_hour = cost.per_hour if cost is not None and cost.currency else None
        currency = cost.currency if cost is not None else None
        monthly = (t("audio_daily_month", v=money(per_hour * work * HOURS_PER_MONTH / 24), cur=currency)
                   if per_hour is not None else "")
        always = (t("audio_daily_always", sets=f"{sets:,}", v=money(per_hour * sets * HOURS_PER_MONTH), cur=currency)
                  if per_hour is not None else "")
        lines.append(t("audio_daily", audio=f"{speed['audio_hours']:,g}", config=config or "?", sets=f"{sets:,}",
                       work=f"{work:,.1f}", factor=f"{batched:,.0f}", days=f"{HOURS_PER_MONTH / 24:.1f}",
                       month_hours=f"{work * HOURS_PER_MONTH / 24:,.0f}",
                       batch=f"{speed.get('audio_batch') or 1:,.0f}", month=monthly, always=always))
    if job_hours and speed.get("audio_hours"):
        lines.append(t("audio_total", audio=f"{speed['audio_hours']:,g}", config=config or "?", time=took,
                       factor=f"{_batched_factor(speed):,.0f}",
                       batch=f"{speed.get('audio_batch') or 1:,.0f}",
                       single=f"{speed.get('audio_seconds_per_s') or 0:,.0f}"))
    if job_hours and speed.get("images_embedded"):
        lines.append(t("images_embedded_total", images=f"{speed['images_embedded']:,.0f}", config=config or "?",
                       time=took, rate=f"{speed.get('images_embedded_per_s') or 0:,.0f}"))
    if job_hours and speed.get("images"):
        lines.append(t("images_total", images=f"{speed['images']:,.0f}", config=config or "?", time=took))
    if job_hours and query.hours and not speed.get("train_hours") and speed.get("job_hours"):
        if job_hours <= query.hours:
            lines.append(t("job_within_deadline", limit=_hours_text(query.hours)))
        else:
            lines.append(t("job_over_deadline", limit=_hours_text(query.hours),
                           n=f"{math.ceil(job_hours / query.hours):,}"))
    from bot.reply.plan_view import plan_lines  # it reads this module's money and names

    lines += plan_lines(answer, kb, t)
    asked = answer.asked_cost
    if asked is not None and asked.total is not None:
        # the figures below exist only when the set that holds the job is priced (audit 27 LOW-69: "the figures
        # below are for 1× H20 96GB" above none); a GPU-only row is the GPUs' price, its VM billed on top (M-47)
        priced_below = cost is not None and cost.currency is not None
        by_month = asked.by_subscription and asked.per_month is not None
        # a subscription month is its own quote, not the hourly rate times 730 hours (audit 35 M-128: "14.63
        # CNY/h, 730 h ≈ 7,019 CNY", the 包月 quote glued to the pay-as-you-go rate)
        key = ("asked_cost_month" if by_month else "asked_cost") + ("" if priced_below else "_other_unpriced")
        line = t(key, config=f"{asked.count}× {_gpu_name(kb, asked.gpu)}", cur=asked.currency,
                 per_hour=money(asked.per_hour), total=money(asked.total), hours=f"{asked.hours or 0:,.0f}",
                 month=money(asked.per_month or 0.0), other=config or "?")
        if query.subscription and not by_month:
            # "包月多少钱" of an instance with no subscription quote: the month above is 730 hours pay-as-you-go
            # (audit 35 LOW-201: said for the alternative only)
            line += t.sentence_gap + t("asked_no_subscription")
        if asked.gpu_only:
            line += t.sentence_gap + t("asked_cost_gpu_only", cloud=cloud_name(t, asked.cloud))
        lines.append(line)
    if cost is None or cost.currency is None:
        reference = answer.reference_cost
        if reference is not None and reference.per_hour is not None and reference.currency:
            instances = f"{reference.instances}× " if reference.instances and reference.instances > 1 else ""
            lines.append(t("cost_reference", cloud=cloud_name(t, answer.query.cloud),
                           config=f"{reference.count}× {_gpu_name(kb, reference.gpu)}",
                           where=t("cost_on", instances=instances, instance=reference.instance,
                                   cloud=cloud_name(t, reference.cloud), region=reference.region),
                           rates=t("cost_rates", per_hour=money(reference.per_hour),
                                   per_month=money(reference.per_month), cur=reference.currency)))
            lines.append(_price_from(t, reference))
        return lines
    cur = cost.currency
    instances = f"{cost.instances}× " if cost.instances and cost.instances > 1 else ""
    head = t("cost_on", instances=instances, instance=cost.instance, cloud=cloud_name(t, cost.cloud),
             region=cost.region) + _gpus_billed(answer, cost, t)
    top = answer.picks[0] if answer.picks else None
    if top is not None and answer.serving is None and answer.check is None and (top.gpu, top.count) != (
            cost.gpu, cost.count):
        head = t("cost_first_priced", config=config) + head  # the top pick has no public price
    if cost.instance_gpus:
        head += " " + t("instance_billed_whole", n=cost.instance_gpus, used=cost.count or 1)
    floor = "≥ " if cost.gpu_only else ""  # the GPU's price alone: its VM is billed on top
    if cost.gpu_only:
        head = t("cost_gpu_only_on", config=config, cloud=cloud_name(t, cost.cloud), region=cost.region)
    rates = "cost_rates_subscription" if cost.by_subscription else "cost_rates"
    parts = [t(rates, per_hour=floor + money(cost.per_hour), per_month=floor + money(cost.per_month), cur=cur)]
    if cost.per_million_tokens is not None:
        tps = cost.tokens_per_s or (answer.serving.aggregate_tokens_per_s if answer.serving else None) or speed.get(
            "aggregate_tokens_per_s") or speed.get("decode_tokens_per_s") or 0
        encoded = answer.serving is not None and answer.serving.binding == "throughput"
        # one request at a time (no load stated, batch 1): the dearest way to buy a token, said so (audit 29 M-67)
        single = (answer.serving is None and (answer.query.batch or 1) == 1 and answer.query.task == "inference"
                  and not encoded)
        key = "cost_per_million_encoded" if encoded else "cost_per_million_capped" if cost.rate_capped \
            else "cost_per_million_single" if single else "cost_per_million"
        parts.append(t(key, v=floor + money(cost.per_million_tokens), cur=cur, tps=f"{tps:,.0f}",
                       n=UNLISTED_COMPUTE_DECODE_BATCH))
    if cost.per_billion_tokens is not None:
        parts.append(t("cost_per_billion", v=floor + money(cost.per_billion_tokens), cur=cur))
    lines.append(f"{head}: " + " · ".join(parts))
    api, api_cur = answer.understood.get("api_price_per_million"), answer.understood.get("api_price_currency")
    if isinstance(api, (int, float)) and cost.per_million_tokens and api_cur == cur:
        # "vs paying an API at $0.20 per million" (audit 30 LOW-132): the share of this load at which they cost
        # the same, the rented cards' bill being the same whatever they serve
        share = 100.0 * cost.per_million_tokens / api
        lines.append(t("api_cheaper" if share < 100 else "api_dearer", api=money(api), cur=cur,
                       own=money(cost.per_million_tokens), share=f"{share:.0f}"))
    if cost.total is not None and cost.hours is not None:
        if speed.get("train_hours") and query.tokens:
            lines.append(t("train_total_cost_floor" if floor else "train_total_cost", total=money(cost.total), cur=cur))
            if cost.whole_instance_hours and cost.whole_instance_total and cost.instance_gpus:
                lines.append(t("train_whole_instance", n=cost.instance_gpus,
                               hours=hours_figure(cost.whole_instance_hours), total=money(cost.whole_instance_total),
                               cur=cur))
        elif cost.by_subscription:
            months = cost.total / (cost.per_month or cost.total)
            lines.append(t("cost_total_months", months=f"{months:,.0f}", total=money(cost.total), cur=cur))
        else:
            if cost.hours < 1:  # an 11-second job is no "0 h" (audit 34 LOW-190): its minutes or seconds
                line = t("cost_total_short_floor" if floor else "cost_total_short", time=_hours_text(cost.hours),
                         total=money(cost.total), cur=cur)
            else:
                line = t("cost_total_hours_floor" if floor else "cost_total_hours", hours=billed_hours(cost.hours),
                         total=money(cost.total), cur=cur)
            if cost.trained_tokens:
                line += t("cost_trained_tokens", tokens=amount(cost.trained_tokens))
            lines.append(line)
    if cost.gpu_only:
        lines.append(t("cost_gpu_only_floor", cloud=cloud_name(t, cost.cloud)))
    lines.extend(_subscription_lines(t, cost, bool(query.subscription)))
    lines.append(_price_from(t, cost))
    return lines


def _price_rows(answer: Answer, t: Translator) -> list[str]:
    rows = []
    for p in answer.prices[:MAX_PRICE_ROWS]:
        rows.append(f"{cloud_name(t, p.cloud)} {p.instance} ({p.count}× ) · {money(p.price_per_hour)} {p.currency}"
                    f"{t.per_hour} · {p.region} · {p.date or t.date_unknown}".replace("× )", "×)"))
    if len(answer.prices) > MAX_PRICE_ROWS:
        rows.append(f"… +{len(answer.prices) - MAX_PRICE_ROWS}")
    return rows


ENCODER_BUSY_SHARE = 0.9
"""Share of the replicas' encoding rate past which a plan has no room for bursts and the reply says so."""


def _gpus_billed(answer: Answer, cost: CostOut, t: Translator) -> str:
    """A card's price asked, on an instance of several of it: how many it bills and the price a GPU-hour (AWS rents
    the A100 80GB only as the 8-GPU p4de.24xlarge: 27.45 USD/h beside Alibaba Cloud's one card at 31.27 CNY read
    as one A100 each, audit 31 M-87)."""
    gpus = (cost.instance_gpus or cost.count or 1) * (cost.instances or 1)
    if answer.intent != "gpu_info" or gpus <= 1 or not cost.per_hour:
        return ""
    return t("gpus_billed", n=gpus, per_gpu=money(cost.per_hour / gpus), cur=cost.currency or "")


def _other_cloud_lines(answer: Answer, kb: KnowledgeBase, t: Translator) -> list[str]:
    """The same cards on each other cloud named ("AWS vs GCP"): its price, or that none is known there. Not when
    the clouds are weighed each on its own cheapest set-up (`cloud_choice`): the first cloud's cards priced on the
    other would be a third figure for one job (audit 31 M-79) or a gap that the choice line has already filled."""
    if answer.cloud_choice:
        return []
    lines = []
    for cost in answer.other_cloud_costs:
        config = f"{cost.count or 1}× {_gpu_name(kb, cost.gpu)}"
        if cost.currency is None or cost.per_hour is None:
            lines.append(t("price_unknown_once", gpus=config, cloud=t("on_cloud", cloud=cloud_name(t, cost.cloud))))
            continue
        instances = f"{cost.instances}× " if cost.instances and cost.instances > 1 else ""
        head = t("cost_on", instances=instances, instance=cost.instance, cloud=cloud_name(t, cost.cloud),
                 region=cost.region) + _gpus_billed(answer, cost, t)
        rates = t("cost_rates", per_hour=money(cost.per_hour), per_month=money(cost.per_month), cur=cost.currency)
        lines += [f"{head}: {rates}", _price_from(t, cost)]
    return lines


def _clouds_ranked_line(answer: Answer, t: Translator) -> str:
    """Clouds compared ("Lambda vs Nebius vs Hyperstack vs AWS"): the priced ones cheapest first, in one line, so
    the answer to "which is cheapest" is said, not left to the reader (audit 21 M-4). Instances billing different
    numbers of GPUs are ranked per GPU-hour: a whole 8-GPU box at 19.20 USD/h is 2.40 a GPU, cheaper than a
    1-GPU instance at 4.29 (audit 30 HIGH 66 had ranked it last)."""
    priced = [c for c in [answer.cost, *answer.other_cloud_costs]
              if c is not None and c.per_hour is not None and c.currency and c.cloud]
    if not answer.other_cloud_costs or len(priced) < 2 or len({c.currency for c in priced}) > 1:
        return ""

    def billed_gpus(cost: CostOut) -> int:
        return max(1, (cost.instance_gpus or cost.count or 1) * (cost.instances or 1))

    per_gpu = len({billed_gpus(c) for c in priced}) > 1
    ranked = sorted(priced, key=lambda c: (c.per_hour or 0.0) / (billed_gpus(c) if per_gpu else 1))
    cur = ranked[0].currency or ""
    if per_gpu:
        rest = ", ".join(f"{cloud_name(t, c.cloud)} {money((c.per_hour or 0.0) / billed_gpus(c))}"
                         f" ({billed_gpus(c)}× {c.instance or '?'})" for c in ranked[1:])
        top = ranked[0]
        gpus = billed_gpus(top)
        size = (f"{gpus} GPUs billed together" if gpus > 1 else "1 GPU") if t.lang == "en" else (
            f"{gpus} 张 GPU 一起计费" if gpus > 1 else "1 张 GPU")
        return t("clouds_ranked_per_gpu", cloud=cloud_name(t, top.cloud), instance=top.instance or "?",
                 size=size, per_gpu=money((top.per_hour or 0.0) / billed_gpus(top)),
                 per_hour=money(top.per_hour or 0.0), cur=cur, rest=rest)
    rest = ", ".join(f"{cloud_name(t, c.cloud)} {money(c.per_hour or 0.0)}" for c in ranked[1:])
    return t("clouds_ranked", cloud=cloud_name(t, ranked[0].cloud), instance=ranked[0].instance or "?",
             per_hour=money(ranked[0].per_hour or 0.0), per_month=money(ranked[0].per_month or 0.0), cur=cur,
             rest=rest)


def cost_view(answer: Answer, kb: KnowledgeBase, t: Translator) -> dict[str, Any]:
    lines = _cost_lines(answer, kb, t) + _other_cloud_lines(answer, kb, t)
    ranked = _clouds_ranked_line(answer, t)
    if ranked:
        lines = [ranked, *lines]
    # these read this module's money and cloud names
    from bot.reply.budget_view import budget_line
    from bot.reply.price_gaps import price_gap
    from bot.reply.spot import spot_line

    budget = budget_line(answer, kb, t)
    asked = answer.understood.get("currency")
    shown = answer.cost.currency if answer.cost is not None else None
    if asked and shown and asked != shown and not (answer.cost is not None and answer.cost.fx_rate):
        # "一個月要多少台幣？" answered in CNY: said, with how to get the currency asked (audit 30 LOW-139)
        lines.append(t("currency_not_converted", asked=str(asked), cur=shown))

    if spot := spot_line(answer, kb, t):
        lines.append(spot)
    return {"cost_lines": [budget, *lines] if budget else lines, "price_rows": _price_rows(answer, t),
            "price_gap": price_gap(answer, kb, t)}


def _batched_factor(speed: dict[str, Any]) -> float:
    return float(speed.get("audio_seconds_per_s_batched") or speed.get("audio_seconds_per_s") or 0)


def _times(ratio: float) -> str:
    """A multiple as a reader checks it: "1.3", not "1" (audit 38 LOW-213), whole from ten."""
    return f"{ratio:,.0f}" if ratio >= 10 else f"{ratio:.2g}"


def _hours_text(hours: float) -> str:
    """A run's length as a reader takes it in: hours from one hour up, minutes from one, else seconds (half a
    minute is not "1 min", audit 16 C-L4)."""
    if hours >= 1:
        return f"{hours_figure(hours)} h"
    return f"{hours * 60:,.0f} min" if hours * 60 >= 1 else f"{max(1.0, hours * 3600):,.0f} s"


def rate_text(rate: float) -> str:
    """A request rate as written back: whole numbers from 100 a second, three significant figures below."""
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"
