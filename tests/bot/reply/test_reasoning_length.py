"""A reasoning model served with no length stated says what its makers evaluate it at, and what the same cards
need there (audit 29 LOW-116: R1-Distill-Llama-70B for 64 users was sized at the 4,096 default, silently)."""

from __future__ import annotations

from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_the_makers_length_is_sourced_on_the_models() -> None:
    assert KB.models["deepseek-r1-distill-llama-70b"].details["reasoning_generation_tokens"] == 32768
    assert "reasoning_generation_tokens" not in KB.models["llama-3.1-70b"].details


def test_r1_distill_for_64_users_at_32k_no_longer_fits_the_cards_sized() -> None:
    # KV cache of Llama-3.1-70B: 2 × 80 layers × 8 heads × 128 × 2 B = 320 KiB a token; 64 × 32,768 tokens =
    # 640 GiB, 160 GiB a card over 4 — far past an H100
    reply = ask_json("DeepSeek-R1-Distill-Llama-70B 要幾張 H100 才能跑 64 人同時使用")
    figure = reply["reasoning_length"]
    assert figure["tokens"] == 32768 and figure["count"] == reply["picks"][0]["count"]
    assert not figure["fits"] and figure["per_gpu_gb"] > 160
    assert "是推理模型" in reply["text"] and "32,768" in reply["text"]


def test_a_length_stated_or_a_plain_model_says_nothing() -> None:
    assert ask_json("DeepSeek-R1-Distill-Llama-70B on 4x H100 at 8k context for 16 users")["reasoning_length"] is None
    assert ask_json("Llama-3.1-70B on 4x H100 for 16 users")["reasoning_length"] is None
    fits = ask_json("serve QwQ-32B on 2x A100 80GB for 8 users")["reasoning_length"]
    assert fits is not None and fits["fits"]
