"""How long a counted job takes at the rate the reply shows: documents to embed, images, audio, a volume of output
(a batch job's prompts included), training tokens. Each sets `speed.job_hours` (or `train_hours`), which the bill
then covers, so the total and the rate shown can never disagree."""

from __future__ import annotations

import math

import rules
from bot.reply.formatting import rounded_hours
from bot.reply.money_model import ServingPlanOut
from bot.reply.serving import encoder_rate
from bot.understand.question import Question
from knowledge.schema import GPU
from rules.types import Workload


def _set_job(speed: dict[str, float | None], counted: str, amount: float, hours: float) -> None:
    """`speed[counted]` (what the question counts) and `speed.job_hours`, the run it takes at the rate shown."""
    speed[counted] = float(amount)
    speed["job_hours"] = rounded_hours(hours)


def add_image_hours(speed: dict[str, float | None], question: Question, workload: Workload,
                    copies: int = 1) -> None:
    """`speed.job_hours`: how long the images the question counts take at the seconds per image shown, or at the
    images a second a dual encoder embeds. `copies`: the pipeline's copies the cards asked about run at once, a
    card each (4 L40S make 4 images at a time: audit 31 HIGH 81 had timed one)."""
    embedded = speed.get("images_embedded_per_s")
    if workload.task == "inference" and workload.model.arch == "dual-encoder" and question.image_count and embedded:
        _set_job(speed, "images_embedded", question.image_count, question.image_count / embedded / 3600.0)
        return
    seconds = speed.get("seconds_per_image")
    if workload.task != "inference" or workload.model.arch != "diffusion" or not question.image_count or not seconds:
        return
    _set_job(speed, "images", question.image_count, question.image_count * seconds / 3600.0 / max(1, copies))
    if copies > 1:
        speed["image_copies"] = float(copies)


def add_encoding_hours(speed: dict[str, float | None], question: Question, workload: Workload, gpu: GPU,
                       count: int) -> None:
    """`speed.job_hours`: how long an encoder takes over the documents the question counts ("embed 10M
    documents"), encoded in batches as an offline job is (sentence-transformers' encode batches 32 by default);
    the bill then covers those hours."""
    if workload.task != "inference" or workload.model.arch != "encoder" or not question.training_samples:
        return
    if not speed.get("sequences_per_s"):
        return  # no speed for the card (no compute figure): no time either
    rate, batch = encoder_rate(workload, gpu, count)
    speed.update(documents_batch=float(batch), documents_per_s=round(rate, 1))
    _set_job(speed, "documents", question.training_samples, question.training_samples / rate / 3600.0)


def add_audio_hours(speed: dict[str, float | None], question: Question, workload: Workload, count: int = 1) -> None:
    """`speed.job_hours`: how long a speech model takes over the hours of audio the question counts. Recorded
    audio is transcribed as an offline job: its windows batched on each card (the batched real-time factor the reply
    shows) and its files shared among the `count` cards, each running its own copy of the model."""
    factor = speed.get("audio_seconds_per_s")
    if workload.task != "inference" or workload.model.modality != "audio" or not question.audio_hours or not factor:
        return
    if question.audio_per_day:
        # a day's audio takes this long on the configuration, its recordings batched: as many of it as keep up,
        # around the clock
        work = question.audio_hours / (speed.get("audio_seconds_per_s_batched") or factor)
        speed.update(audio_hours=float(question.audio_hours), audio_work_hours_per_day=round(work, 1),
                     audio_sets_daily=float(max(1, math.ceil(work / 24.0))))
        return
    batched = speed.get("audio_seconds_per_s_batched") or factor
    _set_job(speed, "audio_hours", question.audio_hours, question.audio_hours / (batched * max(1, count)))


def generation_rate(speed: dict[str, float | None], serving: ServingPlanOut | None) -> float | None:
    """Tokens a second generated in all: the serving plan's, at its load, else the sized batch's."""
    return (serving.aggregate_tokens_per_s if serving is not None else None) or speed.get(
        "aggregate_tokens_per_s") or speed.get("decode_tokens_per_s")


