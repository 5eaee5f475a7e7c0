"""Masked log lines leave no long blank run for the slot patterns to backtrack over (audit 27 HIGH 39)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from bot.understand.parse import parse
from bot.understand.question import Question
from bot.understand.slots.base import BLANK_FILL, SlotState
from bot.understand.slots.budget import EN_AMOUNT_FIRST, ZH_AMOUNT_FIRST
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = (Path(__file__).parent / "data" / "sglang_paste.txt").read_text(encoding="utf-8")


def test_a_masked_log_line_keeps_its_offsets_and_a_blank_at_each_end() -> None:
    text = "port 30000\nINFO 12-07 09:00:01 KV Cache is allocated. #tokens: 1231715\nbudget"
    state = SlotState(original=text, folded=text, masked=list(text))
    start = text.index("INFO")
    end = text.index("\nbudget")
    state.mask_log_line(start, end)
    masked = state.text
    assert len(masked) == len(text)
    assert masked[start] == " " and masked[end - 1] == " " and set(masked[start + 1:end - 1]) == {BLANK_FILL}
    assert not re.search(r"\s{3,}", masked)


def test_a_masked_name_still_reads_as_a_blank() -> None:
    # "what can an RTX 4070 Laptop run": the card's name masked, the question around it reads as one phrase
    question = parse("what can an RTX 4070 Laptop run", KB)
    assert question.gpu == "rtx-4070-laptop" and question.intent != "check"


def test_the_budget_patterns_take_blanks_only_before_what_follows_them() -> None:
    # a number, then a blank run, then no budget word: each pattern gives up in one pass over the run
    text = "30000" + " " * 5000
    assert EN_AMOUNT_FIRST.search(text) is None and ZH_AMOUNT_FIRST.search(text) is None
    assert EN_AMOUNT_FIRST.search("we have a $3,000  budget") is not None
    assert ZH_AMOUNT_FIRST.search("50 万 人民币 的预算") is not None


def test_a_pasted_launch_line_and_log_is_read_instead_of_hanging() -> None:
    # the 1,744-character SGLang paste never returned (minutes per pattern); a generous bound, not a speed target
    read: list[Question] = []
    worker = threading.Thread(target=lambda: read.append(parse(PASTE, KB)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert read, "parse did not return"
    question = read[0]
    assert question.model == "qwen3-235b-a22b-2507" and question.engine == "sglang"
