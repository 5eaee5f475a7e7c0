"""A question that says there is no GPU is told what a CPU needs (llama.cpp, Q4_K_M, from system RAM) before the
GPU figures, which stay for comparison."""

from __future__ import annotations

import pytest

from bot.reply.render import render_text
from bot.reply.request import answer_request
from bot.service import ask
from bot.understand.parse import parse
from bot.understand.unknown import host_ram
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    "Llama 3.1 8B on a CPU only machine with 64GB RAM",
    "Llama 3.1 8B on my laptop CPU, no GPU, how fast?",
    "Llama 3.1 8B on an AMD EPYC 9654 server",
    "在CPU上跑Llama 3.1 8B，没有显卡，速度多少",
    "Llama 3.1 8B on an iPhone 15 Pro",
])
def test_no_gpu_is_read(text: str) -> None:
    assert parse(text, KB).no_gpu


@pytest.mark.parametrize("text", [
    "Mixtral Q4_K_M with llama.cpp on a 3090 with CPU offload",
    "DeepSeek-V3 on 8x H100 with --n-cpu-moe 10",
    "Llama 3.1 8B on an A10",
    "what is a Xeon Phi good for",
])
def test_cpu_words_beside_a_gpu_or_an_offload_are_not_no_gpu(text: str) -> None:
    assert not parse(text, KB).no_gpu


def test_the_cpu_figures_are_llama_cpp_q4_k_m_by_hand() -> None:
    answer = ask({"text": "Llama 3.1 8B on a CPU only machine, no GPU"})
    cpu = answer.cpu_only
    assert cpu is not None and cpu["quant"] == "gguf-q4_k_m"
    # A token reads every weight but the input embeddings: Q4_K_M's 8.03B parameters less 0.525B of token_embd,
    # at about 4.9 bits a parameter ≈ 4.3-4.6 GB; 76.8 GB/s over that ≈ 17 tok/s at most.
    assert 4.0 < cpu["read_gb_per_token"] < 4.8
    assert cpu["ram_bound_tokens_per_s"] == pytest.approx(76.8 / cpu["read_gb_per_token"], rel=0.01)
    # RAM: the weights plus a 4,096-token f16 KV cache (0.5 GiB) and buffers, under the bf16 model's 16 GiB.
    assert 5.0 < cpu["ram_gb"] < 7.0
    text = render_text(answer)
    assert text.index("You said there is no GPU") < text.index("Memory needed")
    assert "True" not in text.split("I read this as:")[1].splitlines()[0]


def test_a_question_with_a_gpu_has_no_cpu_figure() -> None:
    assert ask({"text": "Llama 3.1 8B on an A10"}).cpu_only is None
    zh = render_text(ask({"text": "在CPU上跑Qwen2.5-7B，没有显卡，速度多少"}))
    assert "你说没有显卡" in zh and "Q4_K_M" in zh


def test_a_cpu_question_uses_the_gguf_and_the_memory_channels_it_names() -> None:
    from bot.reply.request import answer_request

    kb = default_knowledge()
    named = answer_request({"text": "Llama 3.1 8B on CPU only (64-core EPYC, 8-channel DDR5) with llama.cpp Q8_0, "
                                    "tokens per second?"}, kb)
    assert named.cpu_only is not None and named.cpu_only["quant"] == "gguf-q8_0"
    assert named.cpu_only["ram_bandwidth_gbps"] == pytest.approx(8 * 4800 * 8 / 1000)  # 307.2 GB/s
    plain = answer_request({"text": "run llama 3 8b without a gpu"}, kb)
    assert plain.cpu_only is not None and plain.cpu_only["ram_bandwidth_gbps"] == pytest.approx(76.8)


@pytest.mark.parametrize(("text", "expected"), [
    ("ddr4-3200 八通道", (8, "ddr4", 3200)),
    ("八通道 ddr4-2933", (8, "ddr4", 2933)),
    ("双通道ddr5-5600", (2, "ddr5", 5600)),
    ("8通道ddr5", (8, "ddr5", 4800)),
])
def test_host_memory_written_in_chinese_either_way_round(text: str, expected: tuple[int, str, int]) -> None:
    assert host_ram(text) == expected


def test_a_cpu_server_described_in_chinese_is_timed_on_its_own_memory() -> None:
    # DDR4-3200 × 8 channels = 204.8 GB/s over the 42.75 GB a token reads: 4.8 tok/s, not DDR5-4800's 7.2
    text = "llama.cpp 纯CPU跑 Qwen2.5-72B Q4_K_M 需要多少内存？速度大概多少？服务器是双路 DDR4-3200 八通道"
    reply = answer_request({"text": text})
    assert reply.cpu_only is not None and reply.cpu_only["ram_bandwidth_gbps"] == 204.8
    assert reply.cpu_only["ram_bound_tokens_per_s"] == pytest.approx(204.8 / 42.75, abs=0.1)
