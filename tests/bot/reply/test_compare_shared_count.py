"""Two cards compared "with 64 cards" are each sized at 64 (audit 31 HIGH 73: both were sized at 2, the job
timed 32× too long beside the single-card answer for the same 64 cards)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_each_side_is_timed_on_the_count_stated() -> None:
    reply = ask_json("H20 vs H800 for full fine-tuning Qwen2.5-7B on 100B tokens with 64 cards, which is faster?")
    assert reply["compare"] == ["h20", "h800"]
    assert {(pick["gpu"], pick["count"]) for pick in reply["picks"]} == {("h20", 64), ("h800", 64)}
    alone = ask_json("64 H20 full fine-tuning Qwen2.5-7B on 100B tokens, how long?")["speed"]["train_hours"]
    h20 = next(pick for pick in reply["picks"] if pick["gpu"] == "h20")
    assert abs(h20["job_hours"] - alone) <= 0.02 * alone  # the comparison's side and the card asked alone agree
