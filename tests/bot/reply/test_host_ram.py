"""The machine's RAM, when the question gives it, against what an offload keeps there."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "ram"), [
    ("full fine-tune Qwen2.5-14B with DeepSpeed ZeRO-3 offload on one 4090 with 256GB RAM", 256.0),
    ("3090 加 256G 内存 能跑 DeepSeek-R1 吗", 256.0),
    ("RTX 4060 Ti 16G 加 64G 記憶體，用 llama.cpp 跑 Qwen3-30B-A3B", 64.0),
    ("my PC: 4090, 64GB DDR5, can I run llama 3 70b", 64.0),
    ("RAM: 128GB, GPU 3090", 128.0),
    ("a server with 1TB of RAM and 8 H100s", 1024.0),
])
def test_the_machines_ram_is_read(text: str, ram: float) -> None:
    assert parse(text, KB).host_ram_gb == ram


def test_a_cards_memory_is_not_ram() -> None:
    question = parse("is 24GB enough for llama 3 8b", KB)
    assert question.host_ram_gb is None and question.memory_gb == 24


def test_zero_offload_needing_more_ram_than_the_machine_has_is_a_no() -> None:
    # ZeRO-3 with parameters and optimizer on the CPU: 14.8B × (2 + 2 + 12) B of fp32 Adam states, master weights
    # and 16-bit copies ≈ 370 GiB of host RAM, more than 256 GB (238 GiB), though the card holds its 11.6 GiB
    text = ("full fine-tune Qwen2.5-14B with DeepSpeed ZeRO-3, offload_param and offload_optimizer to CPU, on one "
            "4090 with {} RAM")
    short = ask_json(text.format("256GB"))
    check = short["check"]
    assert check["fits"] is False and check["host_ram_gb"] == 256 and check["host_ram_needed_gb"] > 300
    assert check["memory_per_gpu_gb"] < check["limit_gb"]
    assert "more than the machine's 256 GB" in short["text"]
    enough = ask_json(text.format("512GB"))
    assert enough["check"]["fits"] is True and enough["check"]["host_ram_gb"] is None


def test_experts_in_ram_beyond_the_ram_stated_is_a_no() -> None:
    # DeepSeek-R1 Q4_K_M with 60 of 61 blocks' routed experts in RAM: about 363 GiB there, more than 256 GB
    reply = ask_json("3090 加 256G 内存 能跑 DeepSeek-R1 吗")
    assert reply["check"]["fits"] is False and reply["check"]["host_ram_needed_gb"] > 300
    assert "超过了这台机器的 256 GB 内存" in reply["text"] and "256 GB 内存" in reply["text"].split("\n")[2]


def test_ram_given_beside_cards_that_cannot_hold_the_model_is_used_for_llama_cpps_split() -> None:
    # gpt-oss-120b with llama.cpp on 2× 3090 "and 128GB DDR4": the experts of the first blocks in RAM, not a
    # Q2_K file (which keeps the experts in MXFP4 and is no smaller)
    reply = ask_json("gpt-oss-120b with llama.cpp on 2x RTX 3090 and 128GB DDR4, tok/s?")
    assert reply["check"]["fits"] is True and reply["query"]["cpu_moe_layers"]
    assert "Q2_K" not in reply["text"]
    # a model the card holds as asked keeps its precision and runtime
    plain = ask_json("Llama 3 8B on a 4090 with 64GB RAM")
    assert plain["query"]["engine"] == "transformers" and plain["query"]["precision"] == "bf16"


@pytest.mark.parametrize("text", [
    "gpt-oss-120b on 2x RTX 3090 with llama.cpp, no system RAM offload",
    "Llama 3 70B on a 4090 without CPU offload",
    "Llama 3 70B 4090 不要卸载到内存",
])
def test_a_negated_offload_keeps_everything_on_the_cards(text: str) -> None:
    assert parse(text, KB).offload_to_ram is False


def test_cards_too_small_and_ram_too_small_say_both_without_contradiction() -> None:
    # ZeRO-3 with only the optimizer offloaded: 41.7 GiB on a 24 GB card, and ≈ 329 GiB of host RAM against
    # 256 GB; "the 41.7 GiB per card fits the 23.5 GiB" was the sentence before
    reply = ask_json("full fine-tune Qwen2.5-14B with DeepSpeed ZeRO-3 offload_optimizer only, one RTX 4090, 256GB RAM")
    assert reply["check"]["fits"] is False and reply["check"]["host_ram_gb"] == 256
    assert "No: it needs 41.7 GiB per card" in reply["text"]
    assert "also needs about" in reply["text"] and "fits the 23.5" not in reply["text"]
