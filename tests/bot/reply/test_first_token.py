"""A complaint about a slow first token gets one prompt's prefill time on the cards and what shortens it (audit 31
M-92: a memory "Yes" with no first-token figure and no fix)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_the_prefill_time_and_the_fixes_are_said() -> None:
    reply = ask_json("we serve llama-3.1-8b on 1 L4 with vllm, users complain about slow first token at 6k prompts. "
                     "fix?")
    rate = reply["speed"]["prefill_tokens_per_s"]
    seconds = 6144 / rate  # one prompt alone, compute-bound
    assert f"one 6,144-token prompt alone takes ≈ {seconds:.1f} s on 1× L4" in reply["text"]
    assert "--enable-prefix-caching" in reply["text"] and "FP8 weights" in reply["text"]  # the L4 is an Ada card


def test_in_chinese_and_on_a_card_without_fp8() -> None:
    text = ask_json("qwen2.5-7b 用 vllm 跑在一张 A10 上，首 token 太慢，提示 8k，怎么办")["text"]
    assert "首 token 要等整段提示预填充完" in text and "FP8 权重" not in text  # the A10 (Ampere) has no FP8


def test_no_complaint_no_line() -> None:
    assert "prompt's prefill" not in ask_json("llama-3.1-8b on 1 L4 with vllm at 6k prompts")["text"]
