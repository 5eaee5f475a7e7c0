"""Hours of audio a speech model transcribes: timed at the real-time factor shown and billed, never taken for
the hours a card is rented."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json as _ask


@pytest.mark.parametrize("text", ["whisper large v3 transcribe 1000 hours of audio on a T4, cost?",
                                  "whisper large-v3 在T4上转写1000小时录音要多久"])
def test_hours_of_audio_are_the_job_timed_at_the_real_time_factor(text: str) -> None:
    answer = _ask(text)
    speed = answer["speed"]
    assert answer["understood"]["audio_hours"] == 1000
    assert speed["job_hours"] == pytest.approx(1000 / speed["audio_seconds_per_s"], rel=0.01)
    assert answer["cost"]["hours"] == pytest.approx(speed["job_hours"], rel=0.01)


def test_rental_hours_of_a_speech_model_stay_rental_hours() -> None:
    answer = _ask("whisper large v3 on a T4 for 10 hours")
    assert "audio_hours" not in answer["understood"]
    assert answer["cost"]["hours"] == 10


def test_hours_of_audio_are_only_read_for_a_speech_model() -> None:
    answer = _ask("llama 3 8b on an A10 for 1000 hours of audio summaries")
    assert "audio_hours" not in answer["understood"]
