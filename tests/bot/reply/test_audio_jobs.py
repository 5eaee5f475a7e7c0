"""Hours of audio a speech model transcribes: timed at the real-time factor shown and billed, never taken for
the hours a card is rented."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json as _ask


@pytest.mark.parametrize("text", ["whisper large v3 transcribe 1000 hours of audio on a T4, cost?",
                                  "whisper large-v3 在T4上转写1000小时录音要多久"])
def test_hours_of_audio_are_the_job_timed_at_the_batched_real_time_factor(text: str) -> None:
    # recorded audio is an offline job: its windows batched (audit 14 A-H2: it was timed one stream at a time)
    answer = _ask(text)
    speed = answer["speed"]
    assert answer["understood"]["audio_hours"] == 1000
    assert speed["audio_seconds_per_s_batched"] > 4 * speed["audio_seconds_per_s"]
    assert speed["job_hours"] == pytest.approx(1000 / speed["audio_seconds_per_s_batched"], rel=0.01)
    assert answer["cost"]["hours"] == pytest.approx(speed["job_hours"], rel=0.01)


def test_several_cards_share_the_files() -> None:
    one = _ask("Whisper large-v3 转写 1 万小时音频，用一张 4090 需要多长时间？")["speed"]["job_hours"]
    four = _ask("Whisper large-v3 转写 1 万小时音频，用 4 张 4090 需要多长时间？")["speed"]["job_hours"]
    assert four == pytest.approx(one / 4, rel=0.02)


def test_rental_hours_of_a_speech_model_stay_rental_hours() -> None:
    answer = _ask("whisper large v3 on a T4 for 10 hours")
    assert "audio_hours" not in answer["understood"]
    assert answer["cost"]["hours"] == 10


def test_hours_of_audio_are_only_read_for_a_speech_model() -> None:
    answer = _ask("llama 3 8b on an A10 for 1000 hours of audio summaries")
    assert "audio_hours" not in answer["understood"]


def test_concurrent_users_of_a_speech_model_are_live_streams_each_kept_at_real_time() -> None:
    from bot.reply.render import render_text
    from bot.service import ask

    few = ask({"text": "whisper large-v3 for 50 concurrent users on an A10"})
    assert few.speed["audio_streams_per_card"] == 50  # memory and speed both hold all 50 on one card
    each = few.speed["audio_seconds_per_s_per_stream"]
    assert each is not None and 1.0 < each < (few.speed["audio_seconds_per_s"] or 0)
    assert "at 50 concurrent streams ≈" in render_text(few)
    # 2,000 streams: 319 MB of KV cache each (self- and cross-attention) and the batch's activations, so an
    # 80 GB card holds a few hundred of them, far fewer than its speed would keep up with.
    many = ask({"text": "whisper large-v3 for 2000 concurrent streams on an A100 80GB"})
    per_card = int(many.speed["audio_streams_per_card"] or 0)
    assert 0 < per_card < 80 * 1e9 / 319e6 and per_card == many.speed["audio_streams_per_card_memory"]
    text = render_text(many)
    assert f"one card keeps up with {per_card:,} live streams (its memory's limit)" in text
    assert f"{-(-2000 // per_card)} cards for 2,000" in text
    zh = ask({"text": "whisper large-v3 50路并发 用A10"})
    assert "50 路并发时每路约" in render_text(zh)


@pytest.mark.parametrize("text", ["Which GPU for Whisper large-v3 transcription of 1000 hours of audio per day?",
                                  "每天1000小时录音，用Whisper large-v3转写，要几张卡"])
def test_hours_of_audio_a_day_are_a_rate_the_cards_keep_up_with(text: str) -> None:
    # A day's 1,000 h at F× real time, its recordings batched, is 1000/F hours of work; ceil(that / 24) of the
    # configuration keep up, billed by the month (no single card's total beside it).
    answer = _ask(text)
    speed = answer["speed"]
    assert speed["audio_batch"] > 1 and speed["audio_seconds_per_s_batched"] > speed["audio_seconds_per_s"]
    work = 1000 / speed["audio_seconds_per_s_batched"]
    assert speed["audio_work_hours_per_day"] == pytest.approx(work, abs=0.05)
    assert speed["audio_sets_daily"] == max(1, -(-work // 24))
    assert "job_hours" not in speed or speed["job_hours"] is None
    assert answer["cost"] is None or answer["cost"]["total"] is None


def test_a_transcription_job_naming_no_model_is_timed_as_whisper_and_the_reply_says_so() -> None:
    answer = _ask("转写 500 小时会议录音，用 A10 要多久？")
    assert answer["query"]["model"] == "whisper-large-v3"
    assert answer["speed"]["job_hours"] == pytest.approx(500 / answer["speed"]["audio_seconds_per_s_batched"], rel=0.01)
    text = _ask("transcribe 300 hours of audio on a T4, how long?")["text"]
    assert "No speech model I know is named: sized as Whisper large-v3" in text
