"""Data-parallel attention weighed against tensor parallel for many users of an MLA model (audit 38 M-145: a
thread recommended 16 H200s for DeepSeek-V3 with 32 users at 64k, where 8 hold them with data-parallel attention)."""

from __future__ import annotations

from bot.service import Advisor
from tests.bot.reply._answers import ask_json


def test_many_users_of_deepseek_are_served_with_data_parallel_attention_on_half_the_cards() -> None:
    advisor = Advisor(fetch_config=None)
    advisor.respond("DeepSeek-V3 用 H200 部署要几张", "T:dp")
    reply = advisor.respond("fp8 KV cache 呢，64k 上下文，并发 32", "T:dp").answer
    top = reply.picks[0]
    assert (top.gpu, top.count, top.replicas or 1) == ("h200", 8, 1)
    # per card: the fp8 latent, 61 layers × 576 × 1 byte = 34.3 KiB a token, × 65,536 × 32 sequences = 68.6 GiB
    # in all, 8.6 GiB a card when each keeps its own 4 requests (tensor parallel copies all 68.6 to every card)
    assert reply.estimate is not None and 8.0 < reply.estimate.breakdown.kv_cache < 9.0
    assert [a.reason for a in reply.assumptions if a.field == "dp_attention"] == ["dp-attention-cheaper"]


def test_a_few_users_stay_on_tensor_parallel() -> None:
    reply = ask_json("DeepSeek-V3 on H200 for 2 users at 4k context")
    assert reply["picks"][0]["count"] == 8
    assert not [a for a in reply["assumptions"] if a["field"] == "dp_attention"]
    assert "dp-attention" not in reply["estimate"]["notes"]


def test_a_model_without_latent_attention_is_not_weighed() -> None:
    reply = ask_json("Qwen3-235B-A22B on H200, 64k context, 32 concurrent users: how many?")
    assert not [a for a in reply["assumptions"] if a["field"] == "dp_attention"]


def test_an_image_service_beside_a_fine_tune_is_weighed_at_its_rate() -> None:
    # audit 39 HIGH-122: "LoRA Qwen2.5-32B and serve SDXL at 100 images per minute on one 8x A100 box?" was "Yes"
    # from memory alone; the reply's own SDXL figure (≈ 5.9 s an image on an A100) needs 10 cards for the rate
    reply = ask_json("Need to LoRA fine-tune Qwen2.5-32B and at the same time serve SDXL at 100 images per minute — "
                     "is one 8x A100 80GB box enough for both?")
    sdxl = next(part for part in reply["stack"] if part["model"] == "sdxl")
    assert sdxl["serving_cards"] and sdxl["serving_cards"] > 8
    assert "That is memory only" in reply["text"] and "100 images a minute" in reply["text"]
