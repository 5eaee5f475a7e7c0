"""Speculative decoding with no draft, and prefix caching: read back and said what they change, not ignored
(audit 39 M-156)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_both_features_are_read_back_and_explained() -> None:
    text = ask_json("GLM-4-9B 用 vLLM 开前缀缓存和投机解码，单卡 L20 能跑到多少 tok/s？")["text"]
    assert "投机解码（未指定草稿）" in text and "前缀缓存" in text.splitlines()[2]
    assert "上面的速度没有计入投机解码" in text and "不提高解码速度" in text


def test_a_named_draft_is_sized_and_not_told_to_name_one() -> None:
    text = ask_json("Llama 3.1 70B with speculative decoding using Llama 3.2 1B as draft on 2 H100")["text"]
    assert "name the draft model" not in text and "no draft named" not in text
