"""Cards compared side by side ("4090 vs A6000 for 70B AWQ"): each card's figures and fit, then which to pick."""

from __future__ import annotations

from typing import Any

from bot.reply.check_view import suggestion_label
from bot.reply.cost_view import money
from bot.reply.formatting import billed_hours, count, gb, per_hour, per_minute, tokens_per_work_unit
from bot.reply.i18n import Translator
from bot.reply.model import Answer, PickOut
from knowledge.base import KnowledgeBase
from rules.constants import HEADROOM_FRACTION, HOURS_PER_MONTH
from rules.hardware import compute_known, dense_tflops
from rules.speed_constants import UNLISTED_COMPUTE_DECODE_BATCH

CLEARLY_FASTER = 1.15
"""A set-up this much faster than the next is called the faster one; closer, they are "about as fast" (the speed
rules' own error is larger than the gap)."""


def compare_rows(answer: Answer, kb: KnowledgeBase, t: Translator) -> list[dict[str, Any]]:
    """The cards compared, in the order named: their figures and how each holds the job."""
    by_gpu = {p.gpu: p for p in answer.picks}
    rows = []
    for gpu_id in answer.compare:
        gpu = kb.gpus.get(gpu_id)
        if gpu is None:
            continue
        pick = by_gpu.get(gpu_id)
        fit = None
        if pick is not None:
            laid = (f"{pick.count}× ({t('replicas_cell', n=pick.replicas, per=pick.count // pick.replicas)})"
                    if pick.replicas and pick.replicas > 1 else f"{pick.count}×")
            fit = (f"{laid} — {gb(pick.memory_per_gpu_gb)} GiB {t.used}" + _little_room(pick, t)
                   + (f", ~{count(pick.decode_tokens_per_s)} {t.tok_s}" if pick.decode_tokens_per_s else "")
                   if pick.fits else
                   f"{pick.count}× — {t.does_not_fit}: {t('needs', gb=gb(pick.memory_per_gpu_gb))}"
                   + _fix_text(answer, pick, kb, t))
            if pick.fits and pick.work_tokens_per_s and not pick.decode_tokens_per_s:
                fit += " · " + t("train_speed", v=count(pick.work_tokens_per_s))
            if pick.fits and pick.seconds_per_image:
                fit += " · " + t("seconds_per_image_plain", v=f"{pick.seconds_per_image:.1f}",
                                 per_minute=per_minute(pick.seconds_per_image),
                                 per_hour=per_hour(pick.seconds_per_image))
            if pick.fits and pick.job_hours is not None:
                fit += " · " + t("compare_job", hours=billed_hours(pick.job_hours),
                                 total=(" · " + t("compare_job_cost", v=money(pick.job_cost), cur=pick.price_currency))
                                 if pick.job_cost is not None and pick.price_currency else "")
            if _at_load(answer) and pick.fits and pick.price_per_hour and pick.price_currency:
                # the bill for the load asked, the figure "每月各要多少钱" asks for (audit 26 M-33)
                fit += " · " + t("compare_bill", per_hour=money(pick.price_per_hour), cur=pick.price_currency,
                                 per_month=money(pick.price_per_hour * HOURS_PER_MONTH))
            if pick.work_cost is not None and pick.price_currency:
                unit = _work_unit(answer, pick)
                fit += " · " + t(f"{unit}_short", v=money(pick.work_cost), cur=pick.price_currency)
                if unit == "cost_per_million" and pick.work_tokens_per_s:
                    # the load it is priced at, which the cost block's batch-1 figure below may not share
                    capped = not compute_known(gpu)
                    fit += t.sentence_gap + t(
                        "priced_at_rate_capped" if capped else "priced_at_rate", v=count(pick.work_tokens_per_s),
                        n=UNLISTED_COMPUTE_DECODE_BATCH)
        rows.append({"name": gpu.name.removeprefix("NVIDIA "), "memory": gb(gpu.memory_gb),
                     "bandwidth": f"{gpu.bandwidth_gbps:,.0f}",
                     **_peak(gpu, answer.query.precision), "fit": fit})
    return rows


