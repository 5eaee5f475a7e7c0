"""One workload per answer: a message that asks about several jobs is answered for the first.

A brief such as "we serve Qwen2.5-14B for RAG to 200 users… we also want to LoRA Llama-3-8B on our tickets"
holds two workloads; reading it as one mixes their slots (LoRA at the RAG batch size, on the serving
precision). The message is cut into segments (paragraphs, bullets, sentences, "also"/"另外", and the comma
before a second question: "how much VRAM does X need on an L40S, and how long would a LoRA take on it?"), each
segment is read on its own, and a segment that names another model or another task (stated, not implied) starts
a new job. The first job is answered; the others are quoted back so the user can ask about them separately.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from bot.understand.question import Question

_PING = r"(?:<[!@][^>]*>|(?<![\w.])@[\w.-]+)[\s,:]*"
"""A Slack mention as written (`<!channel>`, `<@U123>`) or typed (`@here`): it may stand between "and" and the
question it opens, and is never quoted back."""
_BREAK = re.compile(
    r"\n\s*\n|\n\s*(?:[-*•]|\d{1,2}[.)])\s+|(?<=[.!?])\s+(?=[A-Z])|(?<=[。；;！？])|\balso\b|\bseparately\b|另外|此外|还有|同时"
    r"|,\s*(?=and\s+(?:" + _PING + r")*(?:how|what|can|could|is|are|does|do|will|would|which|should)\b)",
    re.I,
)
MAX_SEGMENTS = 12
"""A brief longer than this is cut no further: the rest stays with the last segment."""
QUOTE_CHARS = 80


def segments(text: str) -> list[str]:
    """The message cut at paragraph, bullet, sentence and "also" boundaries (at most MAX_SEGMENTS)."""
    cuts = [m.start() for m in _BREAK.finditer(text)][: MAX_SEGMENTS - 1]
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if text[a:b].strip()]


_SECOND_CLAUSE = re.compile(r",\s*and\s+|\s*also\b|\s*(?:另外|此外|还有)", re.I)
"""A segment cut at ", and how/what/can…", "also" or "另外": a second question, whose task is weighed against the
first's even where the first only implied its own (a memory question implies serving)."""

_SERVING_WORDS = re.compile(
    r"推理|推论|推論|部署|上线|服务(?!器)|服務(?!器)|并发|併發|用户|用戶|\bserv\w*|\bdeploy\w*|\binference\b|\bhost\w*(?!\s*(?:ram|memory|mem|cpu|machine|side|os)\b)|"
    r"\bchat\w*|\busers?\b|\bqps\b|\bconcurren\w*", re.I)
"""Words that make a segment a serving job; "跑 3000 萬 token 要多久" (run N tokens) after a fine-tuning question
names no model and only runs, so it is that job's time, not another job (audit 18 M-3)."""


def _job(question: Question) -> tuple[str | None, str | None] | None:
    """(model or size, stated task) of a segment, or None when it names neither."""
    model = question.model or (f"{question.params_b:g}b" if question.params_b else None)
    task = question.task if "task" in question.stated and "task-implied" not in question.notes else None
    if task == "inference" and model is None and _SERVING_WORDS.search(question.text) is None:
        task = None  # only a generic "run" (跑, 运行): no job of its own
    return (model, task) if model or task else None


def _family(task: str | None) -> str | None:
    """Serving or training: "fine-tune … with LoRA" refines one training job, it does not start another."""
    return None if task is None else ("inference" if task == "inference" else "training")


_BARE_SIZE = re.compile(r"\d+(?:\.\d+)?b")


def _same_model(one: str, other: str) -> bool:
    """The same model, or a bare size and a model of that size ("a 0.5B model? … Qwen2.5-0.5B"): one job."""
    if one == other:
        return True
    bare, named = (one, other) if _BARE_SIZE.fullmatch(one) else (other, one)
    return _BARE_SIZE.fullmatch(bare) is not None and re.search(rf"(?<![\d.]){re.escape(bare)}(?![a-z0-9])",
                                                                 named) is not None


def _other(current: tuple[str | None, str | None], job: tuple[str | None, str | None]) -> bool:
    model, task = current
    return bool((job[0] and model and not _same_model(job[0], model))
                or (job[1] and task and _family(job[1]) != _family(task)))


_LONG_NUMBER = re.compile(r"\d{13,}")
_LEADING_AND = re.compile(r"^[,\s]*and\s+", re.I)


_MENTION = re.compile(_PING)


