"""FlashAttention-2 asked for on a card older than Ampere is sized as the SDPA kernels the job falls back to, and
said (audit 24 LOW-40); on an Ampere card it stays."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json as _ask


def test_fa2_on_a_v100_is_sized_without_it() -> None:
    answer = _ask("LLaMA-Factory LoRA on Qwen2.5-7B with flash_attn fa2 on 2x V100 32GB")
    assert any(a["field"] == "flash_attention" and a["reason"] == "fa2-needs-ampere" for a in answer["assumptions"])


def test_fa2_on_an_a100_stays() -> None:
    answer = _ask("LLaMA-Factory LoRA on Qwen2.5-7B with flash_attn fa2 on 2x A100 80GB")
    assert not any(a["reason"] == "fa2-needs-ampere" for a in answer["assumptions"])
