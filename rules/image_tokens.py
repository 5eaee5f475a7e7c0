"""Positions an input image takes in a vision-language model's context.

A request that carries images holds their tokens in the KV cache like text, so "8 images per request" moves the
cache and the prefill more than the prompt's words do. The count follows the model's image processor
(knowledge.schema.ImageTokens):

* `pixels`: the image is resized, aspect kept, so each side is a multiple of the square one token covers, its
  area kept within the processor's bounds (Qwen2.5-VL: 28 px a token, 3,136 to 12,845,056 pixels), or its long
  side within a limit (Pixtral: 1,540 px); Pixtral adds one break position per row of tokens.
* `tiles`: the image is cut into tiles of a fixed side, as many as cover it up to the processor's maximum, each
  giving a fixed number of tokens, plus a thumbnail tile when there is more than one. Processors pick the grid by
  aspect ratio among those allowed; covering the image is the count for images larger than a tile, and
  InternVL's choice can differ by a tile or two for small ones.
* `fixed`: every image is resized to one size and gives the same count (Gemma 3's 256).
"""

from __future__ import annotations

import math

from knowledge.schema import ImageTokens

DEFAULT_IMAGE_SIDE = 1024
"""The side of an image whose size the question does not give: a 1-megapixel photo or screenshot, about what
chat front ends and phone uploads send after their own downscaling. Said under Assumed."""


def image_positions(spec: ImageTokens, width: int, height: int) -> int:
    """Positions one `width` × `height` image takes, its start/end markers included."""
    if spec.scheme == "fixed":
        return int(spec.fixed_tokens or 0) + spec.extra_tokens
    if spec.scheme == "tiles":
        return _tiled(spec, width, height) + spec.extra_tokens
    return _resized(spec, width, height) + spec.extra_tokens


def _resized(spec: ImageTokens, width: int, height: int) -> int:
    unit = int(spec.pixels_per_token or 1)
    w, h = float(width), float(height)
    if spec.max_side is not None and max(w, h) > spec.max_side:
        scale = spec.max_side / max(w, h)
        w, h = math.floor(w * scale), math.floor(h * scale)
    if spec.rounding == "up":
        cols, rows = math.ceil(w / unit), math.ceil(h / unit)
    else:
        cols, rows = max(1, round(w / unit)), max(1, round(h / unit))
        area = cols * rows * unit * unit
        if spec.max_pixels is not None and area > spec.max_pixels:
            shrink = math.sqrt(w * h / spec.max_pixels)
            cols, rows = max(1, math.floor(w / shrink / unit)), max(1, math.floor(h / shrink / unit))
        elif spec.min_pixels is not None and area < spec.min_pixels:
            grow = math.sqrt(spec.min_pixels / (w * h))
            cols, rows = math.ceil(w * grow / unit), math.ceil(h * grow / unit)
    return cols * rows + rows * spec.row_break_tokens


def _tiled(spec: ImageTokens, width: int, height: int) -> int:
    side, most = int(spec.tile_size or 1), int(spec.max_tiles or 1)
    cols, rows = max(1, math.ceil(width / side)), max(1, math.ceil(height / side))
    while cols * rows > most:  # scaled down, aspect kept as far as the grid allows
        if cols >= rows:
            cols -= 1
        else:
            rows -= 1
    local = cols * rows
    if local == 1:
        return int(spec.tokens_per_tile or 0)
    tiles = local + (1 if spec.thumbnail else 0)
    return tiles * int(spec.tokens_per_tile or 0) + local * spec.separator_tokens_per_tile


def request_image_positions(spec: ImageTokens, images: int, width: int | None, height: int | None) -> int:
    """Positions `images` images of one request take; a size not given is DEFAULT_IMAGE_SIDE square."""
    w = width or DEFAULT_IMAGE_SIDE
    h = height or width or DEFAULT_IMAGE_SIDE
    return images * image_positions(spec, w, h)


__all__ = ["DEFAULT_IMAGE_SIDE", "image_positions", "request_image_positions"]
