"""Pasted logs with their question: each repeated record read once.

People paste what their engine printed and ask about it ("here is our vllm log … why is KV cache usage so high and
how many users can this card hold at 16k?"). vLLM prints its metrics line every few seconds, so a minute of log is
thousands of characters of the same record with other numbers, and the message went over the length limit and was
refused whole. The records are told apart by their shape (the text with its numbers blanked); a record of a shape
already read is dropped, which keeps the first of each kind, the lines around them and the question.
"""

from __future__ import annotations

import re
from itertools import pairwise

_RECORD_START = re.compile(
    r"(?=(?<![\w-])(?:INFO|WARNING|WARN|DEBUG|ERROR|CRITICAL)\b[\s:]"
    r"|\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}"
    r"|(?<!\d)\d{2}-\d{2} \d{2}:\d{2}:\d{2})"
)
"""Where a log record begins, also when records were pasted into one line: a level word, or a timestamp."""
_ONE_HEADER = 12
"""Starts closer than this many characters are one record's header."""
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
MIN_SHAPE_CHARS = 24
"""Shorter records ("OK", a blank line) are never folded: they carry no repeated payload and may be the question."""


def _records(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        starts: list[int] = []
        for m in _RECORD_START.finditer(line):
            if not starts or m.start() - starts[-1] > _ONE_HEADER:
                starts.append(m.start())  # "INFO 12-06 10:01:07": a level word and its timestamp start one record
        if len(starts) <= 1:
            out.append(line)
            continue
        cuts = [0, *[s for s in starts if s > 0], len(line)]
        out.extend(line[a:b] for a, b in pairwise(cuts) if b > a)
    return out


def fold_repeated_records(text: str) -> tuple[str, int]:
    """(the text with every record of an already-seen shape dropped, how many were dropped)."""
    seen: set[str] = set()
    kept: list[str] = []
    dropped = 0
    for record in _records(text):
        shape = _NUMBER.sub("#", record.strip())
        if len(shape) >= MIN_SHAPE_CHARS and shape in seen:
            dropped += 1
            continue
        seen.add(shape)
        kept.append(record)
    return "".join(kept), dropped


_LINE = re.compile(r"[^\n]*")


def log_line_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the lines that are log records alone ("INFO 12-04 09:12:05 [kv_cache_utils.py:720] Maximum
    concurrency for 32,768 tokens per request: 7.18x"): what the engine printed, not the job asked about, so the
    slots do not read its numbers as the question's context, output length or load (audit 25 HIGH 22). A line
    that asks something ("?") is kept: a question may follow a record on its line."""
    spans = []
    for line in _LINE.finditer(text):
        body = line.group(0)
        stripped = body.lstrip()
        if stripped and "?" not in body and "？" not in body and _RECORD_START.match(stripped) \
                and not _USER_ARGS.search(body):
            spans.append((line.start(), line.end()))
    return spans


_USER_ARGS = re.compile(r"non-default args:|\bargs:\s*Namespace\(|text_generation_launcher:\s*args\s*\{",
                        re.IGNORECASE)
"""vLLM's start-up record of the flags the user set ("non-default args: {'tensor_parallel_size': 2,
'gpu_memory_utilization': 0.92, 'max_num_seqs': 64}"): the configuration asked about, read like a pasted command
(audit 29 HIGH 52: the reply had assumed 1 card, 1.0 and 256, "not stated"); TGI's launcher prints its own ("Args {
… max_total_tokens: Some(32768), max_batch_prefill_tokens: Some(32768) … }", audit 30 HIGH 65); the API server of
vLLM before 0.9 printed every flag ("args: Namespace(model='Qwen/Qwen2.5-72B-Instruct', tensor_parallel_size=4,
max_model_len=32768, gpu_memory_utilization=0.9 …)": audit 38 HIGH-116, read as 4,096 tokens and 1.0)."""


_LOGGED_OOM = re.compile(r"cuda\s+out\s+of\s+memory|outofmemoryerror|torch\.cuda\.OutOfMemoryError|\bOOM\b|"
                         r"no\s+available\s+memory\s+for\s+the\s+cache\s+blocks", re.I)
"""An out-of-memory the message shows or reports ("… CUDA out of memory. Tried to allocate 14.00 GiB"), or vLLM's
start-up failure for want of room for the KV cache ("No available memory for the cache blocks")."""
_SLOW_FIRST_TOKEN = re.compile(
    r"\b(?:slow|long|high|bad|terrible)\s+(?:first[- ]token|ttft|time[- ]to[- ]first[- ]token)|"
    r"\b(?:first[- ]token|ttft|time[- ]to[- ]first[- ]token)\s+(?:is\s+|are\s+|feels\s+)?(?:too\s+|so\s+|very\s+)?"
    r"(?:slow|long|high)|首\s*(?:个)?\s*token\s*(?:延迟)?\s*(?:太|很|好|特别)?(?:慢|高|长)|首字\s*(?:延迟)?\s*(?:太|很)?(?:慢|高)",
    re.I)
"""A complaint that the first token comes slowly, the time-to-first-token a serving set-up answers for."""


def shows_oom(text: str) -> bool:
    """The message shows or reports an out-of-memory: the reply then diagnoses it rather than sizing afresh."""
    return _LOGGED_OOM.search(text) is not None


def slow_first_token(text: str) -> bool:
    """The message complains that the first token comes slowly."""
    return _SLOW_FIRST_TOKEN.search(text) is not None
