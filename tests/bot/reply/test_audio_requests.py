"""A speech model at a request rate: the cards its 30-second windows take (audit 30 HIGH 60: "20 requests a second of
10-second clips" was answered with one T4 against its own ≈ 10× real time)."""

from __future__ import annotations

import math

import pytest

from bot.reply.audio_service import audio_request_figures
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_clips_are_counted_in_whole_windows() -> None:
    # 20 clips of 10 s a second are 20 windows (each padded to 30 s); a card at 92 s of audio a second batched gets
    # through 92 / 30 = 3.07 windows: 7 cards
    figures = audio_request_figures(20.0, 10.0, 92.0)
    assert figures["audio_windows_wanted"] == 20.0 and figures["audio_request_cards"] == 7.0
    assert audio_request_figures(2.0, 65.0, 92.0)["audio_windows_wanted"] == 6.0  # 65 s: 3 windows each
    assert audio_request_figures(20.0, None, 92.0)["audio_clip_assumed"] == 1.0


@pytest.mark.parametrize("text", ["Whisper large-v3 做在线语音识别服务，每秒 20 个 10 秒的音频请求，要几张 T4？",
                                  "Whisper large-v3 API: 20 requests per second, each a 10-second clip. How many T4s?"])
def test_twenty_clips_a_second_take_several_t4s(text: str) -> None:
    question = parse(text, KB)
    assert (question.qps, question.clip_seconds) == (20.0, 10.0)
    reply = ask_json(text)
    top = reply["picks"][0]
    batched = reply["speed"]["audio_seconds_per_s_batched"]
    assert top["gpu"] == "t4" and top["count"] == math.ceil(20 / (batched / 30)) and top["count"] >= 5
    assert reply["serving"]["binding"] == "audio_requests" and reply["serving"]["replicas"] == top["count"]
    assert all(p["count"] > 1 for p in reply["picks"])  # the other cards laid out for the same rate


def test_live_transcription_is_planned_at_its_refresh() -> None:
    # audit 30 M-71: "real-time transcription of 50 calls" was 1× L4, the live case a footnote
    reply = ask_json("Real-time transcription of 50 simultaneous phone calls with Whisper large-v3 — how many L4s?")
    refreshed = reply["speed"]["audio_streams_refreshed_per_card"]
    assert reply["serving"]["binding"] == "live_audio"
    assert reply["picks"][0]["count"] == -(-50 // refreshed) > 1
    offline = ask_json("Whisper large-v3 on an L4, 50 concurrent streams")
    assert offline["picks"][0]["count"] == 1  # no live cue: each stream's windows, batched


def test_live_alternatives_are_laid_out_for_the_same_streams() -> None:
    # audit 30 M-71 residue: picks 2-3 were one card each, sized for memory only
    reply = ask_json("Real-time transcription of 50 simultaneous phone calls with Whisper large-v3 — how many L4s?")
    assert all(p["count"] > 1 and p["replicas"] == p["count"] for p in reply["picks"])


def test_a_request_plans_cards_batch_their_windows() -> None:
    # audit 30 LOW-141: "room for 1 sequence at a time" beside a plan that batches each card's waiting windows
    text = ask_json("Whisper large-v3 API: 20 requests per second, each a 10-second clip. How many T4s?")["text"]
    assert "room for 1 sequence at a time" not in text
