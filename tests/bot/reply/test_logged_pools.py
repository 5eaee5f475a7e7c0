"""The KV-cache pool a pasted SGLang or LMDeploy start-up log prints is read as vLLM's is (audit 31 M-83, M-85):
what it holds at the requests' length, each user's share when more are asked for, and what shorter requests get."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
SGLANG = Path(__file__).with_name("sglang_pool_paste.txt").read_text(encoding="utf-8")
LMDEPLOY = Path(__file__).with_name("lmdeploy_pool_paste.txt").read_text(encoding="utf-8")


def test_the_pools_are_read_with_the_length_flags() -> None:
    sglang, lmdeploy = parse(SGLANG, KB), parse(LMDEPLOY, KB)
    assert (sglang.logged_kv_tokens, sglang.context, sglang.batch) == (28_418, 32_768, 50)  # "#tokens: 28418"
    assert (lmdeploy.logged_kv_tokens, lmdeploy.context) == (66_624, 32_768)  # "max cached tokens", --session-len


def test_fifty_chats_in_the_sglang_pool_are_each_a_few_hundred_tokens() -> None:
    text = ask_json(SGLANG)["text"]
    # 28,418 < 32,768: not one full-length request; 28,418 // 50 = 568 tokens each
    assert "holds 28,418 tokens: not one request of 32,768 tokens fits it whole" in text
    assert "50 at once fit that cache only while each stays under ≈ 568 tokens" in text


def test_the_lmdeploy_pool_at_the_session_length_and_at_chat_length() -> None:
    text = ask_json(LMDEPLOY)["text"]
    # 66,624 // 32,768 = 2 sessions at the cap; 66,624 // 4,096 = 16 chat-sized requests
    assert "holds 66,624 tokens: that is 2 requests of 32,768 tokens" in text and "it holds 16 at once" in text


def test_requests_waiting_on_a_full_cache_are_said_why() -> None:
    # audit 31 M-93: vLLM's metrics ("Running: 10 reqs, … Pending: 14 reqs, GPU KV cache usage: 99.8%") under
    # "why are requests pending?" had brought an unrelated FAQ
    paste = Path(__file__).with_name("vllm_metrics_pending_paste.txt").read_text(encoding="utf-8")
    question = parse(paste, KB)
    assert question.intent == "check" and question.logged_queue == [10.0, 14.0, 99.8]
    text = ask_json(paste)["text"]
    assert "KV cache 99.8% full with 10 requests running and 14 waiting" in text and "--kv-cache-dtype fp8" in text


def test_two_kv_cache_types_set_side_by_side_give_both_sizes() -> None:
    # audit 31 LOW-147: "KV cache 用 int8 和 fp16 比 … 差多少显存" gave only the int8 side
    question = parse("Qwen2.5-7B 推理 KV cache 用 int8 和 fp16 比，32k 上下文 20 并发，差多少显存？", KB)
    assert (question.kv_cache, question.other_kv_cache, question.precision) == ("int8", "fp16", None)
    text = ask_json("Qwen2.5-7B 推理 KV cache 用 int8 和 fp16 比，32k 上下文 20 并发，差多少显存？")["text"]
    # 28 layers × 4 KV heads × 128 × 2 (K and V) × 2 bytes = 56 KiB a token; × 32,768 × 20 = 35.0 GiB at fp16
    assert "KV 缓存用 fp16 需 35.0 GiB" in text and "相差 17.5 GiB" in text
