"""All the cards of a box weighed beside the part a job runs on (audit 28 M-49: "vLLM on 2 of the 4 L40S … would
using all 4 GPUs of the box be the better fix?" was not answered)."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
PASTE = (Path(__file__).parent / "vllm_two_of_four_l40s.txt").read_text(encoding="utf-8")


def test_the_whole_box_is_read_beside_the_cards_the_job_runs_on() -> None:
    question = parse(PASTE, KB)
    assert (question.gpu, question.gpu_count, question.other_gpu_count) == ("l40s", 2, 4)
    assert parse("Qwen3-8B on 2 of the 8 H100s in our box, would using all 8 GPUs help?", KB).other_gpu_count == 8


def test_all_four_hold_several_times_the_chats_and_start_at_the_full_length() -> None:
    reply = ask_json(PASTE)
    figure = reply["all_cards"]
    assert figure["fits"] and figure["starts"] and figure["length"] == 131072
    assert figure["held"] > 2 * figure["held_now"]
    assert "On all 4× L40S: it fits" in reply["text"]


def test_no_box_no_line() -> None:
    assert ask_json("Qwen3-8B on 2x L40S with vLLM, 16k chats: how many fit?").get("all_cards") is None
