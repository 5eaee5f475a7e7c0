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


def test_layouts_serving_the_same_load_are_ranked_by_their_bill() -> None:
    # audit 39 M-155: 12 H100 PCIe at 22.80 USD/h were listed after 50 RTX A6000 at 25.00 for the same 500 streams
    reply = ask_json("Whisper large-v3 real-time transcription for 500 concurrent streams — which GPU and how many?")
    picks = reply["picks"]
    assert all(p["replicas"] and p["price_per_hour"] for p in picks)
    bills = [p["price_per_hour"] for p in picks]
    assert bills == sorted(bills)
    # the memory block is the top layout's replica, as the pick line says
    assert reply["estimate"]["per_gpu_gb"] == picks[0]["memory_per_gpu_gb"]
