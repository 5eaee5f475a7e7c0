"""bot.understand.slots.audio: hours of audio, read before the rental hours."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "hours"), [
    ("whisper large v3, 1000 hours of audio", 1000),
    ("whisper large-v3 2.5k hours of call recordings", 2500),
    ("whisper large-v3 转写1万小时语音", 10000),
    ("whisper large-v3 500小时的音频", 500),
])
def test_audio_hours_are_read_and_are_not_rental_hours(text: str, hours: float) -> None:
    question = parse(text, KB)
    assert question.audio_hours == hours
    assert question.hours is None


def test_an_hours_count_without_audio_words_is_rental() -> None:
    question = parse("whisper large-v3 on an A10 for 1000 hours", KB)
    assert question.audio_hours is None and question.hours == 1000
