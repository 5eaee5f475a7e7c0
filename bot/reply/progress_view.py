"""A pasted trainer progress bar, answered from its own pace.

"my trainer shows 123/5000 [10:00<6:40:00, 5.0s/it] … how long?": the bar measures the run on the card it runs on,
which no sizing rule knows better; the time left and the whole run at that pace come first, before the figures
the rules give for other cards (audit 40 HIGH-128: the bar was ignored and the card it ran on said not to fit).
"""

from __future__ import annotations

from bot.reply.formatting import hours_figure
from bot.reply.i18n import Translator
from bot.reply.model import Answer


def progress_line(answer: Answer, t: Translator) -> str:
    """The time left and the whole run at the bar's own pace."""
    progress = answer.understood.get("logged_progress")
    if not isinstance(progress, list) or len(progress) != 3:
        return ""
    done, total, seconds = (float(v) for v in progress)
    left_h = (total - done) * seconds / 3600.0
    return t("progress_pace", done=f"{done:,.0f}", total=f"{total:,.0f}", pace=f"{seconds:,.3g}",
             left=hours_figure(left_h), run=hours_figure(total * seconds / 3600.0))


__all__ = ["progress_line"]
