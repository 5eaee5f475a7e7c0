"""KV cache = 2 × layers × KV heads × head dim × tokens × batch × bytes (GQA/MQA/MLA, TP, sliding window)."""

from __future__ import annotations

import pytest

from knowledge.loader import load_knowledge
from knowledge.schema import MLA
from rules import constants as C
from rules.memory import kv_bytes_per_token, kv_cache_bytes, kv_heads_per_gpu
from tests.rules._models import make_model


def test_mha_per_token_and_total() -> None:
    m = make_model()
    # 2 (K and V) × 32 layers × 32 heads × 128 × 2 bytes = 524,288 B = 512 KiB per token.
    assert kv_bytes_per_token(m, 2.0) == 524_288
    # 4,096 tokens × batch 2 × 512 KiB = 4 GiB.
    kv, notes = kv_cache_bytes(m, 4096, 2, 2.0)
    assert kv == 4 * C.GIB
    assert notes == []


def test_gqa_counts_kv_heads_not_hidden_size() -> None:
    # 8 KV heads: 2 × 32 × 8 × 128 × 2 = 131,072 B = 128 KiB (a hidden-size formula would say 512 KiB).
    assert kv_bytes_per_token(make_model(num_kv_heads=8, attention="gqa"), 2.0) == 131_072


def test_mqa_single_head() -> None:
    # Falcon-7B shape: 32 layers × 1 KV head × 64 → 2 × 32 × 1 × 64 × 2 = 8,192 B.
    m = make_model(num_kv_heads=1, head_dim=64, hidden_size=4544, num_attention_heads=71, attention="mqa")
    assert kv_bytes_per_token(m, 2.0) == 8192


def test_mla_caches_latent_plus_rope_key() -> None:
    # DeepSeek-V3: 61 layers × (512 + 64) × 2 bytes = 70,272 B = 68.6 KiB per token, whatever the TP degree.
    m = make_model(num_layers=61, hidden_size=7168, num_attention_heads=128, num_kv_heads=128, head_dim=None,
                   attention="mla", mla=MLA(kv_lora_rank=512, qk_rope_head_dim=64))
    assert kv_bytes_per_token(m, 2.0) == 70_272
    assert kv_bytes_per_token(m, 2.0, tp=8) == 70_272


def test_mla_cached_per_head_holds_k_and_v_for_every_head() -> None:
    # DeepSeek-V2-Lite shape: 27 layers, 16 heads, K 128 + 64 and V 128 per head, 16-bit:
    # 27 × 16 × (192 + 128) × 2 = 276,480 B per token (the latent: 27 × 576 × 2 = 31,104 B).
    m = make_model(num_layers=27, hidden_size=2048, num_attention_heads=16, num_kv_heads=16, head_dim=None,
                   attention="mla", mla=MLA(kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                                            v_head_dim=128))
    assert kv_bytes_per_token(m, 2.0) == 31_104
    assert kv_bytes_per_token(m, 2.0, mla_heads=(192, 128)) == 276_480
    # vLLM before 0.7.0 pads K and V to 256 per head and splits the heads over TP ranks:
    # 27 × 16 × 512 × 2 = 442,368 B; at TP 2, 8 heads each: 221,184 B.
    assert kv_bytes_per_token(m, 2.0, mla_heads=(256, 256)) == 442_368
    assert kv_bytes_per_token(m, 2.0, tp=2, mla_heads=(256, 256)) == 221_184
    assert kv_cache_bytes(m, 1000, 2, 2.0, mla_heads=(192, 128))[0] == 276_480 * 2000


def test_tensor_parallel_splits_kv_heads_with_a_floor_of_one() -> None:
    m = make_model(num_kv_heads=8, attention="gqa")
    assert kv_heads_per_gpu(m, 4) == 2
    assert kv_heads_per_gpu(m, 16) == 1  # max(1, 8/16): vLLM replicates a KV head
    # tp 4: 2 × 32 × 2 × 128 × 2 = 32,768 B per token per card.
    assert kv_bytes_per_token(m, 2.0, tp=4) == 32_768
    assert kv_bytes_per_token(m, 2.0, tp=16) == 16_384


