"""What it costs to keep a machine someone owns running: its electricity, which the bot does not price.

"gpt-oss-20b on an RTX 5060 Ti … and on a Mac mini M4? … which is cheaper to run 24/7 for a month?" was answered
with the cheapest cloud card's bill (a V100 at 0.14 USD/h): a machine on one's desk costs its power, not a rental
(audit 26 M-35, K04 turn 3). The card's rated board power is sourced; a tariff is not known, so none is guessed.
"""

from __future__ import annotations

from bot.reply.formatting import gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from rules.constants import HOURS_PER_MONTH


def owned_running_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The owned card's energy over the hours asked at its rated power, or what is not known of a Mac's; "" when
    no running cost is asked, a cloud is named, or the set-up is not owned hardware."""
    if not answer.understood.get("asks_running_cost") or answer.query.cloud:
        return ""
    hours = answer.query.hours or HOURS_PER_MONTH
    card = kb.gpus.get(answer.query.gpu or "")
    if card is not None and card.form == "consumer" and card.tdp_w:
        count = answer.query.gpu_count or 1
        kwh = card.tdp_w * count * hours / 1000.0
        return t("owned_running_card", cards=f"{count}× {gpu_name(kb, card.id)}", watts=f"{card.tdp_w * count:,.0f}",
                 hours=f"{hours:,.0f}", kwh=f"{kwh:,.0f}")
    if answer.understood.get("unified_memory"):
        return t("owned_running_mac", hours=f"{hours:,.0f}")
    return ""
