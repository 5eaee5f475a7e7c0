"""A question about cards of different kinds run as one machine ("a 3090 and a 3060", "4090 + 3090")."""

from __future__ import annotations

import rules
from bot.reply.convert import suggestion_out
from bot.reply.model import CardFitOut, CheckOut
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules.fit import free_gib
from rules.types import Workload


def mixed_cards(question: Question, kb: KnowledgeBase) -> list[GPU] | None:
    """The cards of the set, one per card, when the question names cards of two kinds or more."""
    if len(set(question.gpu_set)) < 2 or any(card not in kb.gpus for card in question.gpu_set):
        return None
    return [kb.gpus[card] for card in question.gpu_set]


def mixed_check_out(workload: Workload, cards: list[GPU],
                    reserve_fraction: float | None) -> tuple[CheckOut, float | None]:
    """The check of a set (every card's share and room, the verdict about the card with the least room) and,
    when the job fits, the set's decode tokens/s per sequence."""
    fit = rules.check_mixed(workload, cards)
    offered = rules.mixed_alternatives(workload, cards) if not fit.fits or fit.tight else []
    decode = rules.mixed_decode_tokens_per_s(workload, cards, fit) if fit.fits else None
    worst = fit.cards[fit.governing]
    card = cards[fit.governing]
    check = CheckOut(
        gpu=card.id, count=len(cards), fits=fit.fits, headroom_gb=round(worst.limit_gib - worst.need_gib, 2),
        memory_per_gpu_gb=round(worst.need_gib, 2), gpu_memory_gb=round(card.memory_gb, 2),
        free_gb=round(free_gib(workload, card) - worst.need_gib, 2), limit_gb=round(worst.limit_gib, 2),
        tight=fit.tight, reserve_fraction=reserve_fraction,
        limit_basis="reservation" if reserve_fraction is not None else "usable",
        cards=[CardFitOut(gpu=c.gpu_id, needed_gb=round(c.need_gib, 2), limit_gb=round(c.limit_gib, 2),
                          layers=c.blocks) for c in fit.cards],
        split=fit.split, suggestions=[suggestion_out(s) for s in offered])
    return check, decode
