"""Two groups served together at different lengths ("8 analysts at 128k plus about 40 short chats").

A paged KV cache (vLLM, SGLang) holds each sequence at its own length, so the short group costs its own tokens,
not the long group's context. The rules size one context × one batch; the short group is therefore counted as the
sequences at the long context that hold as many tokens, rounded up, and the reply says so. Sizing all of them at
the long context overstates the cache (48 × 128k for 8 × 128k + 40 × 4k is 5× too much), and dropping them
understates it (audit 28 M-55).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.understand.question import MAX_BATCH, Question

CHAT_CONTEXT = 4096
"""Tokens a chat is sized at when its length is not said: the bot's default context for a conversation."""


@dataclass(frozen=True)
class SharedCache:
    """The long group, the short group and the batch at the long context whose KV cache holds both."""

    long_sequences: int
    long_context: int
    short_sequences: int
    short_context: int
    batch: int

    @property
    def cache_tokens(self) -> int:
        return self.long_sequences * self.long_context + self.short_sequences * self.short_context


def shared_cache(question: Question, context: int, batch: int) -> SharedCache | None:
    """The batch that holds a second, shorter group beside `batch` sequences at `context`, or None when the
    question names no second group (or is not served)."""
    extra = question.more_sequences
    if not extra or question.task not in (None, "inference"):
        return None
    short = question.more_sequences_context or min(CHAT_CONTEXT, context)
    equivalent = extra if short >= context else math.ceil(extra * short / context)
    return SharedCache(long_sequences=batch, long_context=context, short_sequences=extra,
                       short_context=min(short, context), batch=min(MAX_BATCH, batch + equivalent))


def shared_cache_notice(answer: Answer, t: Translator) -> str:
    """What the batch sized stands for when a second group was counted into it, or ""."""
    if not any(a.field == "batch" and a.reason == "shared-cache" for a in answer.assumptions):
        return ""
    long, short = answer.understood.get("batch"), answer.understood.get("more_sequences")
    context, batch = answer.query.context, answer.query.batch
    if not (isinstance(long, int) and isinstance(short, int) and context and batch):
        return ""
    stated = answer.understood.get("more_sequences_context")
    short_context = min(stated if isinstance(stated, int) else CHAT_CONTEXT, context)
    tokens = long * context + short * short_context
    return t("shared_cache", long=f"{long:,}", long_context=f"{context:,}", short=f"{short:,}",
             short_context=f"{short_context:,}", assumed="" if isinstance(stated, int) else t("shared_cache_assumed"),
             tokens=f"{tokens:,}", equivalent=f"{tokens / context:.3g}", batch=f"{batch:,}",
             everyone=f"{long + short:,}")


__all__ = ["CHAT_CONTEXT", "SharedCache", "shared_cache", "shared_cache_notice"]
