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


@pytest.mark.parametrize(("text", "hours"), [
    ("Whisper large-v3 转写 500 小时会议录音，用 A10 要多久？", 500),
    ("whisper-large-v3: 1200 hours of meeting audio on L4", 1200),
    ("whisper large v3 300小时客服通话录音", 300),
])
def test_audio_named_by_its_source_is_still_audio(text: str, hours: float) -> None:
    question = parse(text, KB)
    assert question.audio_hours == hours
    assert question.hours is None


@pytest.mark.parametrize("text", [
    "转写 500 小时会议录音，用 A10 要多久？",
    "transcribe 300 hours of audio on a T4, how long?",
    "what GPU for an ASR service with 50 concurrent streams",
])
def test_a_transcription_job_naming_no_model_is_sized_as_whisper_and_says_so(text: str) -> None:
    question = parse(text, KB)
    assert question.model == "whisper-large-v3"
    assert question.assumed_model


def test_a_named_model_or_an_unrelated_question_assumes_nothing() -> None:
    named = parse("transcribe 300 hours of audio with whisper small on a T4", KB)
    assert named.model == "whisper-small" and not named.assumed_model
    unrelated = parse("what GPU for Qwen2.5-7B inference", KB)
    assert not unrelated.assumed_model
    rental = parse("rent an A10 for 500 hours", KB)
    assert rental.model is None and rental.hours == 500


def test_a_beam_width_and_hours_after_a_transcription_verb_are_read() -> None:
    # audit 22 HIGH 5 and 6: "beam size 5" was ignored, and "转写 300 小时" read no audio, so no time was given
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    question = parse("Whisper large-v3 beam size 5 在 4090 上转写 300 小时要多久？", kb)
    assert (question.beam_size, question.audio_hours, question.hours) == (5, 300, None)
    english = parse("whisper large-v3 on a 4090, transcribe 300 hours, how long?", kb)
    # no beam written: the batched pipeline's own default, noted as assumed (audit 38 HIGH-119)
    assert (english.beam_size, english.audio_hours, english.hours) == (5, 300, None)
    assert "beam-faster-whisper-default" in english.notes
    assert parse("faster-whisper large-v3 with beam_size=5 on an A100, 2,000 hours of audio", kb).beam_size == 5


def test_ten_live_streams_at_once_are_the_batch() -> None:
    # audit 30 M-78: "10 路同时直播" lost both the count and, with it, the live plan
    from bot.understand.parse import parse as _parse
    from knowledge.loader import default_knowledge as _kb

    question = _parse("Whisper large-v3 实时字幕，10 路同时直播，要几张 L4？", _kb())
    assert question.batch == 10 and question.live_audio
