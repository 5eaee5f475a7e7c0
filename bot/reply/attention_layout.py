"""Data-parallel attention weighed against tensor parallel when a latent-attention (MLA) model serves many users.

Tensor parallel keeps the whole MLA latent of every sequence on every card, so at DeepSeek's scale of users the
cache, copied eight times, decides the cards; data-parallel attention (SGLang --enable-dp-attention, vLLM
--data-parallel-size N --enable-expert-parallel) keeps on each card only its own requests' cache, at the price of
the attention weights whole on every card. It is how DeepSeek-V3/R1 is served at scale, and the check already
offers it as a fix; a recommendation sized on tensor parallel alone doubled the cards (audit 38 M-145: 16 H200s
for 32 users at 64k where 8 hold them). Both layouts are sized and the one whose top set-up costs less (or, with
no price, takes fewer cards) is answered, said under Assumed.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.reply.model import Answer, Assumption
from bot.reply.serving import users_of
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules.engine_profile import profile_for
from rules.types import Workload

DP_ATTENTION_REASON = "dp-attention-cheaper"


def weighs_attention_layouts(question: Question, workload: Workload) -> bool:
    """A recommendation for many users of an MLA model on an engine that serves it with data-parallel attention,
    the layout not stated."""
    return (question.intent == "recommend" and question.dp_attention is None and workload.task == "inference"
            and workload.model.mla is not None and users_of(question) > 1
            and profile_for(workload).dp_attention is not None)


def _bill(result: Answer) -> tuple[int, float, int] | None:
    """(no fit, hourly bill or +inf, cards) of the top set-up, ordered so the better answer sorts first."""
    if not result.picks:
        return None
    top = result.picks[0]
    price = top.price_per_hour if top.price_per_hour is not None else float("inf")
    return (0 if top.fits else 1, price, top.count)


def better_layout(question: Question, kb: KnowledgeBase, answer: Callable[[Question, KnowledgeBase], Answer]) -> Answer:
    """The answer on the layout whose top set-up costs less (or takes fewer cards), data-parallel attention only
    when it is strictly better; said under Assumed when chosen."""
    tensor = answer(question.model_copy(update={"dp_attention": False}), kb)
    data = answer(question.model_copy(update={"dp_attention": True}), kb)
    tensor_bill, data_bill = _bill(tensor), _bill(data)
    if data_bill is None or (tensor_bill is not None and data_bill >= tensor_bill):
        return tensor
    data.assumptions.append(Assumption(field="dp_attention", value=True, reason=DP_ATTENTION_REASON))
    return data


__all__ = ["better_layout", "weighs_attention_layouts"]
