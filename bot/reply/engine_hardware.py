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

ENGINES_ON_OTHER_MAKERS = ("vllm", "llama.cpp")
"""The engines a job is sized with, first that runs, when the one asked for cannot run on the card's maker: vLLM
(NVIDIA, AMD, Intel, Ascend), else llama.cpp (a Mac's GPU through Metal)."""
APPLE = "Apple"
"""A Mac's maker: its GPU is the machine's unified memory (Question.unified_memory), not a card in the list."""


def runs_on(engine: str, vendor: str) -> bool:
    """Whether the engine runs on the maker's GPUs (a card known only by its memory has none to check)."""
    profile = load_engine_profiles().get(engine)
    if profile is None or profile.hardware is None or vendor == "generic":
        return True
    return vendor.lower() in {maker.lower() for maker in profile.hardware.vendors}


def engine_for_card(question: Question, gpu: GPU | None) -> Question | None:
    """The question with an engine the card runs, when the one asked for cannot run on it; None when it can."""
    vendor = APPLE if question.unified_memory else gpu.vendor if gpu is not None else None
    if vendor is None or question.engine is None or question.engine_not_on_card or runs_on(question.engine, vendor):
        return None
    fallback = next((engine for engine in ENGINES_ON_OTHER_MAKERS if runs_on(engine, vendor)), None)
    if fallback is None:
        return None
    return question.model_copy(update={"engine": fallback, "engine_version": None,
                                       "notes": [*question.notes, f"{ENGINE_NOT_ON_CARD_NOTE}{question.engine}"]})
