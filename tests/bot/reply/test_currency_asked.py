"""A currency asked that no price is quoted in, with no rate set, is said (audit 30 LOW-139: "一個月要多少台幣？" was
answered in CNY with no word about TWD)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_twd_and_eur_asked_are_said_unconverted() -> None:
    twd = ask_json("我們公司想在雲端租 GPU 跑 Llama-3.1-70B 推論，大概一個月要多少台幣？")
    assert twd["understood"]["currency"] == "TWD"
    assert f"你問的是 TWD；找到的價格以 {twd['cost']['currency']} 計價" in twd["text"]
    eur = ask_json("Llama-3.1-70B inference for a month, cost in EUR?")
    assert "You asked in EUR; the prices found are quoted in" in eur["text"]


def test_the_currency_the_prices_are_in_says_nothing() -> None:
    assert "You asked in" not in ask_json("Llama-3.1-70B inference for a month on AWS, cost in USD?")["text"]
