"""A 16-bit job that takes many of the card named, beside the 8- or 4-bit path on fewer of them.

"Llama-3.1-70B on RTX 4090s, 20 tok/s each for 3 users: how many cards?" was answered 8 cards in bf16 alone,
though the same reply, asked with "AWQ", says 4 (audit 29 LOW-111). Whoever buys consumer cards by the
handful wants to know that halving them costs some quality, not speed: the line says what FP8 (on cards with FP8
tensor cores, at almost no loss) or else 4 bits take on the same card, when no precision was stated and it halves
the count at least.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.reply.formatting import gb, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.schema import InstanceFamily
from rules.constants import TP_DEGREES
from rules.fit import pick_at
from rules.hardware import runs_precision
from rules.types import Pick, Precision, Workload

FEWEST_CARDS_FOR_THE_PATH = 4
"""From this many of the card named a 4-bit path is said beside the 16-bit answer (two 24 GB cards for a 32B in
bf16 is an ordinary set-up; four or more is where people ask whether they must buy them)."""


def quantised_path_figure(question: Question, workload: Workload, picks: list[Pick], kb: KnowledgeBase,
                          instances: list[InstanceFamily]) -> dict[str, Any] | None:
    """{gpu, count, quant, per_gpu_gb, decode_tokens_per_s, sixteen_bit_count} for the 4-bit job on the card named
    when it takes half the cards or fewer; None otherwise."""
    gpu = kb.gpus.get(question.gpu or "")
    if (workload.task != "inference" or "precision" in question.stated or "quant" in question.stated
            or "gpu_count" in question.stated or workload.precision not in ("bf16", "fp16")
            or workload.model.native_precision not in ("bf16", "fp16", "fp32")):
        return None
    fewest = FEWEST_CARDS_FOR_THE_PATH
    if gpu is None and question.intent == "recommend" and question.memory_gb is None:
        # no card named: the first pick that takes several cards, halved in 8 or 4 bits (audit 36 M-140: Falcon-40B
        # got 16-bit picks only, though in 8 bits one 48 GB card holds it)
        first = next((p for p in picks if p.fits and p.count >= 2), None)
        gpu = kb.gpus.get(first.gpu_id) if first is not None else None
        fewest = 2
    else:
        first = picks[0] if picks else None
    if gpu is None or first is None or first.gpu_id != gpu.id or not first.fits or first.count < fewest:
        return None
    formats: list[tuple[Precision, str | None]] = [("int4", "gguf-q4_k_m" if workload.engine == "llama.cpp" else "awq")]
    if workload.engine != "llama.cpp":
        formats.insert(0, ("int8", "gptq-int8"))  # 8 bits at well under 1% loss, before 4 bits
    if gpu.fp8_tflops and workload.engine != "llama.cpp" and runs_precision(gpu, "fp8", workload.engine):
        formats.insert(0, ("fp8", None))  # FP8 tensor cores: 8 bits at almost no loss, where they halve the count
    for precision, quant in formats:
        smaller = replace(workload, precision=precision, quant=quant)
        # the fewest that hold it with room: a tight fit (22.2 of 22.4 GiB) is no plan to buy cards by
        pick = next((p for n in TP_DEGREES if n <= first.count // 2
                     if (p := pick_at(smaller, gpu, n, instances)) is not None and not p.tight), None)
        if pick is not None:
            break
    else:
        return None
    quant = quant or precision
    return {"gpu": gpu.id, "count": pick.count, "quant": quant, "per_gpu_gb": round(pick.memory_per_gpu_gib, 1),
            "decode_tokens_per_s": pick.decode_tokens_per_s, "sixteen_bit_count": first.count}


def quantised_path_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    figure = answer.quantised_path
    if not figure:
        return ""
    speed = (t("quantised_path_speed", v=f"{figure['decode_tokens_per_s']:.0f}")
             if figure.get("decode_tokens_per_s") else "")
    key = ("quantised_path_fp8" if figure["quant"] == "fp8" else "quantised_path_int8"
           if figure["quant"] == "gptq-int8" else "quantised_path")
    return t(key, cards=f"{figure['count']}× {gpu_name(kb, figure['gpu'])}", quant=QUANT_NAMES[figure["quant"]],
             gb=gb(figure["per_gpu_gb"]), speed=speed, sixteen=figure["sixteen_bit_count"])


QUANT_NAMES = {"awq": "AWQ", "gguf-q4_k_m": "Q4_K_M", "fp8": "FP8", "gptq-int8": "GPTQ-Int8"}


__all__ = ["quantised_path_figure", "quantised_path_line"]
