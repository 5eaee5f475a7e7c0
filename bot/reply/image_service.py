"""An image model served to users or at a rate ("SDXL for 200 users", "300 images a minute"): cards that each make
one image at a time, as many as the rate takes, rather than one batch of every user's image in one card's memory."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from bot.reply.money_model import ServingPlanOut
from bot.understand.question import Question
from bot.understand.slots.context import USERS_NOTE
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, Model
from rules.types import Pick, Workload


def image_service(question: Question, model: Model, task: str | None) -> bool:
    """An image model served to users or at a rate, rather than one batch sized in memory."""
    return model.arch == "diffusion" and task == "inference" and (
        USERS_NOTE in question.notes or bool(question.images_per_minute or question.images_per_minute_per_user))


def images_wanted_per_minute(question: Question) -> tuple[float, bool] | None:
    """(images a minute the service must make, whether each user's one a minute was assumed): the rate stated,
    else each user's rate (stated, or one image a minute) times the users; None without users or a rate."""
    if question.images_per_minute:
        return question.images_per_minute, False
    users = question.batch if USERS_NOTE in question.notes else None
    if users is None:
        return None
    each = question.images_per_minute_per_user
    return users * (each or DEFAULT_IMAGES_PER_USER_MINUTE), each is None


DEFAULT_IMAGES_PER_USER_MINUTE = 1.0
"""Images a minute each user of an image service is taken to ask for when the question gives no rate: a person
writing prompts and looking at the results; the reply says so and the rate sets the cards."""


def cards_for(images_per_minute: float, seconds_per_image: float) -> int:
    """Cards, each making one image at a time, that keep up with the rate."""
    return math.ceil(images_per_minute * seconds_per_image / 60.0)


def image_plan(speed: dict[str, float | None], gpu: GPU, count: int) -> ServingPlanOut | None:
    """An image service (bot.reply.media_figures): as many replicas of `count` × `gpu`, each making one image at
    a time, as its rate takes; None when the speed figures hold no such service."""
    cards, seconds = speed.get("image_cards"), speed.get("seconds_per_image")
    if not cards or not seconds:
        return None
    wanted = float(speed.get("images_per_minute_wanted") or 0.0)
    targets = {"images_per_minute": wanted, "images_per_minute_per_replica": round(60.0 / seconds, 2)}
    if speed.get("images_per_user_assumed"):
        targets["images_per_user_assumed"] = 1.0
    return ServingPlanOut(gpu=gpu.id, gpus_per_replica=count, replicas=int(cards), sequences_per_replica=1,
                          concurrent_needed=math.ceil(wanted), ttft_s=round(seconds, 2), binding="images",
                          targets=targets)


def embedding_plan(speed: dict[str, float | None], gpu: GPU, count: int) -> ServingPlanOut | None:
    """A dual encoder kept up with a rate of images (bot.reply.media_figures): as many copies of `count` × `gpu`,
    each embedding its batches at the rate the speed figures give; None without such a rate."""
    cards, rate = speed.get("image_cards"), speed.get("images_embedded_per_s")
    wanted = speed.get("images_embedded_wanted_per_s")
    if not cards or not rate or not wanted:
        return None
    return ServingPlanOut(gpu=gpu.id, gpus_per_replica=count, replicas=int(cards), sequences_per_replica=1,
                          concurrent_needed=math.ceil(wanted), binding="embedded_images",
                          targets={"images_per_s": float(wanted), "images_per_s_per_replica": float(rate)})


def cheapest_service_first(picks: Sequence[Pick], question: Question, workload: Workload, kb: KnowledgeBase,
                           hourly_price_of: Callable[[GPU, int], float | None]) -> list[Pick]:
    """For an image service, the picks by what the whole service costs an hour: each card's price times the cards
    its rate takes there (a card half the price that makes a third of the images costs more). Unpriced picks keep
    their order after the priced ones; any other job is left as it is."""
    from bot.reply.side_figures import image_seconds  # side_figures reads defaults, which reads this module

    wanted = images_wanted_per_minute(question)
    if wanted is None or workload.model.arch != "diffusion":
        return list(picks)

    def service_cost(pick: Pick) -> float:
        gpu = kb.gpus.get(pick.gpu_id)
        seconds = image_seconds(workload, gpu, kb) if gpu is not None else None
        price = hourly_price_of(gpu, pick.count) if gpu is not None else None
        if not pick.fits or not seconds or price is None:
            return math.inf
        return price * cards_for(wanted[0], seconds)

    return sorted(picks, key=lambda pick: (not pick.fits, service_cost(pick)))
