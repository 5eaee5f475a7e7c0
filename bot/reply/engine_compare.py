"""Serving engines set side by side on the cards sized ("TensorRT-LLM vs vLLM for Qwen2.5-72B on 4× H100 —
which gives more tokens/s?"): each engine's memory a card and its decode at the load asked, by the same rules as
the reply's own figure, so a question that weighs two engines is not answered for the first alone (audit 34
HIGH 96)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast, get_args

import rules
from bot.reply.convert import finite
from bot.reply.formatting import gb
from bot.reply.i18n import Translator
from bot.reply.readback import engine_name
from bot.reply.request_pace import sequences_held
from bot.reply.serving import engine_sequence_cap
from bot.understand.question import Question
from knowledge.schema import GPU
from rules.engine_profile import UnsupportedKVCache
from rules.fit import as_chosen
from rules.limits import limit_gib
from rules.types import Engine, Workload

ENGINES = frozenset(get_args(Engine))


def engines_compared(question: Question, workload: Workload, count: int, gpu: GPU | None) -> list[dict[str, Any]]:
    """One figure per engine the question weighs: memory a card, whether it fits, and the decode per sequence and
    in all at the sequences asked (with none asked, at the most each engine holds and batches: a throughput
    question is about full load). Empty unless two or more engines can be sized."""
    if len(question.compare_engines) < 2 or gpu is None or workload.task != "inference":
        return []
    asked = question.users or question.batch
    figures: list[dict[str, Any]] = []
    for engine in question.compare_engines:
        if engine not in ENGINES:
            continue
        on = replace(workload, engine=cast(Engine, engine))
        if not rules.runs_model_code(on):
            continue
        try:
            estimate = rules.estimate_memory(on, count, gpu)
        except UnsupportedKVCache:
            continue
        need = estimate.required_per_gpu_gib or estimate.per_gpu_gib
        figure: dict[str, Any] = {"engine": engine, "gpu": gpu.id, "count": count, "per_gpu_gb": round(need, 2),
                                  "fits": need <= limit_gib(on, gpu)}
        load = asked or min(sequences_held(on, gpu, count), engine_sequence_cap(on, gpu, count))
        if figure["fits"] and load and rules.compute_known(gpu):
            timed = replace(as_chosen(on, estimate.chosen), batch=max(1, on.batch if asked else int(load)))
            speed = rules.estimate_speed(timed, gpu, count)
            figure.update(sequences=timed.batch, decode_tokens_per_s=finite(speed.decode_tokens_per_s, 1),
                          aggregate_tokens_per_s=finite(speed.aggregate_tokens_per_s, 1))
        figures.append(figure)
    return figures if len(figures) >= 2 else []


LEVEL_SHARE = 0.05
"""Throughputs within this share of each other are called level: the engines' speed constants
(rules.speed_constants.DECODE_BANDWIDTH_EFFICIENCY, DECODE_STEP_OVERHEAD_S) are set from published orderings, not
fitted per engine, so a smaller gap is not a finding."""


def engines_compared_text(figures: list[dict[str, Any]], count: int, gpu_name: str, t: Translator) -> str:
    """The side-by-side lines and which engine gives more tokens a second, or that the two are level."""
    rows = [t("engines_compared_head", count=count, gpu=gpu_name)]
    for figure in figures:
        name, need = engine_name(figure["engine"]), gb(figure["per_gpu_gb"])
        if not figure["fits"]:
            rows.append(t("engines_compared_no_fit", engine=name, gb=need))
        elif figure.get("aggregate_tokens_per_s"):
            rows.append(t("engines_compared_row", engine=name, gb=need, n=f"{figure['sequences']:,}",
                          decode=f"{figure['decode_tokens_per_s']:,.0f}",
                          total=f"{figure['aggregate_tokens_per_s']:,.0f}"))
        else:
            rows.append(t("engines_compared_memory", engine=name, gb=need))
    timed = sorted((f for f in figures if f.get("aggregate_tokens_per_s")),
                   key=lambda f: -float(f["aggregate_tokens_per_s"]))
    if len(timed) >= 2:
        best, other = timed[0], timed[-1]
        ratio = float(best["aggregate_tokens_per_s"]) / max(1e-9, float(other["aggregate_tokens_per_s"]))
        rows.append(t("engines_compared_level", pct=f"{100 * (ratio - 1):.0f}") if ratio - 1 <= LEVEL_SHARE
                    else t("engines_compared_faster", faster=engine_name(best["engine"]),
                           slower=engine_name(other["engine"]), times=f"{ratio:.2f}"))
    return "\n".join(rows)
