""""How many users can one H100 serve if each needs 50 tok/s?" gives the number (audit 30 M-77: planned for one)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_the_most_users_at_the_speed_each_needs() -> None:
    reply = ask_json("How many users can one H100 serve with Llama-3.1-8B in vLLM if each needs at least 50 tok/s?")
    targets = reply["serving"]["targets"]
    users = targets["users_at_target"]
    assert 80 <= users <= targets["users_by_memory"]  # the speed or the KV cache binds, whichever first
    assert "How many users: at ≥ 50 tok/s each, 1× H100 SXM5 80GB serves up to" in reply["text"]
    faster = ask_json("How many users can one H100 serve with Llama-3.1-8B in vLLM if each needs at least 90 tok/s?")
    assert faster["serving"]["targets"]["users_at_target"] < users  # a higher bar, fewer users


def test_a_load_stated_is_planned_as_before() -> None:
    reply = ask_json("Llama-3.1-8B in vLLM on one H100 for 40 users at 50 tok/s each")
    assert "users_at_target" not in reply["serving"]["targets"]
