"""The one-line verdict under models (or formats, or training methods) compared on the same cards: which decodes
faster, which holds more sequences when that is asked, and, at different card counts, what a card holds."""

from __future__ import annotations

from bot.reply.compare_view import CLEARLY_FASTER
from bot.reply.formatting import format_label
from bot.reply.i18n import Translator
from bot.reply.labels import TASK_NAMES
from bot.reply.model import Answer, ModelCompareOut
from bot.reply.readback import engine_name
from knowledge.base import KnowledgeBase


def row_name(row: ModelCompareOut, kb: KnowledgeBase, t: Translator) -> str:
    """What a side-by-side row compares: its format, its training method, or its model."""
    if row.format and row.engine:
        return f"{format_label(row.format)} · {engine_name(row.engine)}"
    return (format_label(row.format) if row.format else t.pick(TASK_NAMES, row.task) if row.task
            else kb.models[row.model].name if row.model in kb.models else row.model)


def _per_card_verdict(rows: list[ModelCompareOut], kb: KnowledgeBase, t: Translator) -> str:
    """Set-ups of one card at different counts ("NVFP4 on 4× B200 or FP8 on 8×"): the sequences a card holds, which
    is what the same machines serve, beside the speed (audit 28 M-48)."""
    if not all(r.max_concurrent_sequences and r.count for r in rows):
        return ""
    per_card = sorted(rows, key=lambda r: (r.max_concurrent_sequences or 0) / (r.count or 1), reverse=True)
    best, next_best = per_card[0], per_card[1]
    ratio = ((best.max_concurrent_sequences or 0) / (best.count or 1)) / max(
        1e-9, (next_best.max_concurrent_sequences or 0) / (next_best.count or 1))
    speeds = sorted(rows, key=lambda r: r.decode_tokens_per_s or 0.0, reverse=True)
    fast = (speeds[0].decode_tokens_per_s or 0.0) / (speeds[1].decode_tokens_per_s or 1.0)
    speed = (t("compare_faster", name=row_name(speeds[0], kb, t), ratio=f"{fast:.1f}") if fast > CLEARLY_FASTER
             else t("compare_as_fast"))
    holds = t("compare_per_card", name=row_name(best, kb, t), ratio=f"{ratio:.1f}",
              a=f"{best.max_concurrent_sequences:,}", n=f"{best.count}", b=f"{next_best.max_concurrent_sequences:,}",
              m=f"{next_best.count}", other=row_name(next_best, kb, t))
    return t("compare_verdict", clauses=t.clause_sep.join((speed, holds)))


def faster_of(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Which of the models (or formats) compared on the same cards decodes faster, said in one line: the rows
    alone ("~24 tok/s" beside "~22 tok/s") left "which one is faster?" to the reader (audit 27 LOW-76)."""
    rows = [r for r in answer.model_compare if r.fits and r.decode_tokens_per_s and r.gpu]
    if len(rows) < 2 or len(rows) != len(answer.model_compare) or len({r.gpu for r in rows}) != 1:
        return ""
    if len({r.count for r in rows}) != 1:
        return _per_card_verdict(rows, kb, t)
    ranked = sorted(rows, key=lambda r: r.decode_tokens_per_s or 0.0, reverse=True)
    first, second = ranked[0], ranked[1]
    name = row_name(first, kb, t)
    ratio = (first.decode_tokens_per_s or 0.0) / (second.decode_tokens_per_s or 1.0)
    clause = (t("compare_faster", name=name, ratio=f"{ratio:.1f}") if ratio > CLEARLY_FASTER
              else t("compare_as_fast"))
    held = [r.max_concurrent_sequences or 0 for r in ranked]
    if answer.understood.get("asks_concurrency") and all(held):
        # "which holds more concurrent users": the sequences each holds on the same cards first (audit 28 M-53)
        most = max(ranked, key=lambda r: r.max_concurrent_sequences or 0)
        holds = (t("compare_holds_same", n=f"{held[0]:,}") if len(set(held)) == 1
                 else t("compare_holds_more", name=row_name(most, kb, t), n=f"{max(held):,}"))
        clause = t.clause_sep.join((holds, clause))
    return t("compare_verdict", clauses=clause)


__all__ = ["faster_of", "row_name"]
