"""Money per unit of work: what each set-up costs a million tokens served, a billion trained, a document set or a
thousand images, and the picks ranked by it. Weighed at the load the question states (a serving plan's replicas),
at full load when a price per token or a volume is asked, or over a job's whole time (prefill included), because
a card's hourly price alone ranks them wrongly: the cheaper hour can be the dearer job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import rules
from bot.reply.budget_money import in_currency
from bot.reply.formatting import rounded_hours, tokens_per_work_unit
from bot.reply.model import PickOut
from bot.reply.money_model import ServingPlanOut
from bot.reply.pricing import PriceChoice, plan_bill, plan_fields, plan_for
from bot.reply.serving import at_full_load, full_load_rate
from bot.reply.side_figures import image_seconds
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules.cost import InstancePlan
from rules.fit import as_chosen
from rules.types import Pick, Workload


def work_rate(workload: Workload, gpu: GPU, count: int) -> float | None:
    """Useful tokens per second of a configuration: generated (all sequences) for serving, trained otherwise."""
    speed = rules.estimate_speed(workload, gpu, count)
    if workload.task == "inference":
        return speed.aggregate_tokens_per_s or speed.decode_tokens_per_s
    return speed.train_tokens_per_s


def useful_rate(workload: Workload, gpu: GPU, count: int, question: Question | None = None) -> float | None:
    """The work rate money is weighed against: `work_rate` at the load the question sizes; at full load (a price
    per token, a volume of output) the configuration's full-load generation; for a batch job over documents, its
    output over the job's whole time, prompts' prefill included (a prefill-bound job is cheapest on the card
    with the most compute per dollar, not on the smallest that holds it)."""
    if workload.task != "inference" or question is None or not at_full_load(question):
        return work_rate(workload, gpu, count)
    generation = full_load_rate(workload, gpu, count)
    if not generation or not (question.batch_job and question.training_samples and question.output_tokens):
        return generation
    prefill = rules.estimate_speed(workload, gpu, count).prefill_tokens_per_s
    if not prefill:
        return None  # a card with no compute figure (known by its memory alone) cannot be timed on a prefill-bound job
    prompt = float(question.training_samples) * max(0, workload.context - (workload.gen_tokens or 0))
    seconds = prompt / prefill + question.output_tokens / generation
    return question.output_tokens / seconds


def price_images(picks: Sequence[PickOut], workload: Workload, kb: KnowledgeBase) -> list[PickOut]:
    """Each pick of an image generator with its seconds per image and the money per 1,000 images."""
    out: list[PickOut] = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu)
        seconds = image_seconds(workload, gpu, kb) if gpu is not None and pick.fits else None
        if not seconds:
            out.append(pick)
            continue
        cost = pick.price_per_hour * seconds / 3600 * 1000 if pick.price_per_hour else None
        out.append(pick.model_copy(update={"seconds_per_image": round(seconds, 2),
                                           "work_cost": round(cost, 3) if cost is not None else None}))
    return out


def price_work(picks: Sequence[PickOut], workload: Workload, kb: KnowledgeBase,
               question: Question | None = None, choice: PriceChoice | None = None) -> list[PickOut]:
    """Each priced pick with its useful work rate and the money per unit of it, for cards compared side by side."""
    if workload.model.arch == "diffusion":
        return price_images(picks, workload, kb)
    if workload.model.arch == "encoder" and question is not None and question.training_samples:
        return price_documents(picks, workload, kb, question.training_samples)
    if workload.model.modality == "audio" and question is not None and question.audio_hours and \
            not question.audio_per_day:
        return price_audio(picks, workload, kb, question.audio_hours)
    out: list[PickOut] = []
    for pick in picks:
        planned = price_load(pick, workload, kb, question, choice)
        if planned is not None:
            out.append(planned)
            continue
        gpu = kb.gpus.get(pick.gpu)
        # replicas (one-card L20s where no machine rents two) each serve at one replica's rate
        replicas = pick.replicas or 1
        cards = max(1, pick.count // replicas)
        share = replace(workload, batch=-(-workload.batch // replicas)) if replicas > 1 else workload
        one = useful_rate(as_timed(share, gpu, cards), gpu, cards, question) \
            if gpu is not None and pick.fits else None
        rate = one * replicas if one else None
        if not rate:
            out.append(pick)
            continue
        unit = tokens_per_work_unit(workload.task)
        cost = pick.price_per_hour / (rate * 3600) * unit if pick.price_per_hour else None
        update: dict[str, object] = {"work_tokens_per_s": round(rate, 1),
                                     "work_cost": round(cost, 3) if cost is not None else None}
        if workload.task != "inference" and question is not None and question.tokens:
            # the tokens asked for, on each set-up compared: "if we rent 8x A100 80GB, how long would it take?"
            update.update(_job_fields(pick, question.tokens / rate / 3600.0))
        out.append(pick.model_copy(update=update))
    return out


def price_load(pick: PickOut, workload: Workload, kb: KnowledgeBase, question: Question | None,
               choice: PriceChoice | None) -> PickOut | None:
    """A compared card laid out for the load the question states ("20 requests/s: L4 vs L40S, which is cheaper?"):
    the replicas its serving plan needs, billed as the cost block bills them, and money per token at the rate
    they serve. None when there is no load to meet, or no plan or price for it on the card. One card at one
    sequence is another job: it priced the L4 and the L40S at 8.25 and 8.10 USD per million output tokens against
    0.34 for the plan that meets the load (audit 24 HIGH 17)."""
    gpu = kb.gpus.get(pick.gpu)
    if gpu is None or question is None or choice is None or not pick.fits or not has_load_to_meet(question, workload):
        return None
    plan, bill = _load_plan(question, as_timed(workload, gpu, pick.count), gpu, pick.count, kb, choice)
    if plan is None or bill is None or not plan.met or not plan.aggregate_tokens_per_s:
        return None
    cards = plan.gpus_per_replica * plan.replicas
    # a request rate met is the same tokens on every card compared: money per token at that rate, so the
    # cheaper bill is the cheaper answer, not the set with more spare capacity (audit 25 LOW-50)
    rate = plan.aggregate_tokens_per_s
    if question.qps and workload.gen_tokens:
        rate = min(rate, question.qps * workload.gen_tokens)
    return pick.model_copy(update={
        **plan_fields(bill, cards), "count": cards, "replicas": plan.replicas if plan.replicas > 1 else None,
        "work_tokens_per_s": round(rate, 1), "work_cost": round(bill.per_hour / (rate * 3600) * 1e6, 3)})


def price_documents(picks: Sequence[PickOut], workload: Workload, kb: KnowledgeBase,
                    documents: float) -> list[PickOut]:
    """Each pick of an encoder over a set of documents with the job's hours and total: compared side by side
    ("which is cheaper in total, one L4 or one H100?"), the cheaper hour can be the dearer job."""
    from bot.reply.serving import encoder_rate  # serving sizing reads the speed rules; only replies need it

    out: list[PickOut] = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu)
        if gpu is None or not pick.fits or not rules.compute_known(gpu):
            out.append(pick)
            continue
        rate, _ = encoder_rate(workload, gpu, pick.count)
        out.append(pick.model_copy(update=_job_fields(pick, documents / rate / 3600.0)))
    return out


def price_audio(picks: Sequence[PickOut], workload: Workload, kb: KnowledgeBase, audio_hours: float) -> list[PickOut]:
    """Each pick of a speech model over hours of recorded audio with the job's hours and total, the files shared
    out one copy of the model a card at its batched rate (job_hours.add_audio_hours, the job line's own reading):
    "哪個比較便宜？" after the same 1,000 hours on an L4 and on an H20 (audit 24 M-26)."""
    from bot.reply.media_figures import recorded_audio_hours

    out: list[PickOut] = []
    for pick in picks:
        gpu = kb.gpus.get(pick.gpu)
        hours = recorded_audio_hours(workload, gpu, pick.count, audio_hours) if gpu is not None and pick.fits else None
        out.append(pick.model_copy(update=_job_fields(pick, hours)) if hours else pick)
    return out


def _job_fields(pick: PickOut, hours: float) -> dict[str, float | None]:
    """A compared pick's run (its hours as the job line rounds them, so the totals agree) and its bill."""
    hours = rounded_hours(hours)
    return {"job_hours": hours, "job_cost": round(hours * pick.price_per_hour, 2) if pick.price_per_hour else None}


def as_timed(workload: Workload, gpu: GPU | None, count: int) -> Workload:
    """The workload in the set-up the memory rules chose for `count` × `gpu` (gradient checkpointing, ZeRO), as the
    pick's speed line times it: a card that holds the job without checkpointing trains faster, and money per token
    must follow the time the reply states, or "cheapest" ranks by a speed nobody is shown."""
    if gpu is None:
        return workload
    return as_chosen(workload, rules.estimate_memory(workload, count, gpu).chosen)


def has_load_to_meet(question: Question, workload: Workload) -> bool:
    """A serving load stated as a request rate, a speed a user must see or a first-token time: each card is then
    weighed, and shown, by the serving plan that meets it."""
    return workload.task == "inference" and bool(question.qps or question.tokens_per_s_per_user or question.ttft_s)


def load_cost_per_hour(pick: Pick, gpu: GPU, workload: Workload, kb: KnowledgeBase, choice: PriceChoice,
                       question: Question) -> float | None:
    """What serving the load the question states costs an hour on `pick`'s cards: its serving plan's replicas,
    each billed as an instance of its size, in `choice`'s currency. None without a plan or a price."""
    if not has_load_to_meet(question, workload):
        return None
    _, bill = _load_plan(question, workload, gpu, pick.count, kb, choice)
    return in_currency(bill.per_hour, bill.currency, choice.currency, choice.rates) if bill is not None else None


def _load_plan(question: Question, workload: Workload, gpu: GPU, count: int, kb: KnowledgeBase,
               choice: PriceChoice) -> tuple[ServingPlanOut | None, InstancePlan | None]:
    """The serving plan that meets the question's load on `count` × `gpu`, and how its replicas are billed (each
    None when there is none): what both the ranking and the side by side weigh a card by."""
    from bot.reply.serving import serving_plan  # serving sizing reads the speed rules; only replies need it

    plan = serving_plan(question, workload, gpu, count, serving_bill(kb, choice))
    bill = plan_bill(kb, gpu.id, plan.gpus_per_replica, plan.replicas, choice) if plan is not None else None
    return plan, bill


def serving_bill(kb: KnowledgeBase, choice: PriceChoice) -> Callable[[GPU, int, int], tuple[float, str] | None]:
    """An hour of `replicas` × `cards` of a card and its currency (None without a price): what the serving plans
    of one card are weighed by, billed as the cost block bills the one chosen."""
    def bill(gpu: GPU, cards: int, replicas: int) -> tuple[float, str] | None:
        plan = plan_bill(kb, gpu.id, cards, replicas, choice)
        return (plan.per_hour, plan.currency) if plan is not None else None
    return bill


def rank_by_money(picks: Sequence[Pick], workload: Workload, kb: KnowledgeBase, choice: PriceChoice,
                  question: Question | None = None) -> list[Pick]:
    """Picks by money per useful work where a price is known; unpriced ones after, in their earlier order. A load
    stated as a request rate or a speed is weighed by what meeting it costs on each card (its serving plan), not
    by money per token at the pick's own batch: one L20 holding every sequence beats two A10s that each hold half."""
    keyed: list[tuple[tuple[float, ...], int, Pick]] = []
    cards = [kb.gpus.get(pick.gpu_id) for pick in picks]
    load_costs = [load_cost_per_hour(pick, gpu, workload, kb, choice, question)
                  if question is not None and pick.fits and gpu is not None else None
                  for pick, gpu in zip(picks, cards, strict=True)]
    planned = any(cost is not None for cost in load_costs)
    # a set number of users or sequences at once, with no volume to produce: every set that holds them does the
    # same work, so the bill an hour decides (the cheapest Lambda box for 4 users of Llama 4 Scout was a B200 at
    # 6.99 USD/h, first by money per token at its own speed, over 4 RTX A6000 at 4.36; audit 26 HIGH 38)
    fixed_load = question is not None and workload.task == "inference" and bool(question.batch or question.users) \
        and not (question.output_tokens or question.asks_token_cost)
    for index, (pick, gpu) in enumerate(zip(picks, cards, strict=True)):
        load_cost = load_costs[index]
        if load_cost is not None:
            keyed.append(((0.0, 0.0, load_cost), index, pick))
            continue
        if planned:
            # a card no plan prices for the load (no compute figure, no price) cannot be weighed against a plan's
            # bill: money per token at one sequence is another unit, and would put a card that misses the rate first
            keyed.append(((float(not pick.fits), 3.0, 0.0), index, pick))
            continue
        plan = plan_for(kb, pick.gpu_id, pick.count, choice) if gpu is not None else None
        rate = useful_rate(as_timed(workload, gpu, pick.count), gpu, pick.count, question) \
            if gpu is not None and plan is not None else None
        if plan is None or not rate:
            key: tuple[float, ...] = (float(not pick.fits), 2.0, 0.0)
        else:
            # an operator's exchange rate (knowledge.fx) lets prices in another currency be compared; without
            # one they follow the question's currency, as they cannot be ranked against it
            hourly = in_currency(plan.per_hour, plan.currency, choice.currency, choice.rates)
            key = ((float(not pick.fits), 0.0, hourly if fixed_load else hourly / rate) if hourly is not None
                   else (float(not pick.fits), 1.0, plan.per_hour if fixed_load else plan.per_hour / rate))
        keyed.append((key, index, pick))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [p for _, _, p in keyed]


__all__ = ["as_timed", "has_load_to_meet", "load_cost_per_hour", "price_work", "rank_by_money", "serving_bill",
           "useful_rate", "work_rate"]
