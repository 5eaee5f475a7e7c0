"""An owned machine's running cost is its electricity, which the bot does not price (audit 26 M-35, audit 27 K04
turn 3: "which is cheaper to run 24/7 for a month?" after an RTX 5060 Ti and a Mac mini was answered with a cloud
V100's bill)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.followup import follow_up
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_an_owned_card_gets_its_rated_power_over_the_hours() -> None:
    text = ask_json("gpt-oss-20b on an RTX 5060 Ti 16GB at home: what does it cost to run 24/7 for a month?")["text"]
    assert "GeForce RTX 5060 Ti 16GB is rated 180 W, so 730 h flat out is ≈ 131 kWh" in text  # 0.18 kW × 730 h


def test_the_threads_mac_turn_says_what_is_not_known() -> None:
    thread = None
    for text in ("gpt-oss-20b on an RTX 5060 Ti 16GB with llama.cpp at 32k context: fits, and how many tok/s?",
                 "and on a Mac mini M4 with 16GB?", "which is cheaper to run 24/7 for a month?"):
        thread = follow_up(thread, parse(text, KB))
    assert thread is not None
    assert "A Mac you own costs its electricity to run" in render_text(answer(thread, KB), KB)


def test_a_rented_card_on_a_named_cloud_gets_no_power_line() -> None:
    text = ask_json("Llama 3.1 8B on one L4 on AWS: what does it cost to run 24/7 for a month?")["text"]
    assert "electricity" not in text
