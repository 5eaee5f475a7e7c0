"""A model released in its own INT4 format is sized in that format, not as GPTQ (audit 27 LOW-70: Kimi K2
Thinking's INT4 experts, group 32, read as GPTQ group 128 over a rounded 1T: 60.9 GiB a card on 8 where ≈ 69)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json

S10 = "Kimi K2 Thinking 用官方发布的 INT4 权重，vLLM 部署在 8 张 H20 上，128k 上下文，并发 8，能跑吗？"


def test_kimi_k2_thinking_is_sized_in_its_released_int4_experts() -> None:
    reply = ask_json(S10)
    assert reply["query"]["quant"] == "int4-experts-g32"
    assert any(a.get("field") == "quant" and a.get("reason") == "native-format" for a in reply["assumptions"])
    line = next(line for line in reply["text"].splitlines() if line.startswith("• 权重"))
    assert "69.2 GiB" in line  # 595 GB over 8 cards
    assert reply["check"]["fits"] is False  # 549 GiB of MLA cache on top: the "不行" stands


def test_llama_cpp_still_takes_a_gguf() -> None:
    reply = ask_json("Kimi K2 Thinking in llama.cpp on 8x H200")
    assert str(reply["query"]["quant"]).startswith("gguf")
