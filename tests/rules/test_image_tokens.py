"""Positions an input image takes (rules.image_tokens), hand-computed from each scheme's rule."""

from __future__ import annotations

import pytest

from knowledge.schema import ImageTokens
from rules.image_tokens import DEFAULT_IMAGE_SIDE, image_positions, request_image_positions

QWEN = ImageTokens(scheme="pixels", pixels_per_token=28, min_pixels=3136, max_pixels=12845056, extra_tokens=2,
                   source="test")
PIXTRAL = ImageTokens(scheme="pixels", pixels_per_token=28, max_side=1540, rounding="up", row_break_tokens=1,
                      source="test")
TILES = ImageTokens(scheme="tiles", tile_size=336, tokens_per_tile=144, max_tiles=16, thumbnail=True, source="test")
FIXED = ImageTokens(scheme="fixed", fixed_tokens=256, extra_tokens=2, source="test")


@pytest.mark.parametrize(("width", "height", "positions"), [
    (1280, 1280, 46 * 46 + 2),  # 1280 / 28 = 45.7 → 46 a side
    (3840, 2160, 137 * 77 + 2),  # 4K: 137.1 → 137, 77.1 → 77; 10,549 ≤ 16,384 tokens of max_pixels
    (100, 100, 4 * 4 + 2),  # 4 × 4 × 784 = 12,544 pixels ≥ min_pixels
    (8000, 8000, 128 * 128 + 2),  # 64M pixels over 12.8M: shrunk by √(64e6 / 12,845,056) ≈ 2.23 → 128 a side
])
def test_qwen_resizes_to_28_pixel_multiples_within_its_bounds(width: int, height: int, positions: int) -> None:
    assert image_positions(QWEN, width, height) == positions


def test_pixtral_caps_the_long_side_and_adds_a_break_per_row() -> None:
    assert image_positions(PIXTRAL, 1024, 1024) == 37 * 37 + 37  # ⌈1024 / 28⌉ = 37 rows of 37 and a break each
    # 3840×2160 → 1540×866 (⌊2160 × 1540/3840⌋): 55 columns, ⌈866 / 28⌉ = 31 rows
    assert image_positions(PIXTRAL, 3840, 2160) == 31 * 55 + 31


def test_tiles_cover_the_image_up_to_the_maximum_with_a_thumbnail() -> None:
    assert image_positions(TILES, 336, 336) == 144  # one tile: no thumbnail
    assert image_positions(TILES, 672, 336) == 3 * 144  # two tiles and the thumbnail
    assert image_positions(TILES, 4000, 4000) == 17 * 144  # 12 × 12 cut to 4 × 4, and the thumbnail


def test_a_fixed_count_whatever_the_size() -> None:
    assert image_positions(FIXED, 4000, 3000) == image_positions(FIXED, 64, 64) == 258


def test_a_request_counts_every_image_at_the_default_size_when_none_is_given() -> None:
    assert request_image_positions(QWEN, 8, 1280, 1280) == 8 * 2118
    assert request_image_positions(QWEN, 2, None, None) == 2 * image_positions(QWEN, DEFAULT_IMAGE_SIDE,
                                                                                 DEFAULT_IMAGE_SIDE)


def test_a_scheme_without_its_numbers_is_refused() -> None:
    with pytest.raises(ValueError, match="tiles needs tile_size"):
        ImageTokens(scheme="tiles", tokens_per_tile=144, max_tiles=4, source="test")


def test_the_knowledge_bases_families_by_their_processors() -> None:
    from knowledge.loader import load_knowledge

    models = load_knowledge().models

    def spec(model_id: str) -> ImageTokens:
        found = models[model_id].image_tokens
        assert found is not None
        return found

    assert image_positions(spec("llama-4-scout"), 336, 336) == 147  # start, <|image|>, 144 patches, end
    assert image_positions(spec("llama-4-scout"), 672, 336) == 145 * 2 + 147  # 2 tiles, their separators, the global
    assert image_positions(spec("gemma-3-12b"), 1920, 1080) == 258
    assert image_positions(spec("glm-4v-9b"), 640, 480) == 1602
    assert image_positions(spec("mistral-small-3.2-24b"), 1024, 1024) == 37 * 38
    assert models["gemma-3-1b"].image_tokens is None  # text only