def add_output_hours(speed: dict[str, float | None], question: Question, workload: Workload,
                     serving: ServingPlanOut | None, count: int = 1) -> None:
    """`speed.job_hours`: how long a volume of output takes ("generate 1M tokens") at `generation_rate`; for a
    batch job over documents, with their prompts' prefill (`speed.requests`, `prompt_tokens`, `prefill_hours`,
    `generation_hours`)."""
    rate = generation_rate(speed, serving)
    if workload.task != "inference" or not question.output_tokens or not rate:
        return
    hours = question.output_tokens / rate / 3600.0
    # the speed figures are the `count` cards sized; prefill is compute-bound, so the plan's replicas prefill
    # at that rate scaled by the cards they use in all (4 one-card replicas of the 4 sized: the same)
    planned = serving.replicas * serving.gpus_per_replica if serving is not None else count
    prefill_rate = float(speed.get("prefill_tokens_per_s") or 0) * planned / max(1, count)
    if question.batch_job and question.training_samples and prefill_rate > 0:
        # An offline job over documents prefills every prompt as well: at the compute-bound prefill rate, added
        # to the generation (an engine interleaving the two overlaps them a little, so this is the longer side).
        prompt = float(question.training_samples) * max(0, workload.context - (workload.gen_tokens or 0))
        speed.update(requests=float(question.training_samples), prompt_tokens=prompt,
                     prefill_hours=round(prompt / prefill_rate / 3600.0, 2), generation_hours=round(hours, 2))
        hours += prompt / prefill_rate / 3600.0
    _set_job(speed, "output_tokens", question.output_tokens, hours)


def image_copies(question: Question, workload: Workload, gpu: GPU, count: int) -> int:
    """Copies of an image pipeline the cards asked about run side by side: a diffusion model is not split across
    cards to go faster, so 4 L40S asked for a batch of images are 4 copies of the one card that holds it."""
    if (workload.model.arch != "diffusion" or not question.image_count or question.gpu != gpu.id
            or not question.gpu_count or question.gpu_count <= count):
        return 1
    return question.gpu_count // count


def add_training_hours(speed: dict[str, float | None], question: Question, workload: Workload, gpu: GPU,
                       count: int) -> None:
    """`speed.train_hours`: the whole job's wall-clock when the question gives its tokens."""
    add_encoding_hours(speed, question, workload, gpu, count)
    add_image_hours(speed, question, workload, image_copies(question, workload, gpu, count))
    add_audio_hours(speed, question, workload, count)
    if workload.task == "inference" or not question.tokens:
        return
    # The rate the reply already shows (the sized set-up: its checkpointing and ZeRO stage), so the total and
    # the rate can never disagree; the rules' own figure only when no rate was computed.
    rate = speed.get("train_tokens_per_s")
    hours = question.tokens / rate / 3600.0 if rate else rules.training_hours(workload, gpu, count, question.tokens)
    if hours is None:
        return  # a card without a published throughput figure is not timed
    speed["train_hours"] = rounded_hours(hours)
    speed["gpu_hours"] = rounded_hours(hours * count)
    if question.hours:
        # A deadline ("in 90 days"): whether the sized cards meet it and, when they do not, how many would at
        # their per-card rate — a floor, since more cards lose some speed to communication.
        speed["deadline_hours"] = question.hours
        if hours > question.hours:
            speed["cards_for_deadline"] = float(math.ceil(hours * count / question.hours))
    elif hours > MONTH_OF_TRAINING_HOURS:
        add_month_plan(speed, question.tokens, workload, gpu, count)


MONTH_OF_TRAINING_HOURS = 30 * 24.0
"""A training job longer than this on the cards sized also gets the count of the same card that finishes it
within a month (no deadline was given; "QLoRA of a 70B on 1M samples" takes 100 days on the two cards that hold
it, which is rarely what is wanted, though it is the fewest GPU-hours)."""


def add_month_plan(speed: dict[str, float | None], tokens: float, workload: Workload, gpu: GPU, count: int) -> None:
    """`speed.month_cards` / `month_hours` / `month_gpu_hours`: the fewest of `gpu`, at least `count`, that train
    `tokens` within a month in the set-up the rules choose at that count (bot.reply.deadline.deadline_count)."""
    from bot.reply.deadline import deadline_count
    from rules.fit import as_chosen

    cards = deadline_count(workload, gpu, count, tokens, MONTH_OF_TRAINING_HOURS)
    if cards is None:
        return
    timed = as_chosen(workload, rules.estimate_memory(workload, cards, gpu).chosen)
    hours = rules.training_hours(timed, gpu, cards, tokens)
    if hours is None:
        return
    speed["month_cards"] = float(cards)
    speed["month_hours"] = round(hours, 1)
    speed["month_gpu_hours"] = round(hours * cards, 1)
