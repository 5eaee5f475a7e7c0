"""What a serving engine's own flags, as written, mean for the job ("… --gpu-memory-utilization 0.95
--max-num-seqs 128 … is 0.95 safe?").

A command pasted with the question is the set-up asked about: the reply said the memory fits and how many 32k
requests the cache holds, but not whether 0.95 leaves room, nor that 128 admitted requests are many more than the
cache holds (audit 30 LOW-126).
"""

from __future__ import annotations

from bot.reply.formatting import gb, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from rules.hardware import visible_gib

HIGH_MEMORY_FRACTION = 0.93
"""A --gpu-memory-utilization from which the reply says what the share left outside the engine's pool is (vLLM's
default is 0.90)."""


def engine_flags_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The memory a high utilisation leaves outside the pool, and a request cap beyond the sequences the cache
    holds; "" when the flags say neither."""
    query = answer.query
    if query.engine not in ("vllm", "sglang") or not answer.picks:
        return ""
    top = answer.picks[0]
    card = kb.gpus.get(top.gpu)
    parts = []
    fraction = answer.understood.get("memory_fraction")  # as written, not the engine's default
    if card is not None and isinstance(fraction, (int, float)) and HIGH_MEMORY_FRACTION <= fraction < 1.0:
        left = visible_gib(card) * (1.0 - fraction)
        parts.append(t("flag_memory_left", fraction=f"{fraction:g}", left=gb(left), gpu=gpu_name(kb, card.id)))
    held, cap = top.max_concurrent_sequences, answer.understood.get("max_num_seqs")
    if isinstance(cap, int) and held and cap > held:
        parts.append(t("flag_seqs_beyond_cache", cap=f"{cap:,}", held=f"{held:,}",
                       context=f"{query.context or 0:,}"))
    return t.sentence_gap.join(parts)


__all__ = ["engine_flags_line"]