def _quote(text: str) -> str:
    """The other job as the reply quotes it: short, and with absurd digit runs cut (they were never read)."""
    text = _LONG_NUMBER.sub(lambda m: m.group()[:3] + "…", _MENTION.sub("", text)).strip()
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1].rstrip() + "…"


_RETRACT = re.compile(
    r"\b(?:no\s*,?\s*wait|wait\s*,?\s*no|sorry\s*,?\s*(?:i\s+)?mean[t]?|(?:actually\s*,?\s*)?i\s+mean[t]?|"
    r"correction\s*:|scratch\s+that|let\s+me\s+rephrase)\b|不对|我是说|我的意思是|更正一下|说错了|搞错了|打错了",
    re.I,
)
"""Words that take back what came before ("X? no wait — I mean Y", "不对，我是说 Y")."""


def retracted(text: str, read: Callable[[str], Question]) -> str:
    """The text after the last retraction that names another model than the text before it ("Llama-3.1-8B
    embeddings? no wait — I mean e5-mistral-7b on an L4" asks about e5-mistral only); else the text as it is. A
    retraction naming no model ("2 A100s, sorry I mean 4") corrects a number and keeps the rest."""
    found = list(_RETRACT.finditer(text))
    if not found:
        return text
    cut = found[-1]
    before, after = text[: cut.start()], text[cut.end():].lstrip(" ,，:：—–-")
    said, meant = _job(read(before)), _job(read(after))
    if said is None or meant is None or not said[0] or not meant[0] or said[0] == meant[0]:
        return text
    return after


_ASKS = re.compile(r"[?？]|\b(?:how|what|which|whether|please)\b|^\W*(?:can|could|would|will|does|do|is|are|should)\b|"
                   r"吗|嗎|多少|几|幾|能否|可否|怎么|怎麼|如何|请|請|帮|幫", re.I)
_NARRATIVE = re.compile(r"\b(?:previously|already|last\s+(?:week|month|year|time)|used\s+to|ran|tried|took|was|were|"
                        r"suggested|recommended|someone|told)\b|之前|以前|上次|曾经|曾經|试过|試過|跑过|跑過|有人(?:建议|建議|说|說)",
                        re.I)
"""A sentence that tells what happened or what someone said, and asks nothing ("We previously ran a similar job on
Qwen2.5-7B…", "Someone suggested we should just go full fine-tune…"): background to the question, not a second
one to quote back (audit 23 LOW-16)."""


def _background(part: str) -> bool:
    return _NARRATIVE.search(part) is not None and _ASKS.search(part) is None


_NUMBERED = re.compile(r"^\s*(?:\(?[2-9]\)|[2-9][.、)）](?!\d)|[②-⑨]|第[二三四五六七八九]个?问题?)")
"""A numbered question after the first ("2)", "2.", "②")."""


_INLINE_NUMBER = re.compile(r"(?<=[？?。.!！;；\s])(?=\(?[2-9][)）]\s)")


def _numbered_pieces(part: str) -> list[str]:
    """A segment holding numbered questions on one line ("想問：1) … 64 個並發？ 2) … 20 個人用 …？ 3) …"), cut
    before each number after the first (a pasted log before them can use up the segments)."""
    cuts = [m.start() for m in _INLINE_NUMBER.finditer(part)]
    bounds = [0, *cuts, len(part)]
    return [part[a:b] for a, b in itertools.pairwise(bounds) if part[a:b].strip()]


_TABLE_LINE = re.compile(r"^\s*[|+](?:[-=+]{3,}|\s)", re.MULTILINE)
_TABLE_LINES = 3
"""Lines of a pasted box-drawn table ("+-----+", "|   0  NVIDIA L40S   On |"): a table is one thing pasted."""


_AND_TASK = re.compile(r"\s+(?:and|&|\+|plus|以及|并且|並且|和|同时|同時)\s*(?=(?:also\s+)?(?:lora|qlora|"
                       r"fine[- ]?tun\w*|train\w*|pre-?train\w*|serv\w*|deploy\w*|host\w*|"
                       r"微调|微調|训练|訓練|部署|推理))",
                       re.I)
"""An "and" before a second task verb ("serve Llama-3.1-8B for chat AND LoRA fine-tune Mistral-7B")."""


