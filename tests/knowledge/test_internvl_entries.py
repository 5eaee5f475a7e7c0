"""InternVL2.5-8B and -78B: the entries load, a question names them, and their images count as the processor does.

InternVL2.5 cuts an image into 448×448 tiles (up to "max_dynamic_patch": 12), adds a thumbnail tile when there is
more than one, and gives each tile (448/14)² × 0.5² = 256 <IMG_CONTEXT> tokens between <img> and </img>.
"""

from __future__ import annotations

import pytest

from knowledge.loader import default_knowledge
from rules.image_tokens import image_positions

IDS = ("internvl2.5-8b", "internvl2.5-78b")


@pytest.mark.parametrize("model_id", IDS)
def test_entry_loads_as_a_tiled_multimodal_model(model_id: str) -> None:
    m = default_knowledge().model(model_id)
    assert m.modality == "multimodal"
    assert m.image_tokens is not None and m.image_tokens.scheme == "tiles"
    assert (m.image_tokens.tile_size, m.image_tokens.tokens_per_tile, m.image_tokens.max_tiles) == (448, 256, 12)
    assert m.image_tokens.thumbnail and m.image_tokens.extra_tokens == 2
    assert m.vision_encoder is not None and m.vision_encoder.tokens_per_image == 13 * 1025
    assert m.source


@pytest.mark.parametrize(("model_id", "attention", "mlp", "params_b"), [
    ("internvl2.5-8b", (32, 4096, 32, 8, 128), (14336, 92553, 32768, False), 8.08),
    ("internvl2.5-78b", (80, 8192, 64, 8, 128), (29568, 151674, 32768, False), 78.41),
])
def test_shapes(model_id: str, attention: tuple[int, ...], mlp: tuple[object, ...], params_b: float) -> None:
    m = default_knowledge().model(model_id)
    assert (m.num_layers, m.hidden_size, m.num_attention_heads, m.num_kv_heads, m.head_dim) == attention
    assert (m.intermediate_size, m.vocab_size, m.max_context, m.tie_embeddings) == mlp
    assert m.params_b == params_b
    # layers × KV heads × head_dim × (K and V) × 2 bytes: 128 KiB a token for the 8B, 320 for the 78B
    layers, _, _, kv_heads, head_dim = attention
    assert m.kv_cache_kib_per_token_16bit == layers * kv_heads * head_dim * 2 * 2 / 1024


def test_parameter_count_of_the_8b_adds_up() -> None:
    """LLM (InternLM2.5-7B: fused wqkv, wo, gated MLP, two RMSNorms a layer, untied lm_head) + InternViT-300M
    + the MLP projector, counted by hand from the config shapes."""
    llm_layer = 4096 * (32 + 2 * 8) * 128 + 4096 * 4096 + 3 * 4096 * 14336 + 2 * 4096
    llm = 32 * llm_layer + 2 * 92553 * 4096 + 4096
    # qkv, proj, fc1, fc2 (with biases), two LayerNorms (weight and bias), two layer scales.
    vit_layer = (1024 * 3072 + 3072) + (1024 * 1024 + 1024) + (1024 * 4096 + 4096) + (4096 * 1024 + 1024)
    vit_layer += 4 * 1024 + 2 * 1024
    vit = 24 * vit_layer + (3 * 14 * 14 * 1024 + 1024) + 1024 + 1025 * 1024
    projector = 2 * 4096 + (4096 * 4096 + 4096) + (4096 * 4096 + 4096)
    total = llm + vit + projector
    assert total == 8_075_365_376
    m = default_knowledge().model("internvl2.5-8b")
    assert m.params_b_computed == pytest.approx(total / 1e9, abs=5e-4)
    assert round(total / 1e9, 2) == m.params_b


@pytest.mark.parametrize("query", ["OpenGVLab/InternVL2_5-8B", "internvl2.5 8b", "InternVL2.5-8B"])
def test_lookup_finds_the_8b(query: str) -> None:
    result = default_knowledge().model_index.lookup(query)
    assert result.best is not None and result.best.id == "internvl2.5-8b"
    assert result.confident


@pytest.mark.parametrize("query", ["OpenGVLab/InternVL2_5-78B", "internvl2.5 78b", "InternVL2_5-78B AWQ"])
def test_lookup_finds_the_78b(query: str) -> None:
    result = default_knowledge().model_index.lookup(query)
    assert result.best is not None and result.best.id == "internvl2.5-78b"


@pytest.mark.parametrize("model_id", IDS)
def test_one_tile_image_takes_256_tokens_and_its_markers(model_id: str) -> None:
    spec = default_knowledge().model(model_id).image_tokens
    assert spec is not None
    # 448×448 is exactly one tile: no thumbnail, 256 <IMG_CONTEXT> + <img> + </img>.
    assert image_positions(spec, 448, 448) == 256 + 2


@pytest.mark.parametrize("model_id", IDS)
def test_large_image_takes_max_tiles_and_the_thumbnail(model_id: str) -> None:
    spec = default_knowledge().model(model_id).image_tokens
    assert spec is not None
    # 4000×3000 would cover 9 × 7 tiles; capped at 12 local tiles, plus the thumbnail: 13 × 256 + 2.
    assert image_positions(spec, 4000, 3000) == 13 * 256 + 2 == 3330
    # A 1024×1024 photo covers 3 × 3 tiles: 9 + thumbnail = 10 tiles.
    assert image_positions(spec, 1024, 1024) == 10 * 256 + 2
