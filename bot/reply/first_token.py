"""A complaint that the first token comes slowly ("users complain about slow first token at 6k prompts. fix?"):
answered with the figure that explains it and the changes that shorten it.

The first token waits for the whole prompt's prefill, which is compute-bound: one prompt's time is its tokens over
the card's prefill rate, and prompts that arrive together queue behind each other on one replica. A memory "Yes"
alone does not answer it (audit 31 M-92).
"""

from __future__ import annotations

from bot.reply.formatting import gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from rules.hardware import runs_precision

QUEUED_PROMPTS = 4
"""Prompts arriving together that the line also times: the wait of the last of a small burst."""


def first_token_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """One prompt's prefill time on the cards sized, a small burst's, and what shortens it."""
    rate, context = answer.speed.get("prefill_tokens_per_s"), answer.query.context
    on = answer.speed_on
    gpu = kb.gpus.get(on.gpu) if on is not None else None
    if not answer.understood.get("slow_first_token") or not rate or not context or gpu is None or on is None:
        return ""
    check = answer.check
    if check is not None and (check.gpu, check.count) != (on.gpu, on.count):
        return ""  # the speed line is another set-up's: the cards complained about do not run the job as read
    alone = context / float(rate)
    changes = [t("first_token_prefix_cache")]
    if answer.query.precision in ("bf16", "fp16") and gpu.fp8_tflops and runs_precision(
            gpu, "fp8", answer.query.engine or "vllm"):  # FP8 tensor cores: weight-only FP8 would not speed prefill
        changes.append(t("first_token_fp8"))
    changes += [t("first_token_replica"), t("first_token_bigger_card")]
    return t("first_token", count=on.count, gpu=gpu_name(kb, gpu.id), context=f"{context:,}",
             s=f"{alone:,.1f}", rate=f"{float(rate):,.0f}", n=QUEUED_PROMPTS, burst=f"{alone * QUEUED_PROMPTS:,.1f}",
             changes=t.list_sep.join(changes))
