"""An engine named with a card of a maker it does not run on is not sized as if it could start there."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.engine_hardware import runs_on
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_tensorrt_llm_runs_on_nvidia_only_and_vllm_everywhere_it_is_listed() -> None:
    assert runs_on("tensorrt-llm", KB.gpus["h100-sxm"].vendor)
    assert not runs_on("tensorrt-llm", KB.gpus["rx-7900-xtx"].vendor)
    assert not runs_on("tensorrt-llm", KB.gpus["arc-b580"].vendor)
    assert runs_on("vllm", KB.gpus["rx-7900-xtx"].vendor) and runs_on("llama.cpp", KB.gpus["arc-b580"].vendor)
    assert not runs_on("vllm", "Apple") and runs_on("llama.cpp", "Apple")


def test_vllm_on_a_mac_is_sized_with_llama_cpp_and_says_the_gpu_is_not_vllms() -> None:
    # audit 23 M-15: "Yes" with vLLM and a CUDA context on a MacBook, and no tok/s
    result = answer(parse("Can I run Qwen2.5-7B with vLLM on my MacBook Pro M3 Max 36GB, with CUDA graphs, or do I "
                          "need something else? tok/s?", KB), KB)
    assert result.query.engine == "llama.cpp" and result.understood["engine_not_on_card"] == "vllm"
    assert result.speed["decode_tokens_per_s"]
    text = render_text(result, KB)
    assert "there it runs on the CPU only" in text and "CUDA graphs do not exist" in text
    assert "CUDA context" not in text.split("Memory needed")[0]
    asked = parse("用 vLLM 在 Mac Studio M2 Ultra 192GB 上跑 Llama 3.1 70B AWQ 可以吗", KB)
    chinese = render_text(answer(asked, KB), KB)
    assert "不支持 Mac 的 GPU" in chinese


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


def test_lmdeploys_four_bit_weights_are_its_awq() -> None:
    # audit 25 LOW-51: "W4A16" on LMDeploy was assumed GPTQ; TurboMind loads the AWQ `lmdeploy lite auto_awq` writes
    from bot.reply.answer import answer
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer(parse("用 lmdeploy 0.7 跑 InternLM2.5-20B，W4A16 量化，--quant-policy 8，两张 A10，并发 32，"
                          "上下文 8k，够吗？", kb), kb)
    assert result.query.quant == "awq" and result.query.kv_cache == "int8"
    assert answer(parse("InternLM2.5-20B int4 on two A10s with vLLM", kb), kb).query.quant == "gptq"
