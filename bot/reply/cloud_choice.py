""""哪个更便宜" after the same job was priced on AWS and then on Alibaba Cloud: the cheapest set-up that holds the job
on each cloud, side by side.

When the thread's card is rented on neither cloud (two RTX 4090s), the reply priced it nowhere and the set-ups
each turn had priced (1× H100 on AWS, 1× A100 on Alibaba Cloud) were never set against each other (audit 29
HIGH 50). Each cloud's own answer is asked for again, restricted to what it rents, and its cheapest fitting
priced pick kept; in different currencies the exchange rate at which they cost the same is said, none assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.reply.cost_view import cloud_name
from bot.reply.formatting import gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from rules import constants as C

Answerer = Callable[[Question, KnowledgeBase], Answer]


def _clouds_weighed_in_one(question: Question) -> bool:
    """"AWS or Alibaba Cloud, which is cheaper per month?" in one message about a job: the same choice as a thread
    that priced it on each (audit 31 HIGH 76: the first cloud's pick was looked up on the second, which does not
    rent it, and the question went unanswered)."""
    return (bool(question.other_clouds) and question.budget and question.intent in ("recommend", "check")
            and (question.model is not None or question.params_b is not None) and not question.named_instances)


def cloud_choice(question: Question, kb: KnowledgeBase, answer: Answerer) -> list[dict[str, Any]]:
    """[{cloud, gpu, count, instance, per_hour, currency}] for each cloud the thread priced on, in the order asked,
    when the question chooses among them; [] otherwise or when fewer than two clouds price a fitting set-up."""
    if not (question.chooses_thread_clouds or _clouds_weighed_in_one(question)) or question.cloud is None:
        return []
    rows: list[dict[str, Any]] = []
    for cloud in [*reversed(question.other_clouds), question.cloud]:
        keep_card = question.gpu is not None and question.gpu in kb.rented_on(cloud)
        alone = answer(question.model_copy(update={
            "cloud": cloud, "other_clouds": [], "chooses_thread_clouds": False, "budget": True,
            "intent": "check" if keep_card else "recommend",
            # a card the cloud does not rent is dropped with its count; a count asked alone ("on 2 cards") stays
            **({} if keep_card or question.gpu is None else {"gpu": None, "gpu_count": None, "gpu_text": None})}),
                       kb)
        priced = [p for p in alone.picks if (p.fits or p.tight) and p.price_per_hour and p.cloud == cloud]
        if not priced:
            continue
        # a job of a fixed size (tokens to train on) is weighed by its total, a service by its hour (audit 31
        # M-88: a 5-hour fine-tune compared by a month's rent of the cheapest hourly card)
        totals = [p for p in priced if p.job_cost]
        best = min(totals, key=lambda p: p.job_cost or 0.0) if totals else min(
            priced, key=lambda p: p.price_per_hour or 0.0)
        rows.append({"cloud": cloud, "gpu": best.gpu, "count": best.count, "instance": best.instance,
                     "per_hour": best.price_per_hour, "currency": best.price_currency,
                     "job_cost": best.job_cost if totals else None, "job_hours": best.job_hours if totals else None})
    return rows if len(rows) >= 2 else []


def _part(row: dict[str, Any], kb: KnowledgeBase, t: Translator) -> str:
    """One cloud's set-up: its hour and month, or for a job of a fixed size its hour, the job's hours and total."""
    common = {"cloud": cloud_name(t, row["cloud"]), "count": row["count"], "gpu": gpu_name(kb, row["gpu"]),
              "instance": row["instance"] or "", "per_hour": f"{row['per_hour']:,.2f}", "cur": row["currency"]}
    if row.get("job_cost"):
        return t("cloud_choice_part_job", **common, hours=f"{row['job_hours'] or 0:,.1f}",
                 total=f"{row['job_cost']:,.2f}" if row["job_cost"] < 100 else f"{row['job_cost']:,.0f}")
    return t("cloud_choice_part", **common, month=f"{row['per_hour'] * C.HOURS_PER_MONTH:,.0f}")


def cloud_choice_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Each cloud's cheapest fitting set-up with its hourly and monthly price, then which is cheaper: directly in
    one currency, else the exchange rate at which they cost the same."""
    rows = answer.cloud_choice
    if not rows:
        return ""
    parts = [_part(r, kb, t) for r in rows]
    line = t("cloud_choice", parts=t("list_sep").join(parts))
    key = "job_cost" if all(r.get("job_cost") for r in rows) else "per_hour"
    currencies = {r["currency"] for r in rows}
    if len(currencies) == 1:
        cheapest = min(rows, key=lambda r: r[key])
        return line + t.sentence_gap + t("cloud_choice_cheaper", cloud=cloud_name(t, cheapest["cloud"]))
    if len(rows) == 2:
        high, low = sorted(rows, key=lambda r: r[key], reverse=True)
        # high [H] < low [L] exactly when one L buys more than high / low of H
        return line + t.sentence_gap + t("cloud_choice_rate", cloud=cloud_name(t, high["cloud"]),
                                         cur=high["currency"], cur_other=low["currency"],
                                         rate=f"{high[key] / low[key]:.3g}")
    return line


__all__ = ["cloud_choice", "cloud_choice_line"]
