"""vLLM's request cap lowered when its start-up warm-up is all that does not fit.

vLLM profiles its start-up with one dummy request per --max-num-seqs (1,024 by default on an 80 GB card): the
sampler's fp32 work over a 201k vocabulary for each is several GiB, enough to tip gpt-oss-120b on one H100 into
"No" although 32 users need a cap of 32. Lowering the cap is a start-up flag that changes nothing for a load
below it, so the reply answers for the card asked with that flag set, and says so under Assumed (audit 19/20
M-7: the one H100 asked about was never priced).
"""

from __future__ import annotations

from bot.reply.model import CheckOut
from bot.reply.serving import users_of
from bot.understand.question import Question
from rules.types import Workload

REQUEST_CAP_LOWERED_NOTE = "request-cap-lowered"
"""Question note: the request cap was lowered to fit (the reply's max_num_seqs assumption says why)."""


def lowered_request_cap(question: Question, workload: Workload, check: CheckOut | None) -> Question | None:
    """The question with vLLM's --max-num-seqs lowered to the largest cap that fits, when that is the first fix
    offered on the cards asked, the cap still covers every sequence the question serves at once, and the
    question did not set the cap itself; None otherwise."""
    if (check is None or check.fits or check.tight or question.max_num_seqs is not None
            or REQUEST_CAP_LOWERED_NOTE in question.notes or workload.task != "inference"):
        return None
    first = check.suggestions[0] if check.suggestions else None
    if first is None or first.kind != "fewer-requests" or not first.max_num_seqs:
        return None
    if first.max_num_seqs < max(workload.batch, users_of(question)):
        return None  # the cap that fits would throttle the load asked: a real limit, said as a No
    return question.model_copy(update={"max_num_seqs": first.max_num_seqs,
                                       "notes": [*question.notes, REQUEST_CAP_LOWERED_NOTE]})
