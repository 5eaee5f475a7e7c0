"""The KV cache a token takes on each card, as the max-context line states it (audit 38 M-146): tensor parallel
splits the KV heads, but a card never holds less than one head, nor less than an MLA model's whole latent."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json


@pytest.mark.parametrize(("question", "line"), [
    # Qwen3-235B-A22B: 94 layers × 4 KV heads × 128 × 2 (K, V) × 1 byte (fp8) = 94 KiB a token; over 8 cards each
    # keeps one whole head (4 heads < 8 cards): 94 × 128 × 2 = 23.5 KiB a card, not 94 ÷ 8 ≈ 12
    ("Qwen3-235B-A22B 用 8 张 H20 部署 fp8，KV cache 用 fp8，128k 上下文能支持多少并发？",
     "每个 token 的 KV 缓存每卡占 24 KiB"),
    # Llama 3.1 8B: 32 × 8 × 128 × 2 × 2 bytes = 128 KiB on its one card
    ("what's the max context for Llama 3.1 8B on one 4090?", "Each token's KV cache takes 128 KiB per card"),
    # Llama 3.1 70B: 80 × 8 × 128 × 2 × 2 = 320 KiB, 8 heads over 4 cards: 80 KiB each
    ("longest context for Llama 3.1 70B AWQ on 4x L40S with vLLM?", "Each token's KV cache takes 80 KiB per card"),
])
def test_the_kv_a_token_takes_on_each_card(question: str, line: str) -> None:
    assert line in ask_json(question)["text"]


def test_a_side_by_side_fit_with_little_room_says_so() -> None:
    # audit 38 LOW-215: QLoRA of Qwen2.5-14B used 22.4 GiB of the 4090's 23.5 (1.1 GiB, 4.8%) and read as roomy as
    # the A100's 57 GiB free
    text = ask_json("QLoRA Qwen2.5-14B on 100M tokens: RTX 4090 or A100 80GB, which is better?")["text"]
    rows = {line.split(":")[0]: line for line in text.splitlines() if line.startswith("• ")}
    assert "(only 1.1 GiB free)" in rows["• GeForce RTX 4090"] and "free)" not in rows["• A100 80GB"]