def _little_room(pick: PickOut, t: Translator) -> str:
    """A fit with less than the recommended headroom, said beside its figure: side by side, 22.4 GiB used of a
    4090's 23.5 read as roomy as the A100's (audit 38 LOW-215)."""
    limit = pick.memory_per_gpu_gb + pick.headroom_gb
    if pick.tight:
        return f" ({t.tight})"
    if limit > 0 and pick.headroom_gb < HEADROOM_FRACTION * limit:
        return " " + t("compare_little_room", gb=gb(max(0.0, pick.headroom_gb)))
    return ""


def _peak(gpu: Any, precision: str | None) -> dict[str, str | None]:
    """The dense tensor peak the job computes at on the card, with its dtype: a GeForce card's bf16 (fp32-
    accumulate) figure for training and weight-only formats, not the fp16-accumulate one its datasheet leads
    with (a 4090 beside an A100 is 165 against 312, not 330 against 312)."""
    dtype = {"fp16": "fp16", "fp8": "fp8", "fp32": "fp32"}.get(precision or "", "bf16")
    if dtype == "fp8" and not gpu.fp8_tflops:
        dtype = "bf16"  # no FP8 tensor cores (an A100): FP8 weights compute at its 16-bit peak, labelled so
    if dtype == "bf16" and not gpu.bf16_tflops:
        dtype = "fp16"
    peak = dense_tflops(gpu, dtype)
    return {"peak": f"{peak:g}" if peak else None, "peak_dtype": dtype}


def _rate(pick: PickOut) -> float | None:
    """Work a second, higher is better: the job an hour when it has a total (an encoder's documents have no
    decode rate), else tokens decoded or trained, or images."""
    if pick.job_hours:
        return 1.0 / pick.job_hours
    if pick.decode_tokens_per_s:
        return pick.decode_tokens_per_s
    if pick.work_tokens_per_s:
        return pick.work_tokens_per_s
    return 1.0 / pick.seconds_per_image if pick.seconds_per_image else None


_QUANTISED_BITS = {"fp8": 8, "int8": 8, "int4": 4, "mxfp4": 4}


def _change_size(pick: PickOut) -> float | None:
    """How much a set-up's fix gives up, smaller is lighter: a load or runtime switch (0-1), then the fewer bits
    the weights are quantised to; None without a fix."""
    fix = pick.fix
    if fix is None or fix.memory_per_gpu_gb is None:
        return None
    if fix.kind == "quantise":
        return 2 + (16 - _QUANTISED_BITS.get(fix.precision or "", 4)) / 16
    return 1.0 if fix.kind in ("smaller-batch", "shorter-context", "fewer-requests") else 0.5


def _lighter_fix(answer: Answer, kb: KnowledgeBase, t: Translator, rows: list[tuple[str, PickOut]]) -> str:
    """None of the set-ups holds the job as asked: the one whose change to hold it gives up least, named with that
    change, so "A100 40GB or L40S?" still gets an answer (audit 32 M-106: "none of these holds the job" and
    nothing more). Empty when the changes weigh the same or a set-up has none."""
    sized = [(size, name, p) for name, p in rows if (size := _change_size(p)) is not None]
    if len(sized) < 2 or len(sized) < len(rows):
        return ""
    sized.sort(key=lambda row: row[0])
    if sized[0][0] == sized[1][0]:
        return ""
    _, name, pick = sized[0]
    assert pick.fix is not None
    label = suggestion_label(t, kb, pick.fix, answer.query.engine, answer.query.engine_version, answer.query.model)
    return t("compare_lighter_fix", name=f"{pick.count}× {name}", fix=label)


