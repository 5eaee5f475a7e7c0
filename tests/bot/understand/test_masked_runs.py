"""Masked log lines leave no long blank run for the slot patterns to backtrack over (audit 27 HIGH 39)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from bot.understand.parse import parse
from bot.understand.question import Question
from bot.understand.slots.base import BLANK_FILL, LONG_BLANK_RUN, SlotState
from bot.understand.slots.budget import EN_AMOUNT_FIRST, ZH_AMOUNT_FIRST
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = (Path(__file__).parent / "data" / "sglang_paste.txt").read_text(encoding="utf-8")


def test_a_long_masked_run_keeps_its_offsets_and_a_blank_at_each_end() -> None:
    text = "port 30000" + "\n" * 3 + " " * 40 + "budget"
    state = SlotState(original=text, folded=text, masked=list(text))
    filled = state.text
    assert len(filled) == len(text)
    run = filled[len("port 30000"):-len("budget")]
    assert run[0].isspace() and run[-1].isspace() and set(run[1:-1]) == {BLANK_FILL}
    assert not re.search(rf"\s{{{LONG_BLANK_RUN},}}", filled)
    short = "batch 8" + " " * (LONG_BLANK_RUN - 1) + "users"
    assert SlotState(original=short, folded=short, masked=list(short)).text == short


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
