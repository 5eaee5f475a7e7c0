"""A speech model served at a request rate ("Whisper large-v3, 20 requests a second of 10-second clips, how many
T4s?"): cards that each transcribe batches of waiting clips, as many as the rate takes.

Whisper encodes every request as whole 30-second windows (its feature extractor pads shorter audio to 30 s), so
a 10-second clip costs a window as a 30-second one does: the rate is counted in windows, each card's in the windows
its batched real-time factor gets through. One T4 was answered for 20 clips a second, against its own ≈ 10× real
time (audit 30 HIGH 60).
"""

from __future__ import annotations

import math

from bot.reply.money_model import ServingPlanOut
from knowledge.schema import GPU

WHISPER_WINDOW_S = 30.0
"""Seconds of audio in one encoder window: Whisper's feature extractor pads or cuts input to 30 s (chunk_length)."""


def audio_request_figures(qps: float, clip_seconds: float | None,
                          batched_seconds_per_s: float | None) -> dict[str, float | None]:
    """{audio_windows_wanted, audio_windows_per_card, audio_request_cards, audio_clip_assumed, audio_clip_seconds,
    audio_requests_per_s} for `qps` requests of
    `clip_seconds` (None: up to a window each, said) on a card transcribing `batched_seconds_per_s` of audio a
    second in batches; {} without that rate."""
    if not qps or not batched_seconds_per_s:
        return {}
    windows_each = max(1, math.ceil((clip_seconds or WHISPER_WINDOW_S) / WHISPER_WINDOW_S))
    wanted = qps * windows_each
    per_card = batched_seconds_per_s / WHISPER_WINDOW_S
    return {"audio_windows_wanted": round(wanted, 2), "audio_windows_per_card": round(per_card, 2),
            "audio_request_cards": float(math.ceil(wanted / per_card)),
            "audio_clip_assumed": 1.0 if clip_seconds is None else None,
            "audio_clip_seconds": clip_seconds, "audio_requests_per_s": qps}


def live_audio_figures(streams: int, refreshed_per_card: float | None) -> dict[str, float | None]:
    """{audio_request_cards, audio_live_streams, audio_windows_per_card} for `streams` transcribed live, each card
    keeping up with `refreshed_per_card` of them re-encoded every second (whisper_streaming's default); {} when
    that is unknown."""
    if streams < 2 or not refreshed_per_card:
        return {}
    return {"audio_request_cards": float(math.ceil(streams / refreshed_per_card)), "audio_live_streams": float(streams),
            "audio_windows_per_card": float(refreshed_per_card)}


def audio_plan(speed: dict[str, float | None], gpu: GPU, count: int) -> ServingPlanOut | None:
    """As many one-card replicas of `gpu` (each runs its own copy of the model; `count` is the pick's, all of
    them) as the request rate's windows or the live streams take; None without either."""
    cards, per_card = speed.get("audio_request_cards"), speed.get("audio_windows_per_card")
    if not cards or not per_card:
        return None
    wanted = float(speed.get("audio_windows_wanted") or 0.0)
    targets = {"qps": float(speed.get("audio_requests_per_s") or 0.0), "windows_per_s": wanted,
               "windows_per_s_per_replica": per_card,
               "clip_seconds": float(speed.get("audio_clip_seconds") or 0.0)}
    if speed.get("audio_clip_assumed"):
        targets["clip_assumed"] = 1.0
    if speed.get("audio_live_streams"):
        streams = float(speed["audio_live_streams"] or 0.0)
        return ServingPlanOut(gpu=gpu.id, gpus_per_replica=1, replicas=int(cards),
                              sequences_per_replica=int(per_card), concurrent_needed=int(streams),
                              binding="live_audio", targets={"streams": streams, "streams_per_replica": per_card})
    # each card batches the waiting clips' windows (audit 30 LOW-141: "room for 1 sequence" beside that batch)
    batched = int(speed.get("audio_batch") or 1)
    return ServingPlanOut(gpu=gpu.id, gpus_per_replica=1, replicas=int(cards), sequences_per_replica=batched,
                          concurrent_needed=math.ceil(wanted), binding="audio_requests", targets=targets)


__all__ = ["WHISPER_WINDOW_S", "audio_plan", "audio_request_figures", "live_audio_figures"]
