"""The model a question is sized on: the one it names, or a generic model of the size it states.

"A 70B model" or "a 314B MoE with 86B active" names no model the knowledge base holds; the reply still sizes it,
on a generic decoder of that size (rules.generic_model), and a mixture of experts known only by its sizes needs
a routing to stand in for its own. Kept apart from the workload defaults, which start from the model this picks.
"""

from __future__ import annotations

import rules
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import Model, MoE


def resolve_model(question: Question, kb: KnowledgeBase) -> Model | None:
    if question.model is not None:
        return kb.models.get(question.model)
    if question.params_b is not None:
        generic = rules.generic_model(question.params_b)
        active = question.active_params_b
        if active is not None and active < question.params_b:
            # "a 314B MoE with 86B active": every expert in memory, the active ones a token computes and reads
            # (rules.speed.routed_expert_params takes the routed share from the counts when no width is known)
            generic = generic.model_copy(update={
                "moe": MoE(num_experts=GENERIC_EXPERTS, experts_per_token=GENERIC_EXPERTS_PER_TOKEN),
                "active_params_b": active, "name": f"{generic.name.removesuffix(' decoder')} MoE decoder "
                                                  f"({active:g}B active)"})
        return generic
    return None


GENERIC_EXPERTS = 8
GENERIC_EXPERTS_PER_TOKEN = 2
"""A mixture of experts known only by its sizes is taken to route 2 of 8 experts (Mixtral 8x7B and 8x22B, Grok-1):
only which share of the experts a batch reaches depends on it; the active count stated sets each token's work."""
