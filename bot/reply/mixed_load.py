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


def groups(first: int, first_context: int, second: int, second_context: int | None) -> SharedCache:
    """Two groups at their lengths (the second at a chat's length when unsaid, never longer than the first then)
    as the batch at the longer length whose KV cache holds both: the longer group may come first or second
    ("20 users at 8k and 5 users at 32k" is sized at 32,768, audit 29 HIGH 57)."""
    second_context = second_context or min(CHAT_CONTEXT, first_context)
    if second_context > first_context:
        long, long_context, short, short_context = second, second_context, first, first_context
    else:
        long, long_context, short, short_context = first, first_context, second, second_context
    equivalent = short if short_context >= long_context else math.ceil(short * short_context / long_context)
    return SharedCache(long_sequences=long, long_context=long_context, short_sequences=short,
                       short_context=short_context, batch=min(MAX_BATCH, long + equivalent))


def shared_cache(question: Question, context: int, batch: int) -> SharedCache | None:
    """The batch, at the longer of the two lengths, that holds a second group beside `batch` sequences at
    `context`, or None when the question names no second group (or is not served)."""
    if not question.more_sequences or question.task not in (None, "inference"):
        return None
    return groups(batch, context, question.more_sequences, question.more_sequences_context)


def shared_cache_notice(answer: Answer, t: Translator) -> str:
    """What the batch sized stands for when a second group was counted into it, or ""."""
    if not any(a.field == "batch" and a.reason == "shared-cache" for a in answer.assumptions):
        return ""
    first, second = answer.understood.get("batch"), answer.understood.get("more_sequences")
    if not (isinstance(first, int) and isinstance(second, int) and answer.query.context and answer.query.batch):
        return ""
    stated = answer.understood.get("more_sequences_context")
    first_context = answer.understood.get("context")
    shared = groups(first, first_context if isinstance(first_context, int) else answer.query.context, second,
                    stated if isinstance(stated, int) else None)
    long, short = ((shared.long_sequences, shared.long_context), (shared.short_sequences, shared.short_context))
    unsaid = not isinstance(stated, int) and short == (second, shared.short_context)
    return t("shared_cache", long=f"{long[0]:,}", long_context=f"{long[1]:,}", short=f"{short[0]:,}",
             short_context=f"{short[1]:,}", assumed=t("shared_cache_assumed") if unsaid else "",
             tokens=f"{shared.cache_tokens:,}", equivalent=f"{shared.cache_tokens / long[1]:.3g}",
             batch=f"{answer.query.batch:,}", everyone=f"{first + second:,}")


__all__ = ["CHAT_CONTEXT", "SharedCache", "groups", "shared_cache", "shared_cache_notice"]
