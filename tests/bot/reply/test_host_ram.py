"""The machine's RAM, when the question gives it, against what an offload keeps there."""

from __future__ import annotations

import re

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


@pytest.mark.parametrize(("text", "memory"), [
    ("Qwen3-30B-A3B on a 3060 with 64GB DDR4", (2, "ddr4", 3200)),
    ("4090 + 96GB DDR5-6000, llama 3 70b", (2, "ddr5", 6000)),
    ("3090 加 128G DDR4 内存", (2, "ddr4", 3200)),
    ("quad channel DDR4-2666, 256GB", (4, "ddr4", 2666)),
])
def test_a_memory_kind_without_channels_is_taken_as_dual_channel(text: str, memory: tuple[int, str, int]) -> None:
    assert parse(text, KB).host_ram == memory


@pytest.mark.parametrize("text", ["a laptop with 32GB LPDDR5X and a 4070", "RTX 3060 GDDR6 12GB"])
def test_lpddr_and_a_cards_gddr_are_not_the_hosts_ram(text: str) -> None:
    assert parse(text, KB).host_ram is None


def test_the_experts_ceiling_is_computed_at_the_ram_stated() -> None:
    # audit 19 M-6: "64GB DDR4" was stated and the --n-cpu-moe ceiling used DDR5-4800's 76.8 GB/s. Dual-channel
    # DDR4-3200 is 2 × 3,200 MT/s × 8 B = 51.2 GB/s; each token reads the RAM part, then the card's at 360 GB/s
    reply = ask_json("Can Qwen3-30B-A3B Q4_K_M run on a 12GB RTX 3060 with llama.cpp using --n-cpu-moe, "
                     "and what speed with 64GB DDR4?")
    estimate = reply["estimate"]
    assert reply["query"]["host_memory"] == {"channels": 2, "kind": "DDR4", "mts": 3200, "bus_bits": 64}
    assert "2-channel DDR4-3200 (51.2 GB/s peak)" in reply["text"] and "DDR5" not in reply["text"]
    found = re.search(r"≈ ([\d.]+) GiB on the card \(360 GB/s\).*?tops out near (\d+) tok/s", reply["text"])
    assert found is not None
    card_s = float(found.group(1)) * 2**30 / 360e9
    ddr4 = 1 / (estimate["host_read_gb_per_token"] * 2**30 / 51.2e9 + card_s)
    ddr5 = 1 / (estimate["host_read_gb_per_token"] * 2**30 / 76.8e9 + card_s)
    assert abs(int(found.group(2)) - ddr4) < 0.05 * ddr4 and ddr4 < 0.85 * ddr5
