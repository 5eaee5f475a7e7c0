"""Spot prices asked about: the dated spot price of the instance billed, or a plain "none is known" (audit 25
LOW-52: "spot" was not acknowledged)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _text(question: str) -> str:
    return render_text(answer(parse(question, KB), KB), kb=KB)


def test_a_known_spot_price_is_given_beside_the_on_demand_one() -> None:
    row = next(p for p in KB.prices.values() if p.instance == "gpu-h100-sxm_8gpu-128vcpu-1600gb")
    assert row.spot_price_per_hour is not None
    text = _text("How much would spot save for 8x H100 on Nebius, per month?")
    saving = 100 * (1 - row.spot_price_per_hour / row.price_per_hour)
    assert f"{row.spot_price_per_hour:.2f} USD/h, {saving:.0f}% below on-demand" in text


def test_no_spot_price_is_said_not_guessed() -> None:
    text = _text("How much does spot pricing save for 8x H100 on AWS vs on-demand, per month?")
    assert "No spot price is known for p5.48xlarge on AWS" in text
    assert "spot" not in _text("8x H100 on AWS, per month?").lower()


def test_a_job_of_known_length_is_also_totalled_at_the_spot_rate() -> None:
    # audit 33 LOW-187: the spot rate was shown but the job's total only at on-demand (59.17 USD; 12.1 h × 1.71)
    from tests.bot.reply._answers import ask_json

    answer = ask_json("LoRA Llama-3.1-70B on 1x B200 on Verda spot, 100M tokens: how long and how much?")
    import re

    hours = answer["cost"]["hours"]
    said = re.search(r"At that rate the job comes to ≈ ([\d.]+) USD", answer["text"])
    assert hours and said is not None and float(said.group(1)) == pytest.approx(1.71 * hours, rel=0.01)