def _two_tasks(text: str, read: Callable[[str], Question]) -> list[str]:
    """One sentence holding two jobs joined by "and" + a task, each naming its own model (audit 36 HIGH 111: read
    as the first model with the second task, a job nobody asked for); else the text whole."""
    m = _AND_TASK.search(text)
    if m is None:
        return [text]
    first, second = text[: m.start()], text[m.end():]
    said, then = _job(read(first)), _job(read(second))
    if said is None or then is None or not said[0] or not then[0] or said[0] == then[0]:
        return [text]
    return [first, second]


_THE_QUESTION = re.compile(
    r"\b(?:so\s+|anyway\s*,?\s*)?(?:the|my|our)\s+(?:actual\s+|real\s+|main\s+)?question(?:\s+is)?\s*[:：,-]|"
    r"(?:所以|总之|總之)?\s*(?:我的|我们的|我們的)?(?:问题|問題)(?:是|就是)?\s*[:：]", re.I)
"""Words that open the question after a long background ("… So the question: which GPUs for Qwen2.5-14B …")."""


def asked_after_background(text: str, read: Callable[[str], Question]) -> str:
    """The question a message announces after its background, when it names its own model: the background's
    models (an eval of Llama-3.1-8B, Mistral-Nemo-12B, "a 70B") are not the job (audit 36 HIGH 112: the
    2,960-character brief was sized as Mistral NeMo 12B against the Qwen2.5-14B its question named)."""
    found = list(_THE_QUESTION.finditer(text))
    if not found:
        return text
    after = text[found[-1].end():].strip()
    job = _job(read(after)) if after else None
    return after if job is not None and job[0] else text


def split_jobs(text: str, read: Callable[[str], Question]) -> tuple[str, list[str]]:
    """(the text of the first job, quotes of the other jobs); the whole text and [] when there is one job."""
    text = asked_after_background(retracted(text, read), read)
    if len(_TABLE_LINE.findall(text)) >= _TABLE_LINES:
        return text, []  # a pasted nvidia-smi table: its header rows are no second job (audit 29 HIGH 51)
    parts = [piece for part in segments(text) for piece in _numbered_pieces(part)]
    if len(parts) < 2:
        parts = _two_tasks(text, read)
    if len(parts) < 2:
        return text, []
    first: list[str] = []
    others: list[str] = []
    current: tuple[str | None, str | None] | None = None
    implied: str | None = None
    load: int | None = None
    first_job: Question | None = None
    for part in parts:
        question = read(part)
        job = _job(question)
        if (load is not None and question.batch and question.batch != load and _NUMBERED.match(part)
                and not others):
            # "1) can it hold 64 users? 2) for 20 users, the fewest cards?": the same model under another load is
            # another question, answered on its own rather than merged into the first (audit 24 HIGH 14)
            others.append(part.strip(" \n\t.;。；-*•"))
            continue
        if (first_job is not None and first_job.training_samples and not first_job.qps and question.qps
                and question.gpu and first_job.gpu and question.gpu != first_job.gpu and _SECOND_CLAUSE.match(part)
                and not others):
            # "embed 20M passages on an A10 … 另外 50 queries a second, is one T4 enough?": a batch job and then a
            # load on another card are two questions, not one job compared on two cards (audit 25 HIGH 28)
            others.append(part.strip(" \n\t.;。；-*•"))
            continue
        if first_job is None and job is not None:
            first_job = question
        if load is None and question.batch:
            load = question.batch
        if current is not None and current[1] is None and implied and job is not None and job[1] \
                and _SECOND_CLAUSE.match(part) and _family(job[1]) != _family(implied):
            current = (current[0], implied)  # "how much VRAM does X need…, and how long would a LoRA take": two
        if current is None and job is not None:
            implied = question.task or ("inference" if job[0] else None)  # a model with no task is run, not trained
        if others and job is None:
            first.append(part)  # "the vendor quotes 2x L40S": no job of its own, so the brief's, read with the first
            continue
        if (current is not None and job is not None and _background(part)
                and ((job[0] and job[0] != current[0]) or (job[1] and current[1] and job[1] != current[1]))):
            continue  # "we previously ran a similar job on Qwen2.5-7B": background, neither this job nor another
        if others or (current is not None and job is not None and _other(current, job)):
            others.append(part.strip(" \n\t.;。；-*•"))
            continue
        if job is not None:
            named = job[0] if current is not None and current[0] and _BARE_SIZE.fullmatch(current[0]) else None
            current = job if current is None else (named or current[0] or job[0], current[1] or job[1])
        first.append(part)
    quotes = [_quote(_LEADING_AND.sub("", q)) for q in others if q]
    return ("".join(first) if first else text), quotes
