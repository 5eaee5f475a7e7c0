"""FAQ entries the situation calls for, at most `MAX_FAQ` of them."""

from __future__ import annotations

from bot.reply.defaults import LONG_CONTEXT_TOKENS
from bot.reply.model import (
    Answer,
)
from bot.understand.intent import holds_the_card
from bot.understand.question import Question
from bot.understand.tokens import fold
from knowledge.base import KnowledgeBase
from knowledge.schema import FaqEntry
from rules.types import Workload

MAX_FAQ = 1
"""One FAQ answer, on the reply's topic: a Slack reader skims past a second one."""
RESERVATION_TOPIC = "engine-reservation"
"""The topic of the entry on serving engines' up-front reservations (vLLM's gpu_memory_utilization, …)."""


def _fits_task(entry: FaqEntry, task_topic: str) -> bool:
    """An entry tagged for the other kind of job only (training or inference) does not fit this one: the
    out-of-memory advice on gradient checkpointing and LoRA is no answer to a model that cannot be served."""
    other = "inference" if task_topic == "training" else "training"
    return task_topic in entry.topics or other not in entry.topics


def faq_for(question: Question, workload: Workload | None, answer: Answer, kb: KnowledgeBase) -> list[str]:
    """FAQ entries the situation calls for: each situation names a topic, and among the entries tagged
    with it (and fit for the task, training vs inference) the one that also matches the task and covers
    most of the situation's topics is preferred."""
    wanted: list[str] = []
    if question.faq_hint and question.faq_hint in kb.faq:
        wanted.append(question.faq_hint)
    topics: list[str] = []
    several = bool(answer.picks) and answer.picks[0].count > 1
    if answer.check is not None and not answer.check.fits:
        topics.append("out-of-memory")
    if workload is not None:
        inference = workload.task == "inference"
        if inference and workload.context >= LONG_CONTEXT_TOKENS:
            topics.append("long-context")
        if several and not inference:
            topics.append("parallelism")  # multi-GPU training: how cards share the job, NVLink, ZeRO
        if workload.precision in ("int4", "int8") and inference:
            topics.append("quantisation")
    if question.budget:
        topics.append("budget")
    if question.cloud == "alibaba":
        topics.append("cloud")
    for gpu_id in {question.gpu, *question.compare_gpus} - {None}:
        gpu = kb.gpus.get(gpu_id or "")
        if gpu is not None and not gpu.recommended:
            names = {name.lower() for name in (gpu.name, *gpu.aliases)}
            for entry in kb.faq.values():
                if entry.id not in wanted and names & {k.lower() for k in entry.keywords}:
                    wanted.insert(0, entry.id)
                    break
    task_topic = "training" if workload is not None and workload.task != "inference" else "inference"
    for topic in topics:
        tagged = [entry for entry in kb.faq.values() if topic in entry.topics and entry.id not in wanted
                  and (workload is None or _fits_task(entry, task_topic))]
        if tagged:
            best = max(tagged, key=lambda entry: (entry.topics[0] == topic, task_topic in entry.topics,
                                                  len(set(entry.topics) & set(topics)), -len(entry.topics)))
            wanted.append(best.id)
    if holds_the_card(question.engine, fold(question.text), fraction_stated=question.memory_fraction is not None):
        # "vLLM takes all my GPU memory" (this message, not an earlier one of the thread): the entry on engines'
        # reservations, whatever else the words resemble
        reserved = [entry.id for entry in kb.faq.values() if RESERVATION_TOPIC in entry.topics][:1]
        wanted = reserved + [faq_id for faq_id in wanted if faq_id not in reserved]
    return wanted[:MAX_FAQ]
