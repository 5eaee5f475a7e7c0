"""MiniCPM (MiniCPM-V 2.6, MiniCPM3-4B, MiniCPM4-8B) and LLaVA (1.5 7B/13B, 1.6 Mistral 7B): the entries load, a
question names them, and their KV cache, parameter counts and image positions are what the shapes give by hand.

Expected values are computed here from the config shapes quoted in the entries' sources, never read back from them.
"""

from __future__ import annotations

import pytest

from knowledge.loader import default_knowledge
from rules.image_tokens import image_positions


@pytest.mark.parametrize(("model_id", "shape", "kib"), [
    # layers × KV heads × head_dim × (K and V) × 2 bytes / 1024
    ("minicpm-v-2.6", (28, 3584, 28, 4, 128), 28 * 4 * 128 * 2 * 2 / 1024),  # 56 KiB
    ("minicpm4-8b", (32, 4096, 32, 2, 128), 32 * 2 * 128 * 2 * 2 / 1024),  # 32 KiB
    ("llava-1.5-7b", (32, 4096, 32, 32, 128), 32 * 32 * 128 * 2 * 2 / 1024),  # 512 KiB
    ("llava-1.5-13b", (40, 5120, 40, 40, 128), 40 * 40 * 128 * 2 * 2 / 1024),  # 800 KiB
    ("llava-v1.6-mistral-7b", (32, 4096, 32, 8, 128), 32 * 8 * 128 * 2 * 2 / 1024),  # 128 KiB
])
def test_shapes_and_kv_cache(model_id: str, shape: tuple[int, ...], kib: float) -> None:
    m = default_knowledge().model(model_id)
    assert (m.num_layers, m.hidden_size, m.num_attention_heads, m.num_kv_heads, m.head_dim) == shape
    assert m.kv_cache_kib_per_token_16bit == kib


def test_minicpm3_caches_the_mla_latent() -> None:
    m = default_knowledge().model("minicpm3-4b")
    assert m.attention == "mla" and m.mla is not None
    assert (m.mla.kv_lora_rank, m.mla.qk_rope_head_dim, m.mla.q_lora_rank) == (256, 32, 768)
    # 62 layers × (256 latent + 32 rope key) × 2 bytes = 35,712 bytes = 34.875 KiB
    assert m.kv_cache_kib_per_token_16bit == 62 * (256 + 32) * 2 / 1024 == 34.875


def _clip_vit_l_336() -> int:
    # q, k, v, o with biases; fc1, fc2 with biases; two LayerNorms (weight and bias)
    layer = 4 * (1024 * 1024 + 1024) + (1024 * 4096 + 4096) + (4096 * 1024 + 1024) + 4 * 1024
    # patch conv (no bias), class token, 577 positions, pre and post LayerNorms
    return 24 * layer + 3 * 14 * 14 * 1024 + 1024 + 577 * 1024 + 2 * 2 * 1024


def _llama(layers: int, hidden: int, heads: int, kv_heads: int, ffn: int, vocab: int, *, tied: bool) -> int:
    layer = 2 * hidden * heads * 128 + 2 * hidden * kv_heads * 128 + 3 * hidden * ffn + 2 * hidden
    return layers * layer + (1 if tied else 2) * vocab * hidden + hidden


def _minicpm_v_26() -> int:
    qwen_layer = (3584 * 3584 + 3584) + 2 * (3584 * 512 + 512) + 3584 * 3584 + 3 * 3584 * 18944 + 2 * 3584
    qwen = 28 * qwen_layer + 2 * 151666 * 3584 + 3584
    siglip_layer = 4 * (1152 * 1152 + 1152) + (1152 * 4304 + 4304) + (4304 * 1152 + 1152) + 4 * 1152
    siglip = 27 * siglip_layer + (3 * 14 * 14 * 1152 + 1152) + 4900 * 1152 + 2 * 1152
    # queries, kv_proj, MultiheadAttention (in_proj with bias, out_proj with bias), three LayerNorms, proj
    resampler = 64 * 3584 + 1152 * 3584 + (3 * 3584 * 3584 + 3 * 3584) + (3584 * 3584 + 3584) + 3 * 2 * 3584
    resampler += 3584 * 3584
    return qwen + siglip + resampler


