"""A speed asked for a card named without a count is asked of that one card: "70B Q4_K_M on an RTX 4090: how many
tok/s?" was answered for two 4090s, 5× faster than the one the user has (audit 18 H-3)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_a_speed_asked_on_one_named_card_is_checked_on_it() -> None:
    reply = ask_json("Llama 3.3 70B Q4_K_M on an RTX 4090 with llama.cpp: how many tok/s?")
    assert reply["check"] is not None and reply["check"]["count"] == 1 and not reply["check"]["fits"]
    assert reply["query"]["gpu_count"] == 1
    assert reply["text"].startswith("== Llama 3.3 70B · inference · 1× GeForce RTX 4090 ==")
    # the layers in RAM are what one 4090 can do, and their speed is bounded by the RAM's bandwidth
    offload = next(s for s in reply["check"]["suggestions"] if s["kind"] == "cpu-layers")
    assert offload["gpu_layers"] and offload["host_ram_gb"]


def test_a_count_asked_still_finds_the_count() -> None:
    reply = ask_json("how many RTX 4090s for Llama 3.3 70B Q4_K_M with llama.cpp?")
    assert reply["query"]["gpu_count"] == 2 and reply["picks"][0]["count"] == 2


def test_a_reranker_load_in_traditional_chinese_counts_its_candidates() -> None:
    # 20 queries/s × 50 candidates = 1,000 pairs/s (audit 18 H-5)
    reply = ask_json("Qwen3-Reranker-8B 每秒 20 次查詢，每次 50 個候選文件，需要幾張 A100？")
    assert reply["serving"]["replicas"] > 20


def test_how_many_cards_for_a_request_rate_leads_with_the_plans_count() -> None:
    """Audit 18 M-1: "How many H100s" led with "1× H100" while the serving plan under it needed 2 replicas."""
    reply = ask_json("We expect 5 requests per second with 3k-token prompts and 300-token answers on Mistral Small "
                     "3.1 24B. How many H100s with vLLM?")
    plan, top = reply["serving"], reply["picks"][0]
    assert plan["replicas"] >= 2
    assert (top["gpu"], top["count"]) == (plan["gpu"], plan["replicas"] * plan["gpus_per_replica"])
    assert top["replicas"] == plan["replicas"]
    assert top["price_per_hour"] == reply["cost"]["per_hour"]
    zh = ask_json("vLLM 部署 Llama 3.1 8B，每秒 20 個請求，輸入 1000 token、輸出 200 token，需要幾張 L4？")
    assert zh["picks"][0]["count"] == zh["serving"]["replicas"] * zh["serving"]["gpus_per_replica"]


def test_how_many_of_a_card_named_leads_with_it_when_one_machine_holds_it_tightly() -> None:
    """Audit 18 M-5: "几张 H800" listed 8× H800 (tight, no roomier count in one machine) third, under cards the
    user did not ask about; one machine of the card named is the answer, said tight."""
    reply = ask_json("ERNIE 4.5 300B-A47B 部署要几张 H800？")
    top = reply["picks"][0]
    assert (top["gpu"], top["count"], top["tight"]) == ("h800", 8, True)


def test_each_pick_for_a_request_rate_is_laid_out_as_its_own_plan() -> None:
    """Audit 19 M-1: beside "2× H100 · 4.58 USD/h" the A100 line read "1× A100 · 1.29 USD/h", a card that misses
    the rate at one card's price; each pick now carries the replicas its own plan needs for the same load."""
    reply = ask_json("We expect 5 requests per second with 3k-token prompts and 300-token answers on Mistral Small "
                     "3.1 24B. How many H100s with vLLM?")
    a100 = next(p for p in reply["picks"] if p["gpu"] == "a100-80gb")
    # 15,360 prompt tokens a second against an A100's ≈ 312/989 of an H100's compute: several cards, not one
    assert a100["count"] >= 4 and a100["replicas"] == a100["count"]
    assert a100["price_per_hour"] is None or a100["price_per_hour"] > 4 * 1.0
