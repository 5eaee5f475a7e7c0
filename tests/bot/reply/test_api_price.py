"""An API's price per million tokens set against the bill per token (audit 30 LOW-132: "vs paying an API at $0.20
per million" was read nowhere)."""

from __future__ import annotations

from bot.understand.slots.api_price import parse_api_price
from tests.bot.reply._answers import ask_json


def test_the_api_price_is_read() -> None:
    assert parse_api_price("vs paying an API at $0.20 per million?") == {
        "api_price_per_million": 0.2, "api_price_currency": "USD"}
    assert parse_api_price("OpenAI charges 15 cents per 1M tokens")["api_price_per_million"] == 0.15
    assert parse_api_price("serve 20 users per million") == {}


def test_the_share_of_the_load_at_which_they_cost_the_same() -> None:
    reply = ask_json("What's our cost per million tokens serving Llama-3.1-8B on an H100 with vLLM at full load, "
                     "vs paying an API at $0.20 per million?")
    own = reply["cost"]["per_million_tokens"]
    assert own < 0.2
    assert f"below ≈ {100 * own / 0.2:.0f}% of this load the API is cheaper" in reply["text"]
    assert "0.2 · USD" not in reply["text"]
