"""Layers left in system RAM on the cards asked about: what one more of the card gives (audit 28 M-50: "2x 3090 …
is it gona be fast enuf for chatting or do i need a 3rd card" had the ≈ 8 tok/s ceiling but no third card)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json

N09 = ("wat gpu setup do i need 4 llama3.3 70b q4km in ollama?? got 2x 3090 + 64gb ram, want 16k ctx, is it gona be "
       "fast enuf for chatting or do i need a 3rd card")


def test_a_third_3090_holds_every_layer_and_doubles_the_speed() -> None:
    reply = ask_json(N09)
    speed = reply["speed"]
    assert speed["one_more_card_count"] == 3
    assert 12 < speed["one_more_card_tokens_per_s"] < 20  # ≈ 42 GB of weights over 936 GB/s, layer after layer
    assert "With 3× GeForce RTX 3090 every layer is on the cards" in reply["text"]


def test_nothing_is_said_when_every_layer_is_on_the_cards() -> None:
    reply = ask_json("llama3.3 70b q4km in ollama on 3x 3090, 16k ctx")
    assert "one_more_card_count" not in reply["speed"]
