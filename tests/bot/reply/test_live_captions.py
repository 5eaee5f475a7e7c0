"""A count of live speech streams says what a live captioner that refreshes every second keeps up with beside the
windows-once count (audit 27 LOW-84: "一张 T4 能撑几路" answered 362 live streams, the offline count)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_the_t4_question_gives_the_refreshing_count_beside_the_windows_once_count() -> None:
    reply = ask_json("Whisper large-v3-turbo 做实时转写，一张 T4 能撑几路？")
    speed = reply["speed"]
    assert 0 < speed["audio_streams_refreshed_per_card"] < speed["audio_streams_per_card"] / 5
    line = next(line for line in reply["text"].splitlines() if "路音频" in line)
    assert "每秒重新转写一次缓冲区" in line and f"约 {speed['audio_streams_refreshed_per_card']:.0f} 路" in line
    assert "张卡）" not in line.split("whisper_streaming")[1]  # a capacity asked: no cards for one stream


def test_streams_asked_get_the_cards_a_refreshing_captioner_takes() -> None:
    text = ask_json("50 concurrent faster-whisper large-v3-turbo streams on one RTX 4090: does it fit?")["text"]
    assert "re-transcribes its buffer every second" in text and "cards for 50)" in text
