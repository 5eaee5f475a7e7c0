"""A pasted nvidia-smi table in its standard box layout (audit 29 HIGH 51): its header rows were taken for a second
job and the 4 L40S it lists were never read; two of them also held 38 GB of another process."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
PASTE = Path(__file__).with_name("smi_four_l40s_two_busy.txt").read_text(encoding="utf-8")


def test_the_table_is_the_machine_and_no_second_job() -> None:
    question = parse(PASTE, KB)
    assert (question.gpu, question.gpu_count, question.other_jobs) == ("l40s", 4, [])
    assert question.smi_busy == {2: 38112, 3: 38110}


def test_the_busy_cards_are_said() -> None:
    text = ask_json(PASTE)["text"]
    assert "I also saw" not in text
    assert "Your table shows GPU 2, GPU 3 already using up to 37.2 GiB (another process)" in text
    assert "ask for the 2 free cards alone (“on 2× L40S”)" in text
