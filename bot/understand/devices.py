"""Cards that show the runtime more than one device.

An MI250X module is two GCDs of 64 GB that ROCm, PyTorch and Slurm each see as a GPU: a job is placed on GCDs, so
the knowledge base sizes one GCD (`GPU.devices_per_card`). People count the modules they own or rent ("4 MI250X"),
so a count of such cards in a question is turned into the count of devices the sizing places work on.
"""

from __future__ import annotations

from bot.understand.question import MAX_GPU_COUNT, Question
from knowledge.base import KnowledgeBase


def per_device(question: Question, kb: KnowledgeBase) -> Question:
    """The question with every stated count of a multi-device card multiplied into devices; one such card named
    in a check with no count is its devices. A recommendation's open count stays open: the picks come in whole
    cards through the entry's `gpus_per_node`."""

    def devices(gpu_id: str | None) -> int:
        card = kb.gpus.get(gpu_id or "")
        return card.devices_per_card if card is not None else 1

    update: dict[str, object] = {}
    if question.gpu_set:
        if any(devices(card) > 1 for card in question.gpu_set):
            expanded = [card for card in question.gpu_set for _ in range(devices(card))]
            update["gpu_set"], update["gpu_count"] = expanded, len(expanded)
    elif (each := devices(question.gpu)) > 1:
        if question.gpu_count is not None:
            update["gpu_count"] = min(question.gpu_count * each, MAX_GPU_COUNT)
        elif question.intent == "check":
            update["gpu_count"] = each
            update["stated"] = [*question.stated, "gpu_count"] if "gpu_count" not in question.stated \
                else question.stated
    if question.compare_counts and any(devices(card) > 1 for card in question.compare_counts):
        update["compare_counts"] = {card: min(count * devices(card), MAX_GPU_COUNT)
                                    for card, count in question.compare_counts.items()}
    return question.model_copy(update=update) if update else question
