"""A precision asked for with none named: the formats the cards run, side by side (audit 29 HIGH 51: "… and in
what precision?" beside an nvidia-smi table of 4 L40S was sized in bf16 alone, FP8 never offered)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.understand.parse import parse
from bot.understand.slots.formats import asks_which_format
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
SMI = (Path(__file__).parent / "smi_four_l40s_two_busy.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [
    "Can we run Llama-3.3-70B on it for ~10 users, and in what precision?",
    "which precision should I use for qwen 72b on 2 H100",
    "what quantization fits a 4090 for llama 70b",
    "Qwen2.5-72B 在 4 张 L40S 上用什么精度",
    "4090 跑 32B 该选什么量化",
])
def test_a_precision_asked_for(text: str) -> None:
    assert asks_which_format(text)


@pytest.mark.parametrize("text", ["what is quantization?", "the precision is bf16",
                                  "what precision is the model released in", "用 fp8 还是 awq"])
def test_no_precision_asked_for(text: str) -> None:
    assert not asks_which_format(text)


def test_a_precision_named_is_no_question() -> None:
    assert not parse("which precision should I use, fp8? Llama-3.1-70B on 2 H100", KB).asks_precision


def test_on_the_two_free_l40s_fp8_is_tight_and_awq_roomy() -> None:
    # Llama-3.3-70B over 2 free L40S (44.5 GiB usable each): FP8 weights ≈ 65.7 GiB → 32.9 a card, + 10 × 4k of
    # KV cache (1.25 GiB a sequence at 16 bits) over 2 and working memory ≈ 42 a card; bf16 twice the weights
    reply = ask_json(SMI)
    rows = {r["format"]: r for r in reply["model_compare"]}
    assert list(rows) == ["bf16", "fp8", "awq"]
    assert all(r["count"] == 2 and r["gpu"] == "l40s" for r in rows.values())
    assert not rows["bf16"]["fits"] and rows["fp8"]["fits"] and rows["awq"]["fits"]
    assert 40 < rows["fp8"]["per_gpu_gb"] < 43.5 and rows["awq"]["per_gpu_gb"] < 30
    assert "does not fit on 2× L40S" in reply["text"]


def test_the_formats_follow_the_card() -> None:
    t4 = [r["format"] for r in ask_json("which precision should I use for Llama-3.1-8B on a T4?")["model_compare"]]
    assert t4 == ["fp16", "int8", "awq"]  # no bf16 and no FP8 path of any engine on Turing
    h100 = ask_json("Llama-3.1-70B on 2x H100, what precision should I run?")["model_compare"]
    assert [r["format"] for r in h100] == ["bf16", "fp8", "awq"]
    assert all(r["count"] == 2 for r in h100)


def test_a_four_bit_release_weighs_nothing_smaller() -> None:
    assert ask_json("gpt-oss-120b on an H100, in what precision?")["model_compare"] == []


def test_what_quant_to_use_names_no_format_and_ollama_weighs_its_gguf_ladder() -> None:
    # audit 38 HIGH-117: the bare "quant" of "what quant do I need" was sized as INT8 (53.6 GiB, an A100 picked)
    text = "Mixtral 8x7B with ollama on a single RTX 3090 — what quant do I need and how many tok/s?"
    question = parse(text, KB)
    assert question.asks_precision and question.precision is None and "quant-bits-assumed" not in question.notes
    rows = {r["format"]: r for r in ask_json(text)["model_compare"]}
    assert list(rows) == ["q8_0", "q4_k_m", "q3_k_m", "q2_k"]
    # Mixtral 8x7B, 46.7B parameters: Q2_K (≈ 2.6 bits) ≈ 15 GiB of weights is the one that fits 23.5 GiB
    assert [r["fits"] for r in rows.values()] == [False, False, False, True]
    assert rows["q8_0"]["per_gpu_gb"] > rows["q4_k_m"]["per_gpu_gb"] > rows["q2_k"]["per_gpu_gb"]


def test_a_quantised_model_with_no_question_about_the_format_is_still_read_as_int8() -> None:
    question = parse("Mixtral 8x7B quantized with ollama on a single RTX 3090", KB)
    assert question.precision == "int8" and "quant-bits-assumed" in question.notes and not question.asks_precision
