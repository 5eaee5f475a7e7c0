"""How a serving plan sized at an assumed reply length changes with a short one.

A request rate with no reply length is timed with each reply half as long as the prompt (bot.reply.defaults): a
4k-token prompt then writes 2,048 tokens, and those decode steps set how many replicas the rate takes. The length
is said under Assumed, but a verdict ("does not keep up … needs 4") rests on it; the plan at a chat paragraph's
length is given beside it, so the reader sees which way the unstated figure moves the answer (audit 24 LOW-38).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.reply.money_model import ServingPlanOut
from bot.understand.question import Question
from bot.understand.slots.service_rate import LATENCY_OUTPUT_TOKENS
from knowledge.schema import GPU
from rules.types import Workload


def short_reply_plan(question: Question, workload: Workload, gpu: GPU, count: int, plan: ServingPlanOut | None,
                     planner: Callable[[Question, Workload, GPU, int], ServingPlanOut | None]) -> None:
    """Adds to `plan.targets` the plan `planner` makes at LATENCY_OUTPUT_TOKENS-token replies, when the reply
    length was assumed longer and the short one changes the cards the rate takes or whether it is met."""
    assumed = workload.gen_tokens
    if (plan is None or not question.qps or question.gen_tokens is not None or not assumed
            or assumed <= LATENCY_OUTPUT_TOKENS or workload.task != "inference"):
        return
    short = replace(workload, gen_tokens=LATENCY_OUTPUT_TOKENS,
                    context=max(LATENCY_OUTPUT_TOKENS + 1, workload.context - assumed + LATENCY_OUTPUT_TOKENS))
    other = planner(question.model_copy(update={"gen_tokens": LATENCY_OUTPUT_TOKENS}), short, gpu, count)
    if other is None:
        return
    cards, other_cards = plan.replicas * plan.gpus_per_replica, other.replicas * other.gpus_per_replica
    if cards == other_cards and plan.met == other.met:
        return
    plan.targets.update(short_reply_tokens=float(LATENCY_OUTPUT_TOKENS), short_reply_replicas=float(other.replicas),
                        short_reply_cards=float(other.gpus_per_replica), short_reply_met=float(other.met),
                        assumed_reply_tokens=float(assumed))
