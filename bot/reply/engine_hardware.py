"""An engine named with a card it cannot run on: TensorRT-LLM on a Radeon or an Arc.

A memory figure for an engine that cannot start on the card is no answer, and a "Yes" built on it is wrong. The
job is sized instead with the engine people run on that maker's cards (vLLM, which runs on NVIDIA, AMD's ROCm and
Intel's XPU), and the reply says why (bot.reply.notices). Which makers an engine runs on is the engine profile's
`hardware` fact, sourced from its own documentation; an engine without one is not restricted.
"""

from __future__ import annotations

from bot.understand.question import ENGINE_NOT_ON_CARD_NOTE, Question
from knowledge.engines import load_engine_profiles
from knowledge.schema import GPU

ENGINE_ON_OTHER_MAKERS = "vllm"
"""The engine a job is sized with when the one asked for cannot run on the card's maker."""


def runs_on(engine: str, gpu: GPU) -> bool:
    """Whether the engine runs on the card's maker (a card known only by its memory has none to check)."""
    profile = load_engine_profiles().get(engine)
    if profile is None or profile.hardware is None or gpu.vendor == "generic":
        return True
    return gpu.vendor.lower() in {vendor.lower() for vendor in profile.hardware.vendors}


def engine_for_card(question: Question, gpu: GPU | None) -> Question | None:
    """The question with an engine the card runs, when the one asked for cannot run on it; None when it can."""
    if gpu is None or question.engine is None or question.engine_not_on_card or runs_on(question.engine, gpu):
        return None
    if not runs_on(ENGINE_ON_OTHER_MAKERS, gpu):
        return None
    return question.model_copy(update={"engine": ENGINE_ON_OTHER_MAKERS, "engine_version": None,
                                       "notes": [*question.notes, f"{ENGINE_NOT_ON_CARD_NOTE}{question.engine}"]})
