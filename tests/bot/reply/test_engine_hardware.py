"""An engine named with a card of a maker it does not run on is not sized as if it could start there."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.engine_hardware import runs_on
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_tensorrt_llm_runs_on_nvidia_only_and_vllm_everywhere_it_is_listed() -> None:
    assert runs_on("tensorrt-llm", KB.gpus["h100-sxm"])
    assert not runs_on("tensorrt-llm", KB.gpus["rx-7900-xtx"]) and not runs_on("tensorrt-llm", KB.gpus["arc-b580"])
    assert runs_on("vllm", KB.gpus["rx-7900-xtx"]) and runs_on("llama.cpp", KB.gpus["arc-b580"])


def test_tensorrt_llm_on_a_radeon_is_sized_with_vllm_and_says_why() -> None:
    # it said "Yes: it needs 16.4 GiB" for TensorRT-LLM on an RX 7900 XTX, an engine that cannot start there
    result = answer(parse("Llama 3.1 8B with TensorRT-LLM on an RX 7900 XTX, how many tok/s?", KB), KB)
    assert result.query.engine == "vllm" and result.understood["engine_not_on_card"] == "tensorrt-llm"
    text = render_text(result, KB)
    assert "TensorRT-LLM runs on NVIDIA GPUs only, so it cannot run on the AMD Radeon RX 7900 XTX" in text
    chinese = render_text(answer(parse("用 TensorRT-LLM 在 Arc B580 上跑 Qwen2.5-7B AWQ 行吗", KB), KB), KB)
    assert "TensorRT-LLM 只能在 NVIDIA 显卡上运行" in chinese


def test_tensorrt_llm_on_an_nvidia_card_is_sized_as_asked() -> None:
    result = answer(parse("Llama 3.1 8B with TensorRT-LLM on an L40S", KB), KB)
    assert result.query.engine == "tensorrt-llm" and "engine_not_on_card" not in result.understood
