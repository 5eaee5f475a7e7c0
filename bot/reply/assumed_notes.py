"""What the reading of a question chose on the asker's behalf and noted, said back under Assumed.

bot.understand marks a choice it made for the asker with a note on the Question (people read as users at once, a
daily volume as its average, a bare "H100" as its 80 GB card); the reply must say each one back, or the figures rest
on a reading the asker never sees. The notes and the assumptions they become are kept here, apart from the
workload defaults, as their list grows with every reading that guesses.
"""

from __future__ import annotations

from bot.reply.model import Assumption
from bot.understand.documents import BATCH_JOB_OUTPUT_NOTE, SAME_LENGTH_OUTPUT_NOTE
from bot.understand.notebooks import NOTEBOOK_NOTES
from bot.understand.question import Question
from bot.understand.slots.audio import FASTER_WHISPER_BEAM_NOTE
from bot.understand.slots.context import BATCH_AS_USERS_NOTE, PEOPLE_AT_ONCE_NOTE
from bot.understand.slots.service_rate import LATENCY_AS_TTFT_NOTE, LATENCY_OUTPUT_NOTE
from bot.understand.slots.workload_size import DAILY_AVERAGE_NOTE
from rules.types import Workload

OFFLOAD_CHOSEN_NOTE = "offload-chosen"
"""On a question whose layer split the reply chose (bot.reply.offload): the reply says so under Assumed."""


OFFLOAD_OLLAMA_NOTE = "offload-ollama"
"""On a question named with Ollama whose model does not fit the card whole: the split Ollama makes by itself."""


def noted_assumptions(question: Question, workload: Workload) -> list[Assumption]:
    """What the reading chose on the asker's behalf and noted (bot.understand): each said under Assumed."""
    out = []
    for note in (OFFLOAD_CHOSEN_NOTE, OFFLOAD_OLLAMA_NOTE):
        if note in question.notes:
            field = "cpu_moe_layers" if question.cpu_moe_layers is not None else "gpu_layers"
            out.append(Assumption(field=field, value=getattr(question, field), reason=note))
    if (PEOPLE_AT_ONCE_NOTE in question.notes and workload.task == "inference" and workload.model.arch == "decoder"
            and (question.users or question.batch)):
        out.append(Assumption(field="batch", value=question.users or question.batch, reason=PEOPLE_AT_ONCE_NOTE))
    if (workload.model.details.get("reranker") and workload.task == "inference" and question.qps
            and not question.texts_per_request):
        # a reranker scores each query's candidates: its cards grow with them, which the question did not say
        out.append(Assumption(field="texts_per_request", value=1, reason="reranker-candidates"))
    if BATCH_AS_USERS_NOTE in question.notes and question.users is not None:
        out.append(Assumption(field="users", value=question.users, reason=BATCH_AS_USERS_NOTE))
    for note in (BATCH_JOB_OUTPUT_NOTE, SAME_LENGTH_OUTPUT_NOTE, LATENCY_OUTPUT_NOTE):
        if note in question.notes and workload.task == "inference" and question.gen_tokens:
            out.append(Assumption(field="gen_tokens", value=question.gen_tokens, reason=note))
    if DAILY_AVERAGE_NOTE in question.notes and question.qps:
        out.append(Assumption(field="qps", value=round(question.qps, 2), reason=DAILY_AVERAGE_NOTE))
    if LATENCY_AS_TTFT_NOTE in question.notes and question.ttft_s:
        out.append(Assumption(field="ttft_s", value=question.ttft_s, reason=LATENCY_AS_TTFT_NOTE))
    if FASTER_WHISPER_BEAM_NOTE in question.notes and question.beam_size:
        out.append(Assumption(field="beam_size", value=question.beam_size, reason=FASTER_WHISPER_BEAM_NOTE))
    if "preference-as-sft" in question.notes and workload.task != "inference":
        out.append(Assumption(field="task", value=workload.task, reason="preference-as-sft"))
    return out


RENTED_VARIANT_NOTE = "gpu-rented-variant"
"""The card was chosen among the variants of a bare name by its price on the cloud named (bot.reply.variant)."""


def gpu_assumptions(question: Question) -> list[Assumption]:
    """The card read from words that do not name it: a bare "H100" (its 80 GB variant), a free notebook."""
    out: list[Assumption] = []
    if question.gpu_defaulted and question.gpu:
        rented = RENTED_VARIANT_NOTE in question.notes
        out.append(Assumption(field="gpu", value=question.gpu,
                              reason="gpu-rented-variant" if rented else "gpu-default-variant"))
    for note in NOTEBOOK_NOTES:
        if note in question.notes and question.gpu:
            out.append(Assumption(field="gpu", value=question.gpu, reason=note))
    return out
