"""bot.understand.lang: the language a reply is written in is the asker's."""

from __future__ import annotations

import pytest

from bot.understand.lang import detect_lang


@pytest.mark.parametrize(("text", "lang"), [
    ("两张3090能跑Baichuan2-13B吗", "zh-Hans"),
    ("兩張3090能跑Baichuan2-13B嗎", "zh-Hant"),
    ("can I LoRA Llama-3-8B on one A100 40GB?", "en"),
    # audit 21 LOW-14: the code pasted is English words; the question around it is Chinese
    ('```\nllm = LLM(model="Qwen2.5-7B-Instruct", tensor_parallel_size=1, gpu_memory_utilization=0.9)\n'
     'sampling = SamplingParams(max_tokens=512)\n```\n一张 4090 能跑吗', "zh-Hans"),
    ("`vllm serve Qwen/Qwen2.5-7B` on one 4090, does it fit?", "en"),
])
def test_the_prose_decides_the_language(text: str, lang: str) -> None:
    assert detect_lang(text) == lang
