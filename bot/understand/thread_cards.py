"""The cards and clouds a thread has been sized on, each at the count and on the cloud it was asked.

A follow-up that chooses among them ("哪个更便宜" after an L4 and then an H100, or after AWS and then Alibaba Cloud)
needs them twice: to tell such a choice from a new question (bot.understand.followup_detect) and to build the
comparison it asks for (bot.understand.followup). They live here so that neither reaches into the other.
"""

from __future__ import annotations

from bot.understand.question import Question
from bot.understand.slots.base import first_label
from bot.understand.slots.money import CLOUDS
from bot.understand.tokens import fold


def named_a_cloud(previous: Question) -> bool:
    """Whether the thread's last message named a cloud ("阿里云呢", "and on AWS?"): it moved between clouds last."""
    return first_label(CLOUDS, fold(previous.text)) is not None


def asked_clouds(previous: Question) -> list[str]:
    """The clouds the thread has priced on, in the order asked, the previous message's last."""
    asked = [c for c in previous.asked_clouds if c != previous.cloud]
    return [*asked, previous.cloud] if previous.cloud else asked


def stated_count(question: Question) -> int | None:
    """The card count a message stated (None: the fewest that hold the job)."""
    return question.gpu_count if "gpu_count" in question.stated else None


def thread_gpus(previous: Question, current: Question) -> dict[str, int | None]:
    """The cards the thread has been sized on, the previous one added when this message names another."""
    named_another = "gpu" in current.stated and current.gpu not in (None, previous.gpu)
    cards = thread_cards(previous) if named_another else dict(previous.thread_gpus)
    if current.gpu is not None:
        cards.pop(current.gpu, None)
    return cards


def thread_clouds(previous: Question) -> dict[str, str]:
    """The cloud each card of the thread was last asked on, the previous message's card included."""
    clouds = dict(previous.thread_clouds)
    if previous.gpu is not None and previous.cloud is not None:
        clouds[previous.gpu] = previous.cloud
    return clouds


def thread_cards(previous: Question) -> dict[str, int | None]:
    """The thread's cards, the latest last, each at the count it was asked with; a message that named none stands
    for the set-up its reply recommended (audit 30 HIGH 61: "用什么卡 … 换成 H20 呢 … 哪个更便宜" had one card to
    choose among and fell to the generic chart)."""
    cards: dict[str, int | None] = dict(previous.thread_gpus)
    if previous.gpu is None and previous.answered_pick is not None:
        cards.setdefault(previous.answered_pick[0], previous.answered_pick[1])
    if previous.gpu is not None:
        cards.pop(previous.gpu, None)
        cards[previous.gpu] = stated_count(previous)
    return cards


def clouds_apart(gpus: list[str], clouds: dict[str, str]) -> dict[str, str]:
    """Each card's cloud when every card was asked on a cloud and they differ, else nothing."""
    if len({clouds.get(g) for g in gpus}) > 1 and all(g in clouds for g in gpus):
        return {g: clouds[g] for g in gpus}
    return {}


def cards_apart(previous: Question) -> bool:
    """Whether the thread's cards were each asked on a cloud of their own ("阿里云上一张 A10…" / "换成 AWS 的 L4
    呢"): a choice among them is one of cards, each priced where asked (M-42), even though the last named a cloud."""
    gpus = list(thread_cards(previous))[-MAX_THREAD_CARDS:]
    return bool(clouds_apart(gpus, thread_clouds(previous)))


MAX_THREAD_CARDS = 4
"""A thread that tried more cards compares its latest four, as a message naming them would be read."""
