"""What Ollama does by itself that changes the memory: the context it starts a model at, by the machine's VRAM in
all, and the model families it runs with flash attention."""

from __future__ import annotations

from bot.understand.question import Question
from knowledge.schema import GPU, Model
from rules.hardware import visible_gib

OLLAMA_FLASH_ATTENTION_FAMILIES = frozenset({"gpt-oss", "Qwen3", "Gemma 3"})
"""Model families Ollama runs with flash attention unless told otherwise; for the others it stays off until
OLLAMA_FLASH_ATTENTION=1 (llama.cpp itself now chooses it automatically). Ollama enabled it by default per
architecture: gpt-oss (ollama/ollama PR 11996, Aug 2025), qwen3 and qwen3moe (PR 12482), gemma3 (PR 12639),
qwen3vl (PR 12862); its PR 13448 (Dec 2025) to enable it for every supporting model was closed, and issue 8335
(still open in April 2026) asks for it as the default. Without it llama.cpp holds an fp32 KQ over the whole
cache per layer (rules.constants.GGML_KQ_BYTES_PER_SCORE): 2 GiB for an 8B model at 32k."""

OLLAMA_CONTEXT_TIERS: tuple[tuple[float, int], ...] = ((47.0, 262_144), (23.0, 32_768), (0.0, 4_096))
"""Ollama's default num_ctx by the machine's total VRAM in GiB, since 0.15.5 (2026-02-03): ollama/ollama
server/routes.go sums every GPU's total memory and sets 262,144 from 47 GiB, 32,768 from 23 GiB, else 4,096
("slightly lower thresholds (47/23 GiB vs. 48/24 GiB)"); llm/server.go then caps it at the model's training
context ("requested context size too large for model"). Before 0.15.5 it was 4,096 (2,048 before 0.6)."""


def machine_vram_gib(question: Question, gpu: GPU | None, cards: list[GPU] | None) -> float | None:
    """The VRAM the question's machine has in all, as CUDA reports it: every card of a set of different cards
    (`cards`), else the named card (or memory) times its count; None when no card is named."""
    if cards:
        return sum(visible_gib(card) for card in cards)
    if gpu is None:
        return None
    return visible_gib(gpu) * (question.gpu_count or 1)


def ollama_context(model: Model, vram_gib: float) -> int:
    """The context Ollama runs a model at when the question does not set one (OLLAMA_CONTEXT_TIERS)."""
    tier = next(context for floor, context in OLLAMA_CONTEXT_TIERS if vram_gib >= floor)
    return min(tier, model.max_context) if model.max_context else tier


__all__ = ["OLLAMA_CONTEXT_TIERS", "OLLAMA_FLASH_ATTENTION_FAMILIES", "machine_vram_gib", "ollama_context"]
