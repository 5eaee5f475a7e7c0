"""A GGUF file named with a serving engine ("GGUF Q8_0 on vLLM") is sized as llama.cpp runs it, and the reply says
why (audit 24 M-29: the engine was switched silently)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json as _ask


def test_the_switch_is_said() -> None:
    answer = _ask("DeepSeek-R1-Distill-Qwen-7B GGUF Q8_0 on vLLM, one L4, 16k: fits?")
    assert answer["query"]["engine"] == "llama.cpp"
    assert "vLLM loads a GGUF file only through its experimental GGUF support" in answer["text"]


def test_llama_cpp_named_says_nothing() -> None:
    answer = _ask("Qwen2.5-7B GGUF Q4_K_M with Ollama on an RTX 3060")
    assert "experimental GGUF support" not in answer["text"]
