"""Speech recognition: the hours of audio a job transcribes ("1000 hours of audio", "1000小时录音").

Read only when the model named is a speech model, before the rental hours are read, so "transcribe 1000 hours
of audio" is timed and billed at the model's real-time factor instead of renting a card for 1000 hours. A
transcription job that names no model ("转写 500 小时会议录音，用 A10 要多久？") is sized as the open speech model
most such jobs run (`ASSUMED_SPEECH_MODEL`), and the reply says so.
"""

from __future__ import annotations

import re

from bot.understand.numbers import COUNT_SCALES
from bot.understand.question import ASSUMED_MODEL_NOTE
from bot.understand.slots.base import SlotState, bounded, rx

_AUDIO_HOURS = rx(
    r"(?<![\w.,])(?P<num>\d{1,3}(?:[, ]\d{3})+|\d+(?:\.\d+)?)\s*(?P<scale>k|万|千)?\s*(?:hours?|hrs?|h|小时)\s*"
    r"(?:of\s+)?(?:the\s+)?(?:(?:meeting|call|phone|customer|lecture|interview)\s+)?"
    r"(?:audio|speech|recordings?|calls?|podcasts?|meetings?|voice|video|"
    r"的?(?:会议|通话|电话|客服|课堂|课程|访谈|播客|采访){0,2}(?:音频|录音|语音|视频))"
)
_TRANSCRIBED_HOURS = rx(
    r"(?:transcri(?:be|bing|ption\s+of)|转写|轉寫|转录|轉錄|识别|識別)\s*(?:of\s+|about\s+|约|大约)?\s*"
    r"(?P<num>\d{1,3}(?:[, ]\d{3})+|\d+(?:\.\d+)?)\s*(?P<scale>k|万|千)?\s*(?:hours?|hrs?|h|小时|小時)(?![a-z])"
)
"""Hours after a transcription verb ("transcribe 300 hours", "转写 300 小时"): the audio, with a speech model named."""
BEAM = rx(r"beam[\s_-]?(?:size|width)?\s*(?:=|:|of|is)?\s*(?P<k>\d{1,2})(?!\d)|(?P<k2>\d{1,2})\s*-?\s*beams?\b"
           r"|(?:束宽|束搜索|集束搜索)\s*(?:为|=|是)?\s*(?P<k3>\d{1,2})")
"""A beam search width as written ("beam_size 5", "beam size=5", "5 beams", "束宽 5")."""
_GREEDY = rx(r"\bgreedy\b|贪心|贪婪解码")
"""Greedy decoding named ("greedy decoding", "贪心解码"): a beam of one."""
MAX_AUDIO_HOURS = 1e8
ASSUMED_SPEECH_MODEL = "whisper-large-v3"
"""Sized when a transcription job names no model: the open speech model most self-hosted transcription runs."""
_TRANSCRIPTION = rx(r"\btranscri(?:be|bing|ption)|speech[- ]to[- ]text|\basr\b|\bstt\b|语音识别|語音識別|"
                    r"转写|轉寫|转录|轉錄|语音转文字|語音轉文字|录音转文字|錄音轉文字")
_PER_DAY_AFTER = rx(r"^\s*(?:(?:per|a|each|every)\s+day\b|/\s*day\b|daily\b|each\s+day\b)")
_PER_DAY_BEFORE = rx(r"(?:每天|每日|日均|一天)\s*(?:要|需要)?\s*(?:处理|转写|识别)?\s*$")
"""An amount of audio that arrives every day ("1000 hours of audio per day", "每天1000小时录音"): a rate the
cards must keep up with around the clock, not one job."""


_BEAM_FIVE_RUNNERS = rx(r"\bfaster[-_ ]?whisper\b|\bwhisper[-_ ]?x\b")
"""Runners whose transcribe() searches 5 beams unless told otherwise (faster-whisper's `beam_size: int = 5`;
WhisperX builds on faster-whisper with the same default)."""
FASTER_WHISPER_BEAM = 5
FASTER_WHISPER_BEAM_NOTE = "beam-faster-whisper-default"
"""Question note: the beam width is the runner's default, not stated (said under Assumed)."""


CTRANSLATE2_NOTE = "runner-ctranslate2"
"""Question note: Whisper runs on CTranslate2 (faster-whisper, WhisperX), whose beams share the source's
cross-attention cache (rules.types.Workload.source_per_beam)."""
_CTRANSLATE2 = rx(r"\bfaster[-_ ]?whisper\b|\bwhisper[-_ ]?x\b|\bctranslate2?\b")


