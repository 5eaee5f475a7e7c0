"""Several models deployed on the same cards ("Qwen3-Embedding-8B 和 Qwen3-Reranker-4B 一起部署在一张 A10"): each
runs in its own process, so the cards hold every model's weights, cache and working memory, plus one more CUDA
context per extra process.

The first model is sized by the ordinary pipeline; each other model is answered on its own with the same slots
(the same cards, context and batch), and the check is then redone for their sum, so the verdict is about the
deployment asked for, not about its first model alone.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.reply.formatting import gpu_name
from bot.reply.model import Answer, StackPartOut
from bot.reply.overrides import QUANT_PRECISION
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules import constants as C
from rules.types import Pick

Answerer = Callable[[Question, KnowledgeBase], Answer]


def reranks(model_id: str | None, kb: KnowledgeBase) -> bool:
    model = kb.models.get(model_id or "")
    return model is not None and bool(model.details.get("reranker"))


def texts_for(question: Question, model_id: str | None, kb: KnowledgeBase) -> Question:
    """The question as one model of the stack serves it: the passages reranked per query are the reranker's; the
    embedder beside it encodes the query alone (audit 26 HIGH 32: both had been sized for 30 texts a request)."""
    stack = [question.model, *question.stack_models]
    if not question.texts_per_request or reranks(model_id, kb) or not any(reranks(m, kb) for m in stack):
        return question
    return question.model_copy(update={"texts_per_request": None})


def others_alone(question: Question, kb: KnowledgeBase, answer: Answerer) -> list[StackPartOut]:
    """Each model deployed beside `question.model`, answered on its own with the same slots; [] for one model."""
    parts: list[StackPartOut] = []
    for model_id in question.stack_models:
        own = question.stack_formats.get(model_id)
        formats = ({"quant": own, "precision": QUANT_PRECISION.get(own)} if own
                   else {"quant": None, "precision": None} if question.stack_formats else {})
        model = kb.models.get(model_id)
        # an image model beside a fine-tune with its own rate ("LoRA Qwen2.5-32B and serve SDXL at 100 images a
        # minute") serves images: it is not fine-tuned with the first (audit 39 HIGH-122: sized as a LoRA, its rate
        # never weighed, and one 8-card box said to hold both)
        served = ({"task": "inference"} if model is not None and model.modality == "image-generation"
                  and question.images_per_minute and question.task not in (None, "inference") else {})
        alone = answer(texts_for(question, model_id, kb).model_copy(update={
            "model": model_id, "stack_models": [], "other_jobs": [], "stack_formats": {}, **formats, **served}), kb)
        if alone.estimate is not None:
            parts.append(_part(model_id, alone, kb))
    return parts


def beside_gib(others: list[StackPartOut]) -> float:
    """What the other models take on the card that runs them beside the first: their needs and one CUDA context
    each (the card's usable memory counts the first process's)."""
    return sum(p.per_gpu_gb for p in others) + C.CUDA_CONTEXT_GIB * len(others)


def room_for_others(picks: list[Pick], others: list[StackPartOut], *, keep_if_none: bool) -> list[Pick]:
    """The picks that also hold the other models on one of their cards, clear of the tight band. When none does:
    with no card named the picks as they are (the stack line says they hold the first model alone); beside a
    card named, none (its check, for the sum, says what is missing)."""
    if not others:
        return picks
    extra = beside_gib(others)
    roomy = [p for p in picks if p.fits and p.memory_per_gpu_gib + extra <= p.limit_gib * (1.0 - C.TIGHT_FRACTION)]
    return roomy or (picks if keep_if_none else [])


def with_stack(result: Answer, question: Question, kb: KnowledgeBase, others: list[StackPartOut]) -> Answer:
    """`result` with `stack` (each model's need per card) and, when the cards are named, the check redone for the
    models together; unchanged when no other model is deployed beside the first."""
    if not others or result.estimate is None or question.model is None:
        return result
    parts = [_part(question.model, result, kb), *others]
    result.stack = parts
    extra = beside_gib(others)
    result.stack_picks_checked = bool(result.picks) and all(
        p.memory_per_gpu_gb + extra <= p.limit_gb * (1.0 - C.TIGHT_FRACTION) for p in result.picks)
    if result.stack_picks_checked:
        # each pick's line is the card that also runs the other models: their memory is on it
        result.picks = [p.model_copy(update={"memory_per_gpu_gb": round(p.memory_per_gpu_gb + extra, 2),
                                             "headroom_gb": round(p.headroom_gb - extra, 2),
                                             "free_gb": round(max(0.0, p.free_gb - extra), 2)})
                        for p in result.picks]
    check = result.check
    if check is None or check.cards:
        return result
    together = check.memory_per_gpu_gb + beside_gib(others)
    limit = check.limit_gb or check.gpu_memory_gb
    fits = together <= limit and check.unsupported_precision is None and not check.split_invalid
    result.check = check.model_copy(update={
        "memory_per_gpu_gb": round(together, 1), "headroom_gb": round(limit - together, 1),
        "free_gb": round(max(0.0, limit - together), 1), "fits": fits,
        "tight": abs(limit - together) <= C.TIGHT_FRACTION * limit,
        # the first model's own fixes are not the deployment's: the stack line says what each model takes
        "suggestions": check.suggestions if fits else [],
    })
    return result


def _part(model_id: str, sized: Answer, kb: KnowledgeBase) -> StackPartOut:
    assert sized.estimate is not None
    need = sized.check.memory_per_gpu_gb if sized.check is not None else sized.estimate.per_gpu_gb
    model = kb.models.get(model_id)
    plan = sized.serving
    bill = sized.cost if plan is not None and sized.cost is not None and sized.cost.per_hour is not None else None
    return StackPartOut(model=model_id, name=model.name if model is not None else model_id,
                        per_gpu_gb=round(need, 1), engine=sized.query.engine,
                        serving_cards=plan.replicas * plan.gpus_per_replica if plan is not None else None,
                        serving_gpu=plan.gpu if plan is not None else None,
                        serving_gpu_name=gpu_name(kb, plan.gpu) if plan is not None else None,
                        serving_per_hour=bill.per_hour if bill is not None else None,
                        serving_currency=bill.currency if bill is not None else None)


def stack_bill(answer: Answer) -> tuple[list[StackPartOut], float, str] | None:
    """(the models, their bill an hour, its currency) when each model deployed together has its own serving plan
    for the load asked, priced in one currency, and one of them needs more cards than the first model's plan: the
    plan and bill of the reply are the first model's, and 13 L40S reranking 600 passages a second were left out of
    a month priced at one L40S (audit 26 HIGH 32)."""
    parts = answer.stack
    if len(parts) < 2 or any(p.serving_cards is None or p.serving_per_hour is None for p in parts):
        return None
    currencies = {p.serving_currency for p in parts}
    if len(currencies) != 1 or all(p.serving_cards == parts[0].serving_cards for p in parts):
        return None
    return list(parts), sum(p.serving_per_hour or 0.0 for p in parts), currencies.pop() or ""


def short_of_load(answer: Answer) -> list[StackPartOut]:
    """The models deployed together whose own load, asked at the rate, takes more of the card than the cards
    checked: one L40S holds an embedder and a reranker, but 30 passages reranked for each of 20 queries a second
    take 13 of them (audit 26 HIGH 32)."""
    check = answer.check
    if check is None or not answer.stack:
        return []
    return [p for p in answer.stack if p.serving_cards and p.serving_gpu == check.gpu
            and p.serving_cards > check.count]