def compare_verdict(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Which of the set-ups compared to pick: the ones that hold the job, the faster (when clearly so), the
    cheaper per unit of work (when priced in one currency) and the roomier."""
    by_gpu = {p.gpu: p for p in answer.picks}
    rows = [(kb.gpus[g].name.removeprefix("NVIDIA "), by_gpu[g]) for g in answer.compare
            if g in kb.gpus and g in by_gpu]
    if len(rows) < 2:
        return ""
    fitting = [(f"{p.count}× {name}", p) for name, p in rows if p.fits]
    if not fitting:
        unpriced = [name for name, p in rows if p.price_per_hour is None]
        if unpriced and (answer.understood.get("budget") or answer.query.budget):
            # "跟一張 H200 比哪個划算？" with none holding the job as asked: which has no price is still said
            # (audit 28 LOW-95), so the fixes above are weighed knowing it
            zh = t.lang != "en"
            return (t("compare_none_fits").rstrip("。.") + t.clause_sep
                    + t("compare_only_one_unpriced", name=t.list_sep.join(unpriced)) + ("。" if zh else "."))
        return _lighter_fix(answer, kb, t, rows) or t("compare_none_fits")
    if len(fitting) == 1:
        only = t("compare_only_one", name=fitting[0][0])
        if fitting[0][1].price_per_hour is None:
            # "哪个总成本更低？" when the one set that holds the job has no public price: said, not silent (M-26)
            zh = t.lang != "en"
            only = (only.rstrip("。.") + t.clause_sep + t("compare_only_one_unpriced", name=fitting[0][0])
                    + ("。" if zh else "."))
        return only
    clauses = []
    rated = sorted(((rate, name) for name, p in fitting if (rate := _rate(p))), reverse=True)
    if len(rated) >= 2:
        clauses.append(t("compare_faster", name=rated[0][1], ratio=f"{rated[0][0] / rated[1][0]:.1f}")
                       if rated[0][0] > CLEARLY_FASTER * rated[1][0] else t("compare_as_fast"))
    served = sorted(((answer.compare_serving_speeds[p.gpu], name) for name, p in fitting
                     if p.gpu in answer.compare_serving_speeds), reverse=True)
    if len(served) >= 2 and served[1][0]:
        clauses.append(t("compare_faster_served", name=served[0][1], ratio=f"{served[0][0] / served[1][0]:.1f}",
                         fast=f"{served[0][0]:,.0f}", slow=f"{served[1][0]:,.0f}"))
    totals = [(p.job_cost, name, p) for name, p in fitting if p.job_cost is not None]
    if len(totals) >= 2 and len({p.price_currency for _, _, p in totals}) == 1:
        cost, name, pick = min(totals, key=lambda row: row[0])
        clauses.append(t("compare_cheaper_total", name=name, v=money(cost), cur=pick.price_currency or ""))
    billed = [(p.price_per_hour, name, p) for name, p in fitting if p.price_per_hour] if _at_load(answer) else []
    if len(billed) >= 2 and len({p.price_currency for _, _, p in billed}) == 1:
        # the same load on each: the smaller bill is the cheaper answer
        hourly, name, pick = min(billed, key=lambda row: row[0])
        clauses.append(t("compare_cheaper_bill", name=name, per_hour=money(hourly), cur=pick.price_currency or "",
                         per_month=money(hourly * HOURS_PER_MONTH)))
    priced = [(p.work_cost, name, p) for name, p in fitting if p.work_cost is not None]
    if len(priced) >= 2 and len({p.price_currency for _, _, p in priced}) == 1 and not billed:
        cost, name, pick = min(priced, key=lambda row: row[0])
        clauses.append(t("compare_cheaper", name=name, cost=t(f"{_work_unit(answer, pick)}_short", v=money(cost),
                                                              cur=pick.price_currency or "")))
    clauses += (_break_even_rate(totals, "compare_job_cost", t) if len(totals) >= 2
                else _break_even_rate(billed, "rate_per_hour", t) if len(billed) >= 2
                else _break_even_rate(priced, f"{_work_unit(answer, fitting[0][1])}_short", t))
    clauses += _break_even(answer, fitting, t)
    roomiest = max(fitting, key=lambda row: row[1].free_gb)
    if sum(1 for _, p in fitting if gb(p.free_gb) == gb(roomiest[1].free_gb)) == 1:
        # the same room on each is nobody's advantage (audit 34 LOW-191: "leaves the most room" of two at 16.0)
        clauses.append(t("compare_roomier", name=roomiest[0], gb=gb(roomiest[1].free_gb)))
    return t("compare_verdict", clauses=t.clause_sep.join(clauses)) if clauses else ""


def stated_load(answer: Answer) -> bool:
    """A load stated as a rate, a per-user speed or a first-token time, as the question was read."""
    return any(answer.understood.get(key) for key in ("qps", "tokens_per_s_per_user", "ttft_s"))


def _at_load(answer: Answer) -> bool:
    """A serving load stated, or the hours to rent the cards for ("which is cheaper per month?" among sets that
    each hold the same users): each card compared is billed for meeting it (audit 26 M-35)."""
    return answer.query.task == "inference" and (stated_load(answer) or bool(answer.query.hours))


def _break_even(answer: Answer, fitting: list[tuple[str, PickOut]], t: Translator) -> list[str]:
    """A compared set-up with no public price beside priced ones: the hourly price below which it would be the
    cheaper, from its own time for the job (or rate of work) and the cheapest priced one's cost (an H20 beside an
    H100 for a LoRA of 100M tokens: "cheaper only below 0.42 USD/h"), rather than silence."""
    priced = [p for _, p in fitting if p.price_per_hour and p.price_currency]
    if not priced:
        # none priced (2× H20 against 4× L20 in one machine: s08, "compare the cost per million"): said, not silent
        return [t("compare_unpriced", names=(" / " if t.lang == "en" else "、").join(name for name, _ in fitting))]
    if len({p.price_currency for p in priced}) != 1:
        return []
    currency = priced[0].price_currency or ""
    best_total = min((p.job_cost for p in priced if p.job_cost is not None), default=None)
    best_work = min((p.work_cost for p in priced if p.work_cost is not None), default=None)
    unit = tokens_per_work_unit(answer.query.task)
    out = []
    for name, pick in fitting:
        if pick.price_per_hour:
            continue
        if best_total is not None and pick.job_hours:
            hourly = best_total / pick.job_hours
        elif best_work is not None and pick.work_tokens_per_s:
            hourly = best_work / unit * pick.work_tokens_per_s * 3600
        else:
            continue
        out.append(t("compare_break_even", name=name, v=money(hourly), cur=currency))
    return out


def _break_even_rate(costs: list[tuple[float, str, PickOut]], unit: str, t: Translator) -> list[str]:
    """Two set-ups priced in different currencies (an A10 on Alibaba Cloud in CNY, an L4 on AWS in USD): the
    exchange rate at which they cost the same, since none is assumed here (knowledge.fx), rather than silence
    on "which is cheaper" (audit 28 M-42, J02)."""
    if len(costs) != 2 or len({p.price_currency for _, _, p in costs}) != 2:
        return []
    (x, x_name, x_pick), (y, y_name, y_pick) = sorted(costs, key=lambda row: row[0], reverse=True)
    if not (x and y):
        return []
    # x [X] < y [Y] exactly when one Y buys more than x / y of X: the larger amount's side, said as a rate ≥ 1
    x_cur, y_cur = x_pick.price_currency or "", y_pick.price_currency or ""
    return [t("compare_rate_break_even", name=x_name, amount=t(unit, v=money(x), cur=x_cur), cur=x_cur,
              other=y_name, amount_other=t(unit, v=money(y), cur=y_cur), cur_other=y_cur, rate=f"{x / y:.3g}")]


def _work_unit(answer: Answer, pick: PickOut) -> str:
    """The message key of the unit a set-up's work is priced in: a thousand images, a million output tokens
    (serving) or a billion trained tokens."""
    return ("cost_per_thousand_images" if pick.seconds_per_image else
            "cost_per_million" if answer.query.task == "inference" else "cost_per_billion")


def _fix_text(answer: Answer, pick: PickOut, kb: KnowledgeBase, t: Translator) -> str:
    """"; it does with FP8 weights (… GiB per card)": the change that makes a compared set-up hold the job."""
    fix = pick.fix
    if fix is None or fix.memory_per_gpu_gb is None:
        return ""
    label = suggestion_label(t, kb, fix, answer.query.engine, answer.query.engine_version, answer.query.model)
    return t("compare_fix", fix=label, need=gb(fix.memory_per_gpu_gb))
