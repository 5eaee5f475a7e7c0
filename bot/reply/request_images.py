"""The images a vision-language request carries, as positions of its context.

"8 images per request at 1280x1280" on Qwen2.5-VL is about 17k positions before any text: the KV cache and the
prefill they take are the request's largest part, so they are added to the context the request is sized at. A
context the question states is taken to hold them already (people who give one have counted their images)."""

from __future__ import annotations

import math

from bot.reply.model import Assumption
from bot.understand.question import Question
from bot.understand.slots.context import TEXT_CONTEXT_NOTE
from knowledge.engines import load_engine_profiles
from knowledge.schema import Model
from rules.image_tokens import DEFAULT_IMAGE_SIDE, image_positions


def image_size(question: Question) -> tuple[int, int] | None:
    """The image's width and height as the question gives them ("1920x1080", "1080p", "1024px"), or None."""
    if question.image_dims:
        width, _, height = question.image_dims.partition("×")
        if width.isdigit() and height.isdigit():
            return int(width), int(height)
    if question.image_resolution:
        return question.image_resolution, question.image_resolution
    return None


def request_images(question: Question, model: Model, task: str, assumptions: list[Assumption]) -> int:
    """Positions the images of one request, or one training sample, add to the context (0 when none are said, the
    model reads no images, or the question states the context); the count and the size assumed are added to
    `assumptions`. A fine-tune's samples are sized at the images its engine passes on (LLaMA-Factory scales each
    down to 768 × 768 first)."""
    spec = model.image_tokens
    size = image_size(question)
    image_job = question.batch_job and bool(question.image_count)  # "caption 2M photos": one image a request
    training = task != "inference"
    text_only = TEXT_CONTEXT_NOTE in question.notes  # "plus ~500 tokens of text": the images come on top
    if (spec is None and not _cross_attention(model)) or ("context" in question.stated and not text_only) or not (
            question.images_per_request or size or image_job):
        return 0
    if spec is None:
        return 0 if training else _cross_attention_positions(question, model, assumptions)
    images = question.images_per_request or 1
    if not question.images_per_request:
        reason = "one-image-a-job-request" if image_job else "one-image-a-sample" if training else "one-image-a-request"
        assumptions.append(Assumption(field="images_per_request", value=1, reason=reason))
    if size is None:
        size = (DEFAULT_IMAGE_SIDE, DEFAULT_IMAGE_SIDE)
        assumptions.append(Assumption(field="image_resolution", value=DEFAULT_IMAGE_SIDE, reason="image-size-default"))
    limit = _engine_image_pixels(question) if training else None
    if limit is not None and size[0] * size[1] > limit:
        shrink = math.sqrt(limit / (size[0] * size[1]))
        size = (int(size[0] * shrink), int(size[1] * shrink))
        assumptions.append(Assumption(field="image_dims", value=f"{size[0]}×{size[1]}", reason="engine-image-pixels"))
    each = image_positions(spec, *size)
    assumptions.append(Assumption(field="image_tokens", value=f"{images:,} × {each:,} = {images * each:,}",
                                  reason="image-processor"))
    return images * each


def _engine_image_pixels(question: Question) -> int | None:
    """The most pixels the fine-tuning engine named passes on an image (None: the model's processor decides)."""
    profile = load_engine_profiles().get(question.engine or "")
    return profile.training.image_max_pixels if profile is not None and profile.training is not None else None


def _cross_attention(model: Model) -> bool:
    encoder = model.vision_encoder
    return bool(encoder and encoder.cross_attention and model.details.get("cross_attention_layers")
                and model.num_layers)


def _cross_attention_positions(question: Question, model: Model, assumptions: list[Assumption]) -> int:
    """A cross-attention model (Llama 3.2 Vision) caches each image's encoder positions, whatever its size (the
    processor tiles it to at most four 560-pixel tiles, 6,432 positions), in its cross-attention layers only: 8 of
    40. In the per-token KV figure, which counts every layer, that is the cache of tokens × 8/40 text positions."""
    encoder = model.vision_encoder
    assert encoder is not None and model.num_layers
    images = question.images_per_request or 1
    if not question.images_per_request:
        assumptions.append(Assumption(field="images_per_request", value=1, reason="one-image-a-request"))
    layers = int(model.details["cross_attention_layers"])
    each = round(encoder.tokens_per_image * layers / model.num_layers)
    assumptions.append(Assumption(field="image_tokens",
                                  value=f"{images:,} × {encoder.tokens_per_image:,} × {layers}/{model.num_layers}"
                                        f" = {images * each:,}", reason="cross-attention-images"))
    return images * each


__all__ = ["image_size", "request_images"]
