"""The bill asked on a cloud for a load ranks the set-ups by what serving it costs there (audit 30 HIGH 69: an
8-GPU p4d billed whole at 21.96 USD/h headlined the month over a 4-GPU g6e.12xlarge at 10.49 that holds the users)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_the_cheapest_set_up_that_holds_the_users_is_the_monthly_figure() -> None:
    reply = ask_json("Qwen2.5-14B int4 with vLLM, 30 users at 16k context: how much per month on AWS?")
    top = reply["picks"][0]
    assert (top["max_concurrent_sequences"] or 0) >= 30
    priced = [p["price_per_hour"] for p in reply["picks"] if p["fits"] and p["price_per_hour"]]
    assert top["price_per_hour"] == min(priced)
    assert reply["cost"]["per_hour"] == top["price_per_hour"] and top["price_per_hour"] < 21.96