_CLIP = rx(r"(?<![\w.])(?P<n>\d{1,4}(?:\.\d+)?)\s*[- ]?(?P<u>s|secs?|seconds?|mins?|minutes?)(?![a-z])\s*"
           r"(?:long\s+)?(?:of\s+)?(?:audio\s+|speech\s+|voice\s+)?"
           r"(?:clips?|audio|recordings?|utterances?|segments?|files?|snippets?|messages?|calls?)(?![a-z])"
           r"|(?P<n2>\d{1,4}(?:\.\d+)?)\s*(?P<u2>秒|分钟|分鐘)\s*(?:钟|鐘)?\s*(?:左右)?\s*(?:的|长的|長的)?\s*"
           r"(?:音频|音訊|语音|語音|录音|錄音|片段|音频片段|文件|檔案)")
"""Each request's audio length ("20 requests per second of 10-second clips", "每秒 20 个 10 秒的音频请求"): Whisper
pads every clip to a 30-second window, so the length sets the windows each request costs (audit 30 HIGH 60)."""
MAX_CLIP_SECONDS = 4 * 3600.0
_LIVE = rx(r"\breal[- ]?time\b|\blive\b|\bstreaming\b|\bcaption\w*|\bsubtitl\w*|实时|實時|即时|即時|直播|字幕")
"""Speech transcribed as it is spoken ("real-time transcription of 50 calls", "实时字幕"): each stream's text is
refreshed every second or so, not transcribed once its 30-second window is full (audit 30 M-71)."""


def parse_audio(state: SlotState) -> None:
    """Reads `audio_hours` (and a beam width) and masks them, so the hours cue never sees them."""
    if _CTRANSLATE2.search(state.folded):
        state.notes.append(CTRANSLATE2_NOTE)
    beam = BEAM.search(state.text)
    if beam is not None:
        width = int(beam.group("k") or beam.group("k2") or beam.group("k3"))
        if 1 <= width <= 64:
            state.set("beam_size", width)
        state.mask(beam.start(), beam.end())
    elif _GREEDY.search(state.folded):
        state.set("beam_size", 1)  # "greedy decoding": one hypothesis, said by name rather than as a width
    elif _BEAM_FIVE_RUNNERS.search(state.folded) and "beam_size" not in state.values:
        state.values["beam_size"] = FASTER_WHISPER_BEAM  # faster-whisper named: its default beam, said as assumed
        state.notes.append(FASTER_WHISPER_BEAM_NOTE)
    if _LIVE.search(state.folded):
        state.values["live_audio"] = True
    clip = _CLIP.search(state.text)
    if clip is not None:
        seconds = float(clip.group("n") or clip.group("n2")) * (60.0 if (clip.group("u") or clip.group("u2") or "")
                                                                 .startswith(("m", "分")) else 1.0)
        if 0 < seconds <= MAX_CLIP_SECONDS:
            state.set("clip_seconds", seconds)
        state.mask(clip.start(), clip.end())
    m = _AUDIO_HOURS.search(state.text) or _TRANSCRIBED_HOURS.search(state.text)
    if m is None:
        return
    hours = float(re.sub(r"[, ]", "", m.group("num"))) * COUNT_SCALES.get(m.group("scale") or "", 1.0)  # "10,000"
    if hours > 0:
        state.set("audio_hours", bounded(state, "audio_hours", hours, MAX_AUDIO_HOURS))
        end = m.end()
        daily = _PER_DAY_AFTER.search(state.text[end:])
        if daily is not None or _PER_DAY_BEFORE.search(state.text[: m.start()]):
            state.set("audio_per_day", True)
            end += daily.end() if daily is not None else 0
        state.mask(m.start(), end)
        if "beam_size" not in state.values and not state.values.get("live_audio"):
            # hours of recordings are a batch job, timed on faster-whisper's BatchedInferencePipeline, whose
            # transcribe() searches 5 beams unless told otherwise (SYSTRAN/faster-whisper@0044854
            # faster_whisper/transcribe.py: "beam_size: int = 5", "batch_size: int = 16"); timed greedy, 10,000 h
            # on an A10 came to 79 h at 127× real time, twice the published batched rates (audit 38 HIGH-119)
            state.values["beam_size"] = FASTER_WHISPER_BEAM
            state.notes.append(FASTER_WHISPER_BEAM_NOTE)
            if CTRANSLATE2_NOTE not in state.notes:
                state.notes.append(CTRANSLATE2_NOTE)  # its beams share each window's cross-attention cache


def assumed_speech_model(state: SlotState) -> str | None:
    """The speech model to size when the text transcribes an amount of audio and names no model, else None."""
    if _TRANSCRIPTION.search(state.text) is None and _AUDIO_HOURS.search(state.text) is None:
        return None
    state.notes.append(f"{ASSUMED_MODEL_NOTE}{ASSUMED_SPEECH_MODEL}")
    return ASSUMED_SPEECH_MODEL
