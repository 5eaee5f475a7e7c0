"""Open models of kinds the rules do not size (video generation, text-to-speech) are said to be, not sized as a
language model of their size."""

from __future__ import annotations

import pytest

from bot.understand.unknown import unmodelled_model
from tests.bot.reply._answers import ask_json


@pytest.mark.parametrize(("text", "kind", "name"), [
    ("Wan2.1 文生视频 14B 在 4090 上能跑吗？生成 5 秒 720p 要多久？", "video", "Wan"),
    ("CogVideoX-5B on a 3090, how long for a 6-second clip?", "video", "CogVideoX"),
    ("HunyuanVideo 在 H100 上生成一段 5 秒 720p 影片要多久？", "video", "HunyuanVideo"),
    ("XTTS v2 text-to-speech for 100 concurrent streams, which GPU?", "tts", "XTTS"),
    ("CosyVoice2 语音合成，100 路并发需要几张卡", "tts", "CosyVoice"),
])
def test_a_video_or_speech_model_is_said_not_to_be_sized(text: str, kind: str, name: str) -> None:
    # "Wan2.1 … 14B" was a generic 14B LLM with GPTQ fixes and "did you mean Qwen2.5-14B"
    reply = ask_json(text)
    assert reply["error"] == "unmodelled-model" and reply["estimate"] is None and reply["picks"] == []
    assert reply["understood"]["unmodelled_kind"] == kind and reply["text"].startswith(f"== {name} ==")


@pytest.mark.parametrize("text", ["swan", "i wanted to run llama 3 8b", "svd decomposition of a matrix",
                                  "bark at the moon"])
def test_ordinary_words_are_no_such_model(text: str) -> None:
    assert unmodelled_model(text) is None
