"""Qwen2-VL-2B/7B/72B-Instruct: the entries load, a question names them, and their images count as the processor does.

Qwen2-VL's processor resizes an image (aspect kept) so each side is a multiple of 28 pixels (14-pixel patches merged
2×2), within 4 to 16,384 tokens of area (3,136 to 12,845,056 pixels), and gives one <|image_pad|> per 28×28 square,
between <|vision_start|> and <|vision_end|>. Every expected number below is worked out by hand from the config shapes,
never read back from the entry.
"""

from __future__ import annotations

import pytest

from knowledge.loader import default_knowledge
from rules.image_tokens import image_positions

IDS = ("qwen2-vl-2b", "qwen2-vl-7b", "qwen2-vl-72b")


@pytest.mark.parametrize("model_id", IDS)
def test_entry_loads_as_a_pixel_scheme_multimodal_model(model_id: str) -> None:
    m = default_knowledge().model(model_id)
    assert m.modality == "multimodal" and m.arch == "decoder" and m.family == "Qwen2-VL"
    assert m.image_tokens is not None and m.image_tokens.scheme == "pixels"
    # patch_size 14 × spatial_merge_size 2 = 28 pixels a side per token; 4 × 28² and 16384 × 28² pixels.
    assert m.image_tokens.pixels_per_token == 14 * 2
    assert (m.image_tokens.min_pixels, m.image_tokens.max_pixels) == (4 * 28 * 28, 16384 * 28 * 28)
    assert m.image_tokens.extra_tokens == 2
    assert m.source


@pytest.mark.parametrize(("model_id", "attention", "mlp"), [
    # layers, hidden, heads, KV heads, head_dim / intermediate, vocab, context, tied
    ("qwen2-vl-2b", (28, 1536, 12, 2, 128), (8960, 151936, 32768, True)),
    ("qwen2-vl-7b", (28, 3584, 28, 4, 128), (18944, 152064, 32768, False)),
    ("qwen2-vl-72b", (80, 8192, 64, 8, 128), (29568, 152064, 32768, False)),
])
def test_shapes(model_id: str, attention: tuple[int, ...], mlp: tuple[object, ...]) -> None:
    m = default_knowledge().model(model_id)
    assert (m.num_layers, m.hidden_size, m.num_attention_heads, m.num_kv_heads, m.head_dim) == attention
    assert (m.intermediate_size, m.vocab_size, m.max_context, m.tie_embeddings) == mlp


@pytest.mark.parametrize(("model_id", "kib"), [
    ("qwen2-vl-2b", 28 * 2 * 128 * 2 * 2 / 1024),  # 28 layers × 2 KV heads × 128 × (K, V) × 2 bytes = 28 KiB
    ("qwen2-vl-7b", 28 * 4 * 128 * 2 * 2 / 1024),  # 28 × 4 × 128 × 2 × 2 = 57,344 bytes = 56 KiB
    ("qwen2-vl-72b", 80 * 8 * 128 * 2 * 2 / 1024),  # 80 × 8 × 128 × 2 × 2 = 327,680 bytes = 320 KiB
])
def test_kv_cache_per_token(model_id: str, kib: float) -> None:
    assert default_knowledge().model(model_id).kv_cache_kib_per_token_16bit == kib


def _vision_tower(merger_out: int) -> int:
    """Qwen2-VL ViT: Conv3d patch embed (no bias), 32 blocks of LayerNorm + qkv/proj + QuickGELU MLP (mlp_ratio 4),
    and the 2×2 patch merger (LayerNorm, 5120 → 5120 → the text width)."""
    patch_embed = 3 * 2 * 14 * 14 * 1280
    block = 2 * 2 * 1280 + (1280 * 3840 + 3840) + (1280 * 1280 + 1280) + (1280 * 5120 + 5120) + (5120 * 1280 + 1280)
    merger = 2 * 1280 + (5120 * 5120 + 5120) + (5120 * merger_out + merger_out)
    return patch_embed + 32 * block + merger


def _text(layers: int, hidden: int, kv_width: int, inter: int, vocab: int, tied: bool) -> int:
    """Qwen2 decoder: q/k/v with bias, o without, gated MLP, two RMSNorms a layer, final norm."""
    layer = (hidden * hidden + hidden) + 2 * (hidden * kv_width + kv_width) + hidden * hidden
    layer += 3 * hidden * inter + 2 * hidden
    return layers * layer + vocab * hidden * (1 if tied else 2) + hidden


