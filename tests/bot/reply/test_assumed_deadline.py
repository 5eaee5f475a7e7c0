"""A full training job with no deadline that would take years on the fewest cards holding it is sized to finish
within a month, said among the assumptions (audit 29 LOW-106: "训练一个 7B 模型 1T token 要多少张 H800 多少天" was
headlined by 2 H800s and 2.2 years)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_pretraining_with_no_deadline_finishes_within_a_month() -> None:
    # 6 × 7e9 × 1e12 = 4.2e22 FLOP; 32 H800s at 989 TFLOPS and ≈ 52 % MFU ≈ 29.5 days
    reply = ask_json("训练一个 7B 模型 1T token 要多少张 H800 多少天")
    first = reply["picks"][0]
    assert first["gpu"] == "h800" and 16 <= first["count"] <= 64
    assert reply["speed"]["train_hours"] <= 30 * 24
    assumed = [a for a in reply["assumptions"] if a["reason"] == "deadline-assumed"]
    assert assumed and assumed[0]["value"] == 720
    assert "30 天内完成" in reply["text"]


def test_a_deadline_stated_or_a_short_job_assumes_none() -> None:
    stated = ask_json("how many H100s to pretrain a 7B model on 1T tokens in 60 days?")
    assert not [a for a in stated["assumptions"] if a["reason"] == "deadline-assumed"]
    short = ask_json("full fine-tune Llama-3.1-8B on 100M tokens, how many H100s?")
    assert not [a for a in short["assumptions"] if a["reason"] == "deadline-assumed"]


def test_a_fine_tune_keeps_its_fewest_cards_and_the_months_plan() -> None:
    reply = ask_json("QLoRA Llama-3.1-70B on 1M samples, how many GPUs?")
    assert reply["picks"][0]["count"] <= 2
    assert not [a for a in reply["assumptions"] if a["reason"] == "deadline-assumed"]


def test_a_deadline_pick_far_behind_the_first_is_not_offered() -> None:
    # audit 30 LOW-137: 456 PCIe H100s (5.3× the bill) beside 72 SXM H100s for the same two weeks
    reply = ask_json("两周内训练完一个 7B 模型、1T token，需要多少张 H100？")
    first = reply["picks"][0]["count"]
    assert all(p["count"] <= 4 * first for p in reply["picks"])
