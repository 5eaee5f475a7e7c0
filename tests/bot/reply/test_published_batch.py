"""A data-parallel step beyond the largest batch a published pre-training run used is said, with its multiple as a
reader checks it (audit 32 M-107; audit 38 LOW-213: "about 1 times" for 20.5M against 16M tokens)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_the_multiple_of_the_published_batch_keeps_its_decimal() -> None:
    # 5,000 H100s × one 4,096-token micro-batch each = 20.48M tokens a step; Llama 3 405B's batch was 16M: 1.3×
    text = ask_json("pretrain a 7B model on 1e12 tokens with 5000 H100s, how long?")["text"]
    assert "each step takes 20.5M tokens" in text and "about 1.3 times the largest batch" in text


def test_a_step_within_the_published_batch_is_not_flagged() -> None:
    text = ask_json("pretrain a 7B model on 1e12 tokens with 1000 H100s, how long?")["text"]
    assert "times the largest batch" not in text  # 1,000 × 4,096 = 4.1M tokens a step


def test_fewer_cards_that_hold_the_job_leave_room_and_need_no_checkpointing_the_job_did_not() -> None:
    # audit 38 LOW-212: "2× H100 already hold it (76.9 GiB per card)" left 3% and held it only with gradient
    # checkpointing on, neither said; 4 hold it at 61.4 GiB without it
    reply = ask_json("How many GPU-hours and dollars to full fine-tune Llama 3.1 8B on 2B tokens with FSDP on 8x H100?")
    check = reply["check"]
    assert check["fewer_count"] == 4 and check["fewer_need_gb"] < 0.9 * check["limit_gb"]
