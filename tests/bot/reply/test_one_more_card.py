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


def test_experts_all_in_ram_with_cards_idle_are_offered_the_fewest_layers_that_hold() -> None:
    # audit 32 M-105: gpt-oss-120b with --cpu-moe on 2× 3090 used 2.4 GiB a card, 21 GiB idle, while each token
    # read 1.8 GiB from RAM (≈ 39 tok/s); the cards hold all but the first few layers' experts
    from dataclasses import replace

    from knowledge.loader import default_knowledge
    from rules.limits import fits_on
    from rules.types import Workload

    answer = ask_json("gpt-oss-120b on 2x RTX 3090 with llama.cpp, experts offloaded to CPU — how many tok/s?")
    layers = int(answer["speed"]["fewer_cpu_moe_layers"])
    faster = answer["speed"]["fewer_cpu_moe_tokens_per_s"]
    kb = default_knowledge()
    w = Workload(model=kb.model("gpt-oss-120b"), engine="llama.cpp", precision="mxfp4", context=4096)
    card = kb.gpus["rtx-3090"]
    assert fits_on(replace(w, cpu_moe_layers=layers), card, 2)[0]  # the fewest that hold, by hand around it
    assert not fits_on(replace(w, cpu_moe_layers=layers - 1), card, 2)[0]
    assert 0 < layers < 36 and faster > 2 * 39
    assert f"With --n-cpu-moe {layers} instead, only the first {layers} layers' experts stay in system RAM" \
        in answer["text"]
