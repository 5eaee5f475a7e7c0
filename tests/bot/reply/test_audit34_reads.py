"""Audit 34's HIGH readings, each on the audit's own question with a control beside it."""

from __future__ import annotations

import math

import pytest

from bot.understand.lang import detect_lang
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "people"), [
    ("qwen3-coder-30b-a3b as a copilot backend for a 50-dev team, vLLM, 32k ctx — what should we buy?", 50),
    ("Llama-3-70B chat for a team of 40 engineers", 40),
    ("部署 Qwen2.5-32B 给 30 人的研发团队用，4 张 A100", 30),
    ("我們團隊 20 人要用 Qwen2.5-14B", 20),
])
def test_a_team_counted_is_the_people_served(text: str, people: int) -> None:
    # HIGH 100: "for a 50-dev team" was dropped and one user sized ("batch 1 (not stated)")
    assert parse(text, KB).batch == people


def test_a_team_that_trains_or_counts_cards_is_no_load() -> None:
    assert parse("team of 5 wants to fine-tune Llama-3-8B with LoRA", KB).batch is None
    assert parse("a team of 8 GPUs for llama 70b", KB).batch is None


@pytest.mark.parametrize("text", [
    "vLLM 报错：torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
    "of 23.65 GiB of which 1.20 GiB is free. 模型是 Qwen2.5-14B-Instruct，--max-model-len 32768，卡是 4090，怎么办？",
    "CUDA out of memory 报错了：Tried to allocate 2.00 GiB. 模型 Qwen2.5-14B-Instruct，vLLM，4090，怎么办？",
])
def test_a_chinese_question_quoting_an_english_error_is_answered_in_chinese(text: str) -> None:
    # HIGH 99: the quoted exception's English words outnumbered the Chinese characters
    assert detect_lang(text) == "zh-Hans"
    assert ask_json(text)["query"]["lang"] == "zh-Hans"


def test_an_english_question_naming_a_chinese_model_stays_english() -> None:
    assert detect_lang("I get CUDA out of memory with 通义千问 on my 4090, what do I do?") == "en"


@pytest.mark.parametrize("text", ["CLIP ViT-L/14 每秒编码 2000 张图片，需要几张 T4？",
                                  "CLIP ViT-L/14: we need to encode 2000 images per second. How many T4s?"])
def test_an_encoding_rate_takes_the_cards_that_keep_up(text: str) -> None:
    # HIGH 97: read as a job of 2,000 images (one T4, 11 seconds); at the reply's own rate a T4 embeds ≈ 201 a
    # second, so 2,000 a second take ceil(2000 / 201) = 10 of them
    assert parse(text, KB).image_count is None
    answer = ask_json(text)
    plan = answer["serving"]
    rate = answer["speed"]["images_embedded_per_s"]
    assert plan["binding"] == "embedded_images" and plan["replicas"] == math.ceil(2000 / rate)
    assert 8 <= plan["replicas"] <= 12


def test_an_encoding_job_of_a_count_is_still_a_job() -> None:
    assert parse("embed 100M images with CLIP ViT-L/14 on 4 L4", KB).image_count == 100_000_000


@pytest.mark.parametrize(("text", "held"), [
    # GLM-4-9B: KV 2 × 40 layers × 2 KV heads × 128 × 2 bytes = 40 KiB a token, 0.31 GiB at 8,192 tokens;
    # 0.85 of a 24 GB card leaves 1.3 GiB beside weights and activations → 4; the whole card 3.4 GiB → 10
    ("GLM-4-9B 用 vLLM，gpu_memory_utilization 0.85，24G 的卡，上下文 8k，最多几路并发？", 4),
    ("GLM-4-9B on a 24GB card with vLLM at 8k context: how many concurrent users can it handle?", 10),
])
def test_concurrency_on_a_card_known_by_its_memory_is_answered(text: str, held: int) -> None:
    # HIGH 98: a Yes for one sequence and no count on the card asked about
    reply = ask_json(text)["text"]
    assert (f"hold {held} sequence(s) of 8,192 tokens" in reply) or (f"只能容纳 {held} 条 8,192 token" in reply)


def test_a_moe_of_stated_active_parameters_is_timed_on_them() -> None:
    # HIGH 101: "314B MoE with 86B active" was timed as a dense 314B (every weight read each token)
    moe = ask_json("What GPU do I need for a 314B MoE model with 86B active parameters in int8?")
    dense = ask_json("What GPU do I need for a 314B model in int8?")
    assert moe["query"]["params_b"] == 314
    assert moe["picks"][0]["memory_per_gpu_gb"] == pytest.approx(dense["picks"][0]["memory_per_gpu_gb"], rel=0.02)
    assert moe["picks"][0]["decode_tokens_per_s"] > 1.5 * dense["picks"][0]["decode_tokens_per_s"]
    assert "86B active" in moe["text"]
    assert parse("一个 235B 的 MoE 模型，激活参数 22B，fp8 推理要几张 H100", KB).active_params_b == 22


def test_a_misspelt_name_with_its_version_written_is_that_release() -> None:
    # LOW-192: "mistrall 7b" ties Mistral 7B's three releases; the "v0.3" after it names one
    assert parse("mistrall 7b instuct v0.3 awq on a 4070 at 8k?", KB).model == "mistral-7b-v0.3"
    assert parse("mistrall 7b on a T4?", KB).model is None  # no version: still asked which


def test_faster_whisper_is_a_runtime_not_a_fine_tune() -> None:
    # LOW-193: "faster-whisper large-v2 … a fine-tune has its base's size and speed"
    text = ask_json("faster-whisper large-v2 on a 1080 Ti, how fast?")["text"]
    assert "fine-tune" not in text


def test_the_same_room_on_both_cards_is_no_one_s_advantage() -> None:
    # LOW-191: "8× A100 80GB leaves the most room (16.0 GiB free a card)" when both leave 16.0 GiB
    text = ask_json("A100 80GB vs H100 SXM for full fine-tuning Mistral-7B with DeepSpeed ZeRO-2 on 8 GPUs, seq 4096 — "
                    "which is cheaper for 1B tokens?")["text"]
    assert "leaves the most room" not in text


@pytest.mark.parametrize("text", ["llama 3 8b Q7 on a 3060", "\U0005cff5\x17Q7\U0010592b\x1bT\x84"])
def test_a_gguf_level_with_no_such_type_is_no_format(text: str) -> None:
    # found by the never-crash property test: "Q7" became "gguf-q7_k", which no rule knows (a ValueError)
    assert parse(text, KB).quant is None
    ask_json(text)  # answered, not raised


def test_a_data_parallel_engine_s_figure_says_each_card_holds_a_copy() -> None:
    # LOW-194: "若用 Unsloth 而不是 transformers，每卡需要 64.8 GiB" read as Unsloth needing more memory
    text = ask_json("我們想買 4 張 RTX 5090 做 Qwen2.5-32B 的 LoRA 微調，序列長度 8k，夠嗎？")["text"]
    assert "Unsloth 按資料並行，不切分模型：每張卡都放一整份" in text
