"""Images made on several cards asked about run a copy of the pipeline a card (audit 31 HIGH 81: 100k SDXL images
on 4 L40S timed on one, 85 h for 21, under a layer-split sentence with holes in it)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_four_cards_make_four_images_at_a_time() -> None:
    reply = ask_json("generate 100k images with SDXL at 1024, 30 steps, on 4 L40S — how long?")
    seconds = reply["speed"]["seconds_per_image"]
    assert abs(reply["speed"]["job_hours"] - 100_000 * seconds / 3600 / 4) < 0.1  # ≈ 21 h, not ≈ 85
    assert "100,000 images on 4× L40S" in reply["text"] and "(? of them)" not in reply["text"]
    assert "run 4 copies side by side, one a card" in reply["text"]
    # the bill is the same GPU-hours as one card for four times as long: four one-card instances
    assert reply["cost"]["count"] == 4


def test_the_users_cards_are_timed_not_a_cheaper_pick() -> None:
    text = ask_json("SDXL 10 万张图，1024，30 步，8 张 4090 要多久")["text"]
    assert "100,000 张图，用 8× GeForce RTX 4090" in text and "4060" not in text.split("张图，用")[1][:40]


def test_one_card_asked_is_timed_alone() -> None:
    reply = ask_json("generate 10k images with SDXL at 1024 on one L40S, how long?")
    assert abs(reply["speed"]["job_hours"] - 10_000 * reply["speed"]["seconds_per_image"] / 3600) < 0.1
