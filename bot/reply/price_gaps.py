"""What the cost block could not price, said once: cards with no public price (or none at the size needed, none
that cloud rents, none with the host RAM an offload needs, a GPU-only price whose VM is extra) and picks priced in
currencies it cannot set against each other."""

from __future__ import annotations

from bot.reply.cost_view import cloud_name, money
from bot.reply.formatting import gb, gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase


def price_gap(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The cards the reply could not price, and picks priced in currencies it cannot set against each other."""
    return " ".join(line for line in (_unpriced_gap(answer, kb, t), _currency_gap(answer, t)) if line)


def _currency_gap(answer: Answer, t: Translator) -> str:
    """Picks priced in two currencies with no rate set (an A100 on Alibaba Cloud in CNY above an RTX 6000 Ada in
    USD): their order is not by price across them, and the reply says so (audit 29 M-56)."""
    if answer.intent in ("gpu_info", "compare"):
        return ""
    currencies = list(dict.fromkeys(p.price_currency for p in answer.picks if p.fits and p.price_currency))
    if len(currencies) < 2:
        return ""
    return t("price_currencies_apart", currencies=t.list_sep.join(currencies))


def _unpriced_gap(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """One sentence for every card the reply could not price, instead of "price unknown" on each line."""
    cloud = t("on_cloud", cloud=cloud_name(t, answer.query.cloud)) if answer.query.cloud else ""
    if answer.intent == "gpu_info":
        if answer.prices or not answer.query.gpu:
            return ""
        return t("price_unknown_once", gpus=gpu_name(kb, answer.query.gpu), cloud=cloud) + " " + t.price_how
    unpriced = list(dict.fromkeys(p.gpu for p in answer.picks if p.price_per_hour is None))
    if not unpriced:
        return ""
    host = answer.estimate.host_ram_gb if answer.estimate is not None else None
    # with an offload, a card that has price rows lost them all to the host RAM its instances lack
    short = [g for g in unpriced if host and any(row.gpu == g for row in kb.prices.values())]
    lines = []
    if short:
        lines.append(t("price_host_ram_short", gpus=", ".join(gpu_name(kb, g) for g in short), ram=gb(host)))
    rest = [g for g in unpriced if g not in short]
    # a GPU-only row (GCP lists the GPU and bills its host VM on top) is a price, not a whole instance's: said
    costed = answer.cost.gpu if answer.cost is not None and answer.cost.gpu_only else None  # its floor is given
    gpu_only = [row for row in kb.prices.values() if row.host_billed_separately and row.gpu in rest
                and row.gpu != costed and (answer.query.cloud is None or row.cloud == answer.query.cloud)]
    for row in gpu_only:
        lines.append(t("price_gpu_only", gpu=gpu_name(kb, row.gpu), cloud=cloud_name(t, row.cloud),
                       per_hour=money(row.price_per_hour / max(1, row.count)), cur=row.currency))
    rest = [g for g in rest if g not in {row.gpu for row in gpu_only} and g != costed]
    # a card priced only in smaller instances than the set-up needs (the L20 as a 1-card instance, asked in 2s)
    needs = {p.gpu: (p.count // (p.replicas or 1)) for p in answer.picks}
    rows_of = {g: [row for row in kb.prices.values() if row.gpu == g
                   and (answer.query.cloud is None or row.cloud == answer.query.cloud)] for g in rest}
    smaller = [g for g in rest if rows_of[g] and all(row.count < needs.get(g, 1) for row in rows_of[g])]
    if smaller:
        lines.append(t("price_unknown_size", gpus=", ".join(gpu_name(kb, g) for g in smaller), cloud=cloud))
    rest = [g for g in rest if g not in smaller]
    # a cloud whose catalogue is not held here is never said to lack a card
    rented = kb.rented_on(answer.query.cloud) if answer.query.cloud else frozenset()
    absent = [g for g in rest if rented and g not in rented]
    if absent:
        # "and on Alibaba?" with an L4: no family of that cloud carries it; "no public price" implied it exists
        lines.append(t("price_not_offered", gpus=", ".join(gpu_name(kb, g) for g in absent),
                       cloud=cloud_name(t, answer.query.cloud or "")))
    rest = [g for g in rest if g not in absent]
    if rest:
        lines.append(t("price_unknown_once", gpus=", ".join(gpu_name(kb, g) for g in rest), cloud=cloud))
    return " ".join(lines)


__all__ = ["price_gap"]
