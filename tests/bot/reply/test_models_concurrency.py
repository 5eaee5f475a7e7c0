"""'Which holds more concurrent users', two models on one card: the sequences each holds, on a serving engine,
each model's own need (audit 28 M-53: answered with transformers' batch-1 speed, or in English sized as both models
deployed together on the H200)."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json


@pytest.mark.parametrize("text", [
    "Llama 3.1 70B 跟 Qwen2.5-72B 用 FP8 放在一張 H200 上，32k 上下文，哪個能撐比較多並發？",
    "Which holds more concurrent users at 32k context on one H200 with vLLM in FP8: Llama 3.1 70B or Qwen2.5-72B?",
])
def test_each_models_concurrency_is_compared(text: str) -> None:
    reply = ask_json(text)
    rows = reply["model_compare"]
    assert [r["model"] for r in rows] == ["llama-3.1-70b", "qwen2.5-72b"]
    # 320 KiB a token × 32k = 10 GiB a sequence beside ≈ 68-70 GiB of FP8 weights on ≈ 137 GiB: 6 each
    assert [r["max_concurrent_sequences"] for r in rows] == [6, 6]
    assert all(r["per_gpu_gb"] < 100 for r in rows)  # each model's need, not vLLM's reservation of the card
    assert reply["query"]["engine"] == "vllm"
    assert not reply.get("stack")


def test_the_verdict_says_the_sequences_first() -> None:
    text = ask_json("Which holds more concurrent users at 32k context on one H200 with vLLM in FP8: Llama 3.1 70B "
                    "or Qwen2.5-72B?")["text"]
    assert "In short: they hold the same number of sequences at once here, 6 each" in text
