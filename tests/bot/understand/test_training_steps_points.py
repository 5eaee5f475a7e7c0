"""A step count that is a point in the run ("OOMing after ~40 steps") is not the job's length; a trainer's progress
bar ("41/1250 [06:12<3:02:51, 9.08s/it]") gives the run's total (audit 39 M-159: the crash point was timed and
priced as the whole job, 3% of it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = Path(__file__).with_name("lora_oom_progress_paste.txt").read_text(encoding="utf-8")


def test_the_progress_bar_total_is_the_job_not_the_crash_point() -> None:
    question = parse(PASTE, KB)
    # 1,250 steps × per-device batch 4 × 2 GPUs × 8,192 tokens = 81.9M tokens
    assert (question.training_steps, question.batch, question.context, question.gpu_count) == (1250, 4, 8192, 2)


@pytest.mark.parametrize(("text", "steps"), [
    ("LoRA Llama 3 8B keeps OOMing after ~40 steps on a 4090", None),
    ("微调 Qwen2.5-7B 在第 40 步 OOM", None),
    ("LoRA Llama 3 8B for 500 steps on a 4090, how long?", 500),
])
def test_a_point_in_the_run_is_no_length(text: str, steps: int | None) -> None:
    assert parse(text, KB).training_steps == steps


def test_host_ram_asked_after_a_training_job_is_the_same_job() -> None:
    # audit 39 LOW-216: "… feasible? how much host RAM?" was quoted back as another job ("ask me separately"),
    # "host" read as hosting a model, while the reply answered it anyway
    question = parse("DPO with TRL on Mistral 7B, full parameters, seq 2048, batch 8, ZeRO-3 with CPU optimizer "
                     "offload on 2x RTX 4090 — feasible? how much host RAM?", KB)
    assert question.other_jobs == [] and question.task == "train"
    assert parse("where to host Llama 3 8B for 20 users?", KB).task == "inference"


@pytest.mark.parametrize(("text", "gbps"), [
    ("pretrain Qwen2.5-7B on 100B tokens on 64 H100 with 3.2 Tbps EFA per node", 50.0),  # 3,200 Gb/s / 8 / 8 cards
    ("train on 16 H100s with 1.6 Tbps networking per node", 25.0),
    ("train 70B on 4 nodes with 25GbE", 0.3906),
])
def test_a_terabit_network_is_read(text: str, gbps: float) -> None:
    # audit 39 LOW-218: "3.2 Tbps EFA per node" was not read and an assumed fabric sized
    assert parse(text, KB).inter_node_gbps == pytest.approx(gbps, rel=1e-3)


def test_a_progress_bars_pace_gives_the_time_left_on_the_cards_it_runs_on() -> None:
    # audit 40 HIGH-128: "123/5000 [10:00<6:40:00, 5.0s/it]" was ignored; (5,000 − 123) × 5.0 s = 6.8 h left
    from tests.bot.reply._answers import ask_json

    text = "my trainer shows 123/5000 [10:00<6:40:00, 5.0s/it] on 1x A100 fine-tuning qwen2.5 7b, how long?"
    assert parse(text, KB).logged_progress == [123, 5000, 5.0]
    reply = ask_json(text)["text"]
    assert "step 123 of 5,000 at 5 s a step, so ≈ 6.8 h left" in reply and "[123.0" not in reply
    assert parse("LoRA Llama 3 8B, 10/100 [00:10<01:30, 1.25it/s]", KB).logged_progress == [10, 100, 0.8]