def _minicpm3_4b() -> int:
    attn = 2560 * 768 + 768 + 768 * 40 * 96 + 2560 * (256 + 32) + 256 + 256 * 40 * (64 + 64) + 40 * 64 * 2560
    layer = attn + 3 * 2560 * 6400 + 2 * 2560
    return 62 * layer + 73448 * 2560 + 2560  # tied lm_head


@pytest.mark.parametrize(("model_id", "count", "expected"), [
    ("llava-1.5-7b", _llama(32, 4096, 32, 32, 11008, 32064, tied=False) + _clip_vit_l_336()
     + (1024 * 4096 + 4096) + (4096 * 4096 + 4096), 7_063_427_072),
    ("llava-1.5-13b", _llama(40, 5120, 40, 40, 13824, 32064, tied=False) + _clip_vit_l_336()
     + (1024 * 5120 + 5120) + (5120 * 5120 + 5120), 13_351_494_656),
    ("llava-v1.6-mistral-7b", _llama(32, 4096, 32, 8, 14336, 32064, tied=False) + _clip_vit_l_336()
     + (1024 * 4096 + 4096) + (4096 * 4096 + 4096) + 4096, 7_566_747_648),
    ("minicpm-v-2.6", _minicpm_v_26(), 8_099_175_152),
    ("minicpm3-4b", _minicpm3_4b(), 4_073_875_968),
    ("minicpm4-8b", _llama(32, 4096, 32, 2, 16384, 73448, tied=True), 7_884_410_880),
])
def test_parameter_counts_add_up(model_id: str, count: int, expected: int) -> None:
    assert count == expected
    m = default_knowledge().model(model_id)
    assert m.params_b_computed == pytest.approx(count / 1e9, abs=5e-4)
    assert m.params_b == pytest.approx(count / 1e9, rel=0.02)


@pytest.mark.parametrize("model_id", ["llava-1.5-7b", "llava-1.5-13b"])
def test_llava_15_image_is_576_positions(model_id: str) -> None:
    spec = default_knowledge().model(model_id).image_tokens
    assert spec is not None
    # (336 / 14)² = 576 patches, class token dropped, whatever the image's size
    assert image_positions(spec, 336, 336) == image_positions(spec, 4000, 3000) == 576


def test_llava_next_1024_photo_takes_2928_positions() -> None:
    spec = default_knowledge().model("llava-v1.6-mistral-7b").image_tokens
    assert spec is not None
    # 672×672 pinpoint: 48 × 48 features + 48 newlines, plus the 24 × 24 base image
    assert image_positions(spec, 1024, 1024) == 48 * 48 + 48 + 576 == 2928


def test_minicpm_v_image_positions() -> None:
    spec = default_knowledge().model("minicpm-v-2.6").image_tokens
    assert spec is not None
    # one 448×448 image: <image_id>0</image_id> (3) + <image> 64 × <unk> </image>
    assert image_positions(spec, 448, 448) == 3 + 1 + 64 + 1 == 69
    # 1344×1344 (the card's 1.8 MP): source + 3 × 3 slices of 64, each slice in <slice></slice>
    assert image_positions(spec, 1344, 1344) == 10 * 64 + 9 * 2 + 5 == 663


@pytest.mark.parametrize(("query", "model_id"), [
    ("minicpm-v 2.6", "minicpm-v-2.6"),
    ("MiniCPM-V2.6", "minicpm-v-2.6"),
    ("openbmb/MiniCPM-V-2_6", "minicpm-v-2.6"),
    ("MiniCPM3-4B", "minicpm3-4b"),
    ("minicpm4 8b", "minicpm4-8b"),
    ("llava 1.5 7b", "llava-1.5-7b"),
    ("llava-hf/llava-1.5-13b-hf", "llava-1.5-13b"),
    ("llava-next", "llava-v1.6-mistral-7b"),
    ("llava1.6", "llava-v1.6-mistral-7b"),
])
def test_lookup_finds_them(query: str, model_id: str) -> None:
    result = default_knowledge().model_index.lookup(query)
    assert result.best is not None and result.best.id == model_id
    assert result.confident
