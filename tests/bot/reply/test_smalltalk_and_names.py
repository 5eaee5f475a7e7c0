"""Small replies that read like a person (audit 29 LOW-101, 102, 109): thanks get "you're welcome", "？？" is
answered in Chinese, an empty ask is the help card, and a misspelt name is not called a fine-tune."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json


@pytest.mark.parametrize(("text", "reply"), [("谢谢", "不客气"), ("thanks!", "You're welcome"), ("謝謝你", "不客氣")])
def test_thanks_are_answered(text: str, reply: str) -> None:
    out = ask_json(text)["text"]
    assert reply in out and "没看懂" not in out and "didn't understand" not in out


def test_full_width_question_marks_are_chinese() -> None:
    assert ask_json("？？")["query"]["lang"] == "zh-Hans"


def test_a_misspelt_name_is_its_spelling_not_a_fine_tune() -> None:
    text = ask_json("can I run deepsek-r1 on 8x H100")["text"]
    assert "“deepsek-r1” is read as DeepSeek-R1, the closest name I know." in text and "fine-tune" not in text
    assert "a fine-tune has its base's size" in ask_json("openhermes-2.5-mistral-7b on a T4")["text"]


def test_an_empty_ask_is_the_help_card() -> None:
    assert ask_json("")["intent"] == "help"
