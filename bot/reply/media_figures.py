"""The figures a non-LLM user thinks in, beside tokens/s: Whisper's real-time factor (one stream, live streams
a card keeps up with, recordings batched), seconds per image, sequences encoded per second."""

from __future__ import annotations

import math
from dataclasses import replace

from bot.reply.audio_service import audio_request_figures, live_audio_figures
from bot.reply.convert import finite
from bot.reply.image_service import cards_for
from bot.reply.serving import encoder_rate, fits_at
from bot.reply.side_figures import image_seconds, image_settings
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules import speed_media
from rules.search import largest_true
from rules.types import Workload


def media_speed(workload: Workload, gpu: GPU, kb: KnowledgeBase, prefill: float | None,
                images_wanted: tuple[float, bool] | None = None, *,
                streams_asked: bool = False,
                audio_requests: tuple[float, float | None] | None = None,
                live_audio: bool = False) -> dict[str, float | None]:
    """The unit a non-LLM user thinks in: Whisper's real-time factor, seconds per image, sequences per second.
    `streams_asked`: how many live streams a card takes is asked ("能同时处理几路实时音频流"), with no count;
    `audio_requests`: a speech model's request rate and each request's seconds of audio (bot.reply.audio_service)."""
    model = workload.model
    if workload.task != "inference":
        return {}
    if model.arch == "encoder-decoder" and model.modality == "audio":
        figures = {"audio_seconds_per_s": finite(speed_media.whisper_real_time_factor(workload, gpu), 1)}
        if workload.batch > 1:
            figures.update(live_streams(workload, gpu))
            if live_audio:
                figures.update(live_audio_figures(workload.batch, figures.get("audio_streams_refreshed_per_card")))
        elif streams_asked:
            figures.update(live_streams(replace(workload, batch=MOST_LIVE_STREAMS), gpu))
            figures["audio_streams_asked"] = 1.0
        rate, windows = batched_audio_rate(workload, gpu)
        figures["audio_seconds_per_s_batched"] = finite(rate, 1) if rate else None
        figures["audio_batch"] = float(windows)
        if audio_requests is not None:
            figures.update(audio_request_figures(audio_requests[0], audio_requests[1], rate))
        return figures
    if model.arch == "diffusion":
        steps, resolution = image_settings(workload)
        seconds = image_seconds(workload, gpu, kb)
        if seconds is None:
            return {}
        figures = {"seconds_per_image": finite(seconds, 2), "image_steps": float(steps) if steps else None,
                   "image_resolution": float(resolution) if resolution else None}
        if images_wanted is not None and seconds > 0:
            # a service's rate over what one card makes a minute, one image at a time: the cards it takes
            wanted, assumed = images_wanted
            figures.update(images_per_minute_wanted=finite(wanted, 1), image_cards=float(cards_for(wanted, seconds)),
                           images_per_user_assumed=1.0 if assumed else None)
        return figures
    if model.arch == "dual-encoder":
        # a CLIP-like tower embedding images in batches (audit 30 M-70: no rate and no time were given)
        rate = speed_media.images_embedded_per_s(model, gpu, workload.precision)
        if not rate:
            return {}
        embedded: dict[str, float | None] = {"images_embedded_per_s": finite(rate, 0)}
        if images_wanted is not None:
            # a rate to keep up with ("每秒编码 2000 张"): copies of the tower, a card each, as many as it takes
            # (audit 34 HIGH 97: read as a job of 2,000 images, one T4 for 11 seconds)
            wanted = images_wanted[0] / 60.0
            embedded.update(images_embedded_wanted_per_s=finite(wanted, 1), image_cards=float(math.ceil(wanted / rate)))
        return embedded
    if model.arch == "encoder":
        figures = {"sequences_per_s": finite(speed_media.encoder_sequences_per_s(prefill, workload.context), 2)}
        if prefill:
            # what a server batching its requests encodes on one card: "how many queries/s can one L4 handle"
            batched, batch = encoder_rate(workload, gpu, 1)
            if batch > 1:
                figures.update(batched_sequences_per_s=finite(batched, 1), encoder_batch=float(batch))
        return figures
    return {}


MOST_LIVE_STREAMS = 1024
"""The most live streams one card is searched for when their number is asked: beyond any card's memory for
Whisper's cross-attention cache (0.18 GiB a stream for Whisper medium)."""
OFFLINE_AUDIO_BATCH = 16
"""Windows of recorded audio a transcription job batches on one card (faster-whisper's README example,
`batched_model.transcribe(..., batch_size=16)`), when its memory holds them."""


def batched_audio_rate(workload: Workload, gpu: GPU) -> tuple[float | None, int]:
    """(seconds of audio a second, windows batched) on one card for recorded files: waiting files are batched, as
    faster-whisper's README runs its BatchedInferencePipeline at batch_size=16, as many windows as the card holds."""
    windows = largest_true(lambda n: fits_at(workload, gpu, 1, n), 1, OFFLINE_AUDIO_BATCH)
    each = speed_media.whisper_real_time_factor(workload, gpu, windows)
    return (each * windows if each else None), windows


def recorded_audio_hours(workload: Workload, gpu: GPU, count: int, audio_hours: float) -> float | None:
    """Hours `count` cards take over `audio_hours` of recordings, each card transcribing its own files at the
    batched rate (job_hours.add_audio_hours reads the same rate from the speed figures); None when it is unknown."""
    rate = batched_audio_rate(workload, gpu)[0]
    return audio_hours / (rate * max(1, count)) if rate else None


def live_streams(workload: Workload, gpu: GPU) -> dict[str, float | None]:
    """Concurrent users of a speech model are live streams: each must be transcribed at least as fast as it is
    spoken. One card holds as many as its memory and its speed allow (batching shares the decoder's weight reads,
    not the encoder's work); more streams than that take more cards, one batch of streams each."""
    streams = workload.batch
    by_speed = speed_media.whisper_live_streams(workload, gpu, streams)
    by_memory = largest_true(lambda n: fits_at(workload, gpu, 1, n), 1, streams)
    per_card = min(by_speed, by_memory)
    each = speed_media.whisper_real_time_factor(workload, gpu, max(1, min(streams, per_card)))
    # what a live captioner that refreshes every second keeps up with: each refresh re-encodes a window a stream
    refreshed = min(by_memory, speed_media.whisper_refreshed_streams(workload, gpu, max(1, per_card)))
    return {"audio_seconds_per_s_per_stream": finite(each, 1), "audio_streams_per_card": float(per_card),
            "audio_streams_per_card_memory": float(by_memory), "audio_streams_refreshed_per_card": float(refreshed)}


def asked_card_image_speed(workload: Workload, gpu: GPU, kb: KnowledgeBase) -> dict[str, float | None]:
    """An image model the card asked about cannot hold whole, with a fix that fits it (a 4-bit load, diffusers'
    model offload): the seconds an image takes there, at the card's own rate. A floor: the 4-bit weights are
    dequantised as they run and the offload moves each part over PCIe once an image."""
    if workload.model.arch != "diffusion" or workload.task != "inference":
        return {}
    seconds = image_seconds(workload, gpu, kb)
    return {"seconds_per_image_asked": finite(seconds, 1)} if seconds else {}
