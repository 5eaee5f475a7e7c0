"""A question that says there is no GPU is told what a CPU needs (llama.cpp, Q4_K_M, from system RAM) before the
GPU figures, which stay for comparison."""

from __future__ import annotations

import pytest

from bot.reply.render import render_text
from bot.service import ask
from bot.understand.parse import parse
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
    from bot.reply.answer import answer_request

    kb = default_knowledge()
    named = answer_request({"text": "Llama 3.1 8B on CPU only (64-core EPYC, 8-channel DDR5) with llama.cpp Q8_0, "
                                    "tokens per second?"}, kb)
    assert named.cpu_only is not None and named.cpu_only["quant"] == "gguf-q8_0"
    assert named.cpu_only["ram_bandwidth_gbps"] == pytest.approx(8 * 4800 * 8 / 1000)  # 307.2 GB/s
    plain = answer_request({"text": "run llama 3 8b without a gpu"}, kb)
    assert plain.cpu_only is not None and plain.cpu_only["ram_bandwidth_gbps"] == pytest.approx(76.8)