def test_sliding_window_caps_local_layers() -> None:
    m = make_model(sliding_window=4096)
    per_token = 524_288
    kv, notes = kv_cache_bytes(m, 16384, 1, 2.0)
    assert kv == per_token * 4096
    assert "sliding-window" in notes
    # Half the layers local (Gemma-2 style): 0.5 × 4,096 + 0.5 × 16,384 = 10,240 token-equivalents.
    half = make_model(sliding_window=4096, details={"sliding_window_layers": 16})
    assert kv_cache_bytes(half, 16384, 1, 2.0)[0] == per_token * 10240
    # Below the window nothing changes.
    assert kv_cache_bytes(m, 1000, 1, 2.0)[0] == per_token * 1000


def test_vllm_pages_in_blocks_of_16() -> None:
    m = make_model()
    # 1,000 tokens → 63 blocks of 16 = 1,008 tokens.
    assert kv_cache_bytes(m, 1000, 1, 2.0, block=C.VLLM_BLOCK_TOKENS)[0] == 524_288 * 1008


def test_encoders_have_no_kv_cache() -> None:
    assert kv_bytes_per_token(make_model(arch="encoder", modality="encoder"), 2.0) == 0.0


@pytest.mark.parametrize("model_id", ["llama-3-8b", "chatglm2-6b", "falcon-7b", "deepseek-v3", "qwen2.5-7b",
                                      "llama-2-70b", "gemma-2b"])
def test_matches_the_knowledge_base_published_kib_per_token(model_id: str) -> None:
    """The rule reproduces the per-token KV figure each entry's sources state (kv_cache_kib_per_token_16bit)."""
    kb = load_knowledge()
    if model_id not in kb.models:
        pytest.skip(f"{model_id} not in the knowledge base")
    m = kb.model(model_id)
    assert m.kv_cache_kib_per_token_16bit is not None
    assert kv_bytes_per_token(m, 2.0) / 1024 == pytest.approx(m.kv_cache_kib_per_token_16bit, rel=0.01)


def test_hybrid_attention_caches_only_the_full_layers() -> None:
    from knowledge.loader import load_knowledge

    kb = load_knowledge()
    nxt = kb.model("qwen3-next-80b-a3b")
    # 12 of 48 layers keep a full cache (the others are Gated DeltaNet): a quarter of the all-layers figure.
    per_token_all = kv_bytes_per_token(nxt, 2.0)
    hybrid, notes = kv_cache_bytes(nxt, 32_768, 1, 2.0)
    assert hybrid == pytest.approx(per_token_all * 32_768 * 12 / 48)
    assert "hybrid-attention" in notes
    oss = kb.model("gpt-oss-20b")
    # 12 full layers × 32,768 tokens + 12 sliding layers × 128 tokens, of 24 layers.
    per_token = kv_bytes_per_token(oss, 2.0)
    assert kv_cache_bytes(oss, 32_768, 1, 2.0)[0] == pytest.approx(per_token * (12 * 32_768 + 12 * 128) / 24)


def test_encoder_decoder_also_caches_the_sources_cross_attention_once_per_sequence() -> None:
    whisper = load_knowledge().model("whisper-large-v3")
    # Per decoder token: 2 × 32 decoder layers × 20 heads × 64 × 2 B = 163,840 B. Self-attention over 448
    # tokens: 73.4 MB; cross-attention over the 1,500 encoder frames: 245.8 MB; 50 streams: 15.96 GB.
    kv, notes = kv_cache_bytes(whisper, 448, 50, 2.0)
    assert kv == (448 + 1500) * 163_840 * 50
    assert kv / C.GIB == pytest.approx(14.86, abs=0.01)
    assert "cross-attention-kv" in notes
    # A text encoder-decoder has no fixed source: its input is taken as long as the context.
    t5 = make_model(arch="encoder-decoder", num_layers=None, details={"encoder_layers": 24, "decoder_layers": 24})
    per_token = 2 * 24 * 32 * 128 * 2
    assert kv_cache_bytes(t5, 512, 1, 2.0)[0] == per_token * (512 + 512)


def test_llama_4_maverick_keeps_a_chunk_of_kv_in_its_chunked_layers_as_scout_does() -> None:
    from knowledge.loader import load_knowledge
    from rules import kv_cache_bytes

    kb = load_knowledge()
    sized = {m: kv_cache_bytes(kb.models[m], 32768, 1, 2.0)[0] for m in ("llama-4-scout", "llama-4-maverick")}
    # 12 global layers × 32,768 tokens + 36 chunked layers × 8,192, 4 KiB a token-layer: 2.625 GiB
    assert sized["llama-4-maverick"] == sized["llama-4-scout"] == pytest.approx(2.625 * 2**30, rel=0.01)