def test_vision_tower_is_the_675m_vit() -> None:
    # The Qwen2-VL report's "675M" ViT, merged into the 7B's 3584-wide decoder.
    assert _vision_tower(3584) == 675_759_104


@pytest.mark.parametrize(("model_id", "total"), [
    # Qwen2-1.5B shapes, tied embeddings: 1,543,714,304 + ViT into 1536.
    ("qwen2-vl-2b", _text(28, 1536, 2 * 128, 8960, 151936, True) + _vision_tower(1536)),
    # Qwen2-7B shapes: 7,615,616,512 + 675,759,104.
    ("qwen2-vl-7b", _text(28, 3584, 4 * 128, 18944, 152064, False) + _vision_tower(3584)),
    # Qwen2-72B shapes: 72,706,203,648 + ViT into 8192.
    ("qwen2-vl-72b", _text(80, 8192, 8 * 128, 29568, 152064, False) + _vision_tower(8192)),
])
def test_parameter_count_adds_up(model_id: str, total: int) -> None:
    m = default_knowledge().model(model_id)
    assert m.params_b_computed is not None
    assert abs(m.params_b_computed * 1e9 / total - 1) < 0.02
    assert abs(m.params_b / (total / 1e9) - 1) < 0.02


def test_7b_count_matches_the_checkpoint_size() -> None:
    # model.safetensors.index.json "total_size": 16,582,751,232 bytes of bf16 = 2 bytes a parameter.
    assert _text(28, 3584, 4 * 128, 18944, 152064, False) + _vision_tower(3584) == 16_582_751_232 // 2


@pytest.mark.parametrize("model_id", IDS)
def test_1280x720_image_tokens(model_id: str) -> None:
    spec = default_knowledge().model(model_id).image_tokens
    assert spec is not None
    # smart_resize: round(720 / 28) = 26 rows, round(1280 / 28) = 46 columns → 728 × 1288 = 937,664 pixels, inside
    # [3,136, 12,845,056]; image_grid_thw = (1, 52, 92) patches, 52 × 92 / 2² = 1,196 <|image_pad|> tokens, plus
    # <|vision_start|> and <|vision_end|>.
    assert image_positions(spec, 1280, 720) == 26 * 46 + 2 == 1198


@pytest.mark.parametrize("model_id", IDS)
def test_tiny_image_is_grown_to_the_minimum(model_id: str) -> None:
    spec = default_knowledge().model(model_id).image_tokens
    assert spec is not None
    # 28 × 28 rounds to one token, below min_pixels 3,136 = 4 tokens: scaled up to 2 × 2 tokens.
    assert image_positions(spec, 28, 28) == 2 * 2 + 2


@pytest.mark.parametrize(("query", "model_id"), [
    ("qwen2-vl-7b", "qwen2-vl-7b"),
    ("Qwen2-VL-7B-Instruct", "qwen2-vl-7b"),
    ("qwen2 vl 7b", "qwen2-vl-7b"),
    ("qwen2vl 7b", "qwen2-vl-7b"),
    ("Qwen/Qwen2-VL-7B-Instruct-AWQ", "qwen2-vl-7b"),
    ("Qwen/Qwen2-VL-7B-Instruct-GPTQ-Int8", "qwen2-vl-7b"),
    ("qwen2-vl-2b", "qwen2-vl-2b"),
    ("qwen2 vl 2b", "qwen2-vl-2b"),
    ("Qwen2-VL-72B-Instruct", "qwen2-vl-72b"),
    ("qwen2vl 72b", "qwen2-vl-72b"),
    ("Qwen/Qwen2-VL-72B-Instruct-GPTQ-Int4", "qwen2-vl-72b"),
    # The Qwen2.5-VL and Qwen2 text names still resolve to their own entries.
    ("Qwen2.5-VL-7B-Instruct", "qwen2.5-vl-7b"),
    ("qwen2.5 vl 72b", "qwen2.5-vl-72b"),
    ("qwen2-7b", "qwen2-7b"),
])
def test_lookup(query: str, model_id: str) -> None:
    result = default_knowledge().model_index.lookup(query)
    assert result.best is not None and result.best.id == model_id
    assert result.confident


@pytest.mark.parametrize("model_id", IDS)
def test_official_quants(model_id: str) -> None:
    m = default_knowledge().model(model_id)
    assert set(m.official_quants) == {"awq-int4", "gptq-int4", "gptq-int8"}
    assert m.native_precision == "bf16"
