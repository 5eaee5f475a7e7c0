"""Live speech streams: the memory block is one replica's at its share of the streams, as the pick line says
(audit 39 M-158: sized at the 177 streams a card's memory holds while each replica serves 10; ≈ 2,243 GiB said
for all 50 replicas where they need ≈ 296)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_the_memory_block_is_one_replica_at_its_share_of_the_streams() -> None:
    reply = ask_json("Whisper large-v3 real-time transcription for 500 concurrent streams — which GPU and how many?")
    top = reply["picks"][0]
    replicas = top["replicas"]
    assert replicas and top["count"] == replicas  # one card a replica
    # large-v3's cross-attention cache: 32 decoder layers × K and V × 1,500 frames × 1,280 × 2 bytes = 246 MB a
    # stream; 500 / 50 replicas = 10 streams ≈ 2.3 GiB beside 2.9 GiB of weights
    assert reply["estimate"]["per_gpu_gb"] == top["memory_per_gpu_gb"]
    assert reply["estimate"]["breakdown"]["kv_cache"] < 0.3 * -(-500 // replicas)
