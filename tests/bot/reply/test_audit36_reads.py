"""Audit 36's readings, each on the audit's own question with a control beside it."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "written"), [
    ("deepseek coder 6.7b, 16k context, 8 concurrent users, what GPU?", "deepseek coder 6.7b"),
    ("🚀 deepseek coder 33b 🤔 on 2x 3090?", "deepseek coder 33b"),
])
def test_an_unknown_name_before_a_size_is_said_to_be_unknown(text: str, written: str) -> None:
    # HIGH 110: "deepseek coder 6.7b" was sized as a generic model without a word; "deepseek-coder-6.7b" said so
    question = parse(text, KB)
    assert question.model is None and question.model_text == written
    assert f"I don't know “{written}”" in ask_json(text)["text"]


@pytest.mark.parametrize("text", ["what GPU for a 7b model", "serve the 70B with vllm", "can I run 7B on a T4",
                                  "need something like 7b for chat", "fp16 7b on a T4"])
def test_a_size_alone_names_no_model(text: str) -> None:
    assert parse(text, KB).model_text is None


def test_two_jobs_joined_by_and_are_two_jobs() -> None:
    # HIGH 111: "serve Llama-3.1-8B … AND LoRA fine-tune Mistral-7B" was answered as a LoRA of Llama 3.1 8B
    question = parse("we need to serve Llama-3.1-8B for chat AND LoRA fine-tune Mistral-7B nightly, what GPUs?", KB)
    assert question.model == "llama-3.1-8b" and question.task == "inference"
    assert any("Mistral-7B" in other for other in question.other_jobs)
    # one model with two tasks stays one question
    one = parse("LoRA fine-tune and serve Llama-3-8B on one A100", KB)
    assert one.other_jobs == [] and one.model == "llama-3-8b"


def test_machines_in_a_follow_up_are_the_thread_s_cards_a_machine_times_them() -> None:
    # M-133: "what if we use 2 nodes?" after one node of 8× H100 was "I didn't understand"; 2 × 8 = 16 H100s, half
    # the hours at the same GPU-hours
    from tests.bot.reply._answers import thread

    question = thread("pretrain a 3B model on 200B tokens on one node of 8x H100, how long?", "what if we use 2 nodes?")
    assert (question.gpu, question.gpu_count) == ("h100-sxm", 16)
    assert thread("Qwen2.5-32B 推理，用 vLLM，20 并发，上下文 8k，用什么卡", "按月租多少").asks_cost


def test_a_question_announced_after_a_long_brief_is_the_one_answered() -> None:
    # HIGH 112: the 2,960-character brief ending "So the question: which GPUs and how many for Qwen2.5-14B serving 25
    # concurrent users at 6k context…" was sized as Mistral NeMo 12B (a model of its background) against Qwen-14B v1
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "long_brief_question_last.txt").read_text(encoding="utf-8")
    question = parse(text, KB)
    assert question.model == "qwen2.5-14b" and question.batch == 25 and question.compare_models == []
    # without the announcing words, the brief is read as before
    assert parse("Llama-3.1-8B was weak. What GPU for Qwen2.5-14B at 8k?", KB).model is not None


def test_the_memory_block_of_a_comparison_is_one_of_its_rows() -> None:
    # HIGH 113: "8x 4090 vs 1x A100" showed 59.3 GiB a card over 8 GPUs (8 A100s without checkpointing) above rows
    # of 8× 4090 at 8.2 GiB and 1× A100 at 33.5
    answer = ask_json("8x 4090 vs 1x A100 80GB for LoRA of a 14B model, which is cheaper?")
    rows = {(p["gpu"], p["count"]): p["memory_per_gpu_gb"] for p in answer["picks"]}
    assert any(abs(answer["estimate"]["per_gpu_gb"] - need) < 0.05 for need in rows.values())


def test_a_kv_cache_quantised_leaves_the_weights_as_released() -> None:
    # M-136: "KV cache 用 int8 量化後" also made the weights int8 (15.1 GiB) without a word; as released they are
    # bf16, 14.7e9 × 2 bytes = 27.4 GiB, more than a 24 GB card
    question = parse("KV cache 用 int8 量化後，Qwen2.5-14B 在 24G 卡上最長上下文能到多少？", KB)
    assert question.kv_cache == "int8" and question.precision is None
    assert parse("Qwen2.5-14B 量化后在 24G 卡上", KB).precision == "int8"  # a bare 量化 of the model still is


def test_concurrency_on_a_card_the_weights_overflow_is_given_at_the_fix() -> None:
    # M-139: one L20 (43.5 GiB usable) cannot hold Qwen3-30B-A3B's bf16 weights; in FP8 it needs 30.9 GiB with one
    # 8k sequence of FP8 KV (2 × 48 layers × 4 × 128 × 1 byte = 48 KiB a token, 0.375 GiB), so about
    # (43.45 − 30.89 + 0.38) / 0.38 ≈ 34 sequences
    text = ask_json("Qwen3-30B-A3B 用 vLLM，fp8 kv cache，单卡 L20，上下文 8k，最多多少并发")["text"]
    assert "改用 FP8 后，1 张 L20 可容纳 34 条 8,192 token 的序列" in text


def test_a_model_s_release_format_is_offered_as_its_checkpoint() -> None:
    # LOW-206: DeepSeek-R1 is released in FP8; the fix read "量化到 FP8 (--quantization fp8)"
    text = ask_json("DeepSeek-R1 用 2 台 8卡 H800 部署 bf16 行不行")["text"]
    assert "官方发布的 FP8 权重" in text and "量化到 FP8" not in text


def test_an_rl_job_s_rollout_engine_is_said_not_sized_and_not_read_as_the_trainer() -> None:
    # M-137: "GRPO … with vLLM rollouts" was read back as vLLM training, the rollout engine only in Assumed
    answer = ask_json("GRPO on Qwen2.5-7B with vLLM rollouts, how many GPUs do I need?")
    assert answer["query"]["engine"] != "vllm"
    assert "Not sized here: the vLLM engine that generates the rollouts" in answer["text"]
    assert "· vllm" not in answer["text"].lower().split("i read this as:")[1].splitlines()[0]
