"""A pasted PEFT + bitsandbytes QLoRA out-of-memory on a 12 GB card (audit 31 M-84, LOW-152): the fixes keep the
card where a change of engine does (Unsloth), and PEFT named beside QLoRA is no second method to set side by side."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
PASTE = Path(__file__).with_name("qlora_3060_oom_paste.txt").read_text(encoding="utf-8")


def test_peft_beside_qlora_is_the_same_method() -> None:
    question = parse(PASTE, KB)
    assert (question.task, question.engine, question.compare_tasks) == ("qlora", "transformers", [])


def test_unsloth_is_offered_on_the_card_that_ran_out() -> None:
    reply = ask_json(PASTE)
    assert reply["check"]["fits"] is False
    # Unsloth's offloaded checkpointing and chunked loss: ≈ 8 GiB against the 11.5 GiB the 3060 gives
    assert reply["other_engine"]["engine"] == "unsloth" and reply["other_engine"]["per_gpu_gb"] < 11.5
    assert "With Unsloth instead of transformers" in reply["text"]


def test_a_stated_engine_that_fits_gets_no_other_engine_line() -> None:
    assert ask_json("QLoRA Llama-3.1-8B with transformers on an A100 80GB, seq 2048, batch 4")["other_engine"] is None


def test_a_pasted_vllm_start_up_failure_settles_a_tight_verdict() -> None:
    # audit 31 M-89: "No available memory for the cache blocks" beside a "Tight … runs or not" verdict
    paste = Path(__file__).with_name("vllm_no_cache_blocks_paste.txt").read_text(encoding="utf-8")
    assert parse(paste, KB).logged_oom
    text = ask_json(paste)["text"]
    assert "Your log settles it: on 2× A10G this set-up ran out of memory, so take it as a No" in text
    assert "4× A10G" in text  # the other two cards of the same g5.12xlarge, the change that makes room
