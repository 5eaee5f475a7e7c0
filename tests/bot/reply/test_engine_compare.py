"""Engines weighed against each other are set side by side (audit 34 HIGH 96: "TensorRT-LLM vs vLLM … which gives
more tokens/s?" was sized on TensorRT-LLM alone, vLLM never mentioned)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.understand.parse import parse
from bot.understand.slots.engine import compared_engines
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "engines"), [
    ("TensorRT-LLM vs vLLM for Qwen2.5-72B fp8 on 4x H100, which gives more tokens/s?", ["tensorrt-llm", "vllm"]),
    ("vLLM 和 SGLang 部署 Qwen2.5-32B，哪个吞吐更高？4 张 A100", ["vllm", "sglang"]),
    ("should we use lmdeploy or vllm for internlm2-20b", ["lmdeploy", "vllm"]),
])
def test_two_engines_with_a_word_of_comparison_are_compared(text: str, engines: list[str]) -> None:
    assert compared_engines(text.lower()) == engines
    assert parse(text, KB).compare_engines == engines


@pytest.mark.parametrize("text", [
    "serve Llama-3-8B with vLLM on an L4",
    "LLaMA-Factory with DeepSpeed ZeRO-3 for Qwen2.5-7B",  # a training stack's parts
    "instead of vLLM we use SGLang for qwen 7b",  # one put aside
])
def test_no_comparison_without_two_engines_weighed(text: str) -> None:
    assert compared_engines(text.lower()) == []


def test_each_engine_is_sized_by_the_reply_s_own_rules() -> None:
    text = "TensorRT-LLM vs vLLM for Qwen2.5-72B fp8 on 4x H100 at 64 concurrent requests, 4k context"
    result = answer(parse(text, KB), KB)
    figures = {f["engine"]: f for f in result.engines_compared}
    assert set(figures) == {"tensorrt-llm", "vllm"}
    # the first engine's figure is the reply's own
    assert result.estimate is not None
    assert figures["tensorrt-llm"]["per_gpu_gb"] == pytest.approx(result.estimate.per_gpu_gb, abs=0.05)
    for figure in figures.values():
        assert figure["count"] == 4 and figure["gpu"] == "h100-sxm" and figure["sequences"] == 64
        assert figure["aggregate_tokens_per_s"] == pytest.approx(64 * figure["decode_tokens_per_s"], rel=0.05)


def test_the_reply_says_both_and_which_is_faster() -> None:
    text = ask_json("TensorRT-LLM vs vLLM for Qwen2.5-72B fp8 on 4x H100 at 64 concurrent requests, 4k context — "
                    "which gives more tokens/s?")["text"]
    assert "Engines side by side on 4× H100 SXM5 80GB:" in text
    assert "• TensorRT-LLM:" in text and "• vLLM:" in text
    assert "benchmark both" in text


def test_a_throughput_question_with_no_load_is_compared_at_full_load() -> None:
    result = answer(parse("vLLM 和 SGLang 部署 Qwen2.5-32B，哪个吞吐更高？4 张 A100", KB), KB)
    assert len(result.engines_compared) == 2
    for figure in result.engines_compared:
        assert figure["sequences"] > 1  # not one sequence: the most each holds and batches
