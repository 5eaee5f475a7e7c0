"""Audit 37's readings, each on the audit's own question with a control beside it."""

from __future__ import annotations

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_a_count_of_bi_of_data_in_traditional_chinese_is_the_samples() -> None:
    # HIGH 114: "5000 筆資料" was dropped and "要多久" got no time ("5000 条数据" got one)
    question = parse("Gemma 3 27B QLoRA 微調，單張 4090 可以嗎？5000 筆資料要多久", KB)
    assert question.training_samples == 5000
    assert parse("2 萬筆資料", KB).training_samples == 20_000
    assert parse("部署资料库", KB).training_samples is None


def test_the_verb_before_an_unknown_name_is_not_part_of_it() -> None:
    # LOW-207: "can minicpm4 8b" was echoed as the name
    assert parse("can minicpm4 8b run on my 3060?", KB).model_text == "minicpm4 8b"


def test_a_family_with_one_release_is_that_release() -> None:
    # LOW-210: "InternLM3" alone was unknown though InternLM3-8B is its only release here
    question = parse("InternLM3 在 V100 32G 上能跑嗎", KB)
    assert question.model == "internlm3-8b" and question.family_release
    assert parse("qwen3 on a 4090", KB).model is None  # several releases: which one is asked
    assert "InternLM3-8B" in ask_json("InternLM3 在 V100 32G 上能跑嗎")["text"]


def test_fewer_cards_in_tensor_parallel_are_said_beside_one_card_replicas() -> None:
    # M-143: 3 one-card L20 replicas for Phi-4 at 50 concurrent, where 2 L20s in TP hold it: KV 200 KiB a token ×
    # 4,096 × 50 = 39.1 GiB plus 27.4 GiB of weights ≈ 69 GiB over two 43.5 GiB cards
    answer = ask_json("phi4 14b 并发50 需要几张L20")
    fewer = answer["fewer_in_tp"]
    assert fewer is not None and fewer["count"] == 2 and fewer["replica_cards"] == 3
    assert "用张量并行的 2× L20 也能容纳全部 50 路" in answer["text"]


def test_a_large_moe_on_one_geforce_card_is_offered_the_llama_cpp_route() -> None:
    # M-142: "llama 4 scout on my 4090" offered AWQ on 4× 4090 alone; a Q4_K_M GGUF with its experts in RAM runs
    # on the one card. Not when vLLM was asked for by name.
    suggestions = ask_json("llama 4 scout on my 4090?")["check"]["suggestions"]
    routes = [s for s in suggestions if s.get("engine") == "llama.cpp"]
    assert routes and routes[0]["kind"] == "cpu-experts"
    named = ask_json("llama 4 scout on my 4090 with vllm?")["check"]["suggestions"]
    assert not any(s.get("engine") == "llama.cpp" for s in named)


def test_a_lora_that_overflows_a_t4_is_offered_qlora_on_shorter_samples() -> None:
    # LOW-209: a LoRA of Llama 3.1 8B on a T4 was offered 4× T4 or offload; QLoRA of 2k samples fits the one card
    fixes = ask_json("llama 3.1 8b lora on a T4, 5k samples")["check"]["suggestions"]
    qlora = next(s for s in fixes if s["kind"] == "qlora")
    assert qlora["context"] == 2048 and qlora["memory_per_gpu_gb"] < 14.5


def test_more_cards_for_a_layer_split_engine_are_the_fewest_that_hold_it() -> None:
    # LOW-208: Gemma 3 12B in bf16 on RTX 3060s: the pick was 3 cards (transformers splits layers over any count),
    # the "what would fit" line 4 (tensor-parallel degrees)
    answer = ask_json("gemma3 12b 3060 12g 能跑吗")
    more = next(s for s in answer["check"]["suggestions"] if s["kind"] == "more-gpus")
    assert more["count"] == answer["picks"][0]["count"] == 3
