""""How much system RAM to load Llama-3.1-70B?" is answered for the host (audit 30 M-74: GPU picks alone)."""

from __future__ import annotations

import pytest

from bot.understand.slots.load_ram import asks_load_ram
from tests.bot.reply._answers import ask_json


@pytest.mark.parametrize(("text", "asked"), [
    ("how much system RAM do I need to load Llama-3.1-70B in bf16 with transformers?", True),
    ("how much RAM to load qwen 72b?", True),
    ("加载 Llama-3.1-70B 需要多少内存", True),
    ("how much memory does llama 70b need?", False),
    ("Llama-3.1-70B on 2 H100, how much RAM do I have?", False),
])
def test_the_question_is_recognised(text: str, asked: bool) -> None:
    assert asks_load_ram(text) is asked


def test_the_weights_in_ram_without_a_device_map() -> None:
    # 70.6e9 parameters × 2 bytes = 131.5 GiB in bf16; × 4 = 263 GiB in float32
    reply = ask_json("how much system RAM do I need to load Llama-3.1-70B in bf16 with transformers?")
    figure = reply["load_ram"]
    assert 128 < figure["weights_gb"] < 135 and 256 < figure["fp32_gb"] < 268
    assert "System RAM to load it" in reply["text"]
    assert ask_json("Llama-3.1-70B on 2 H100")["load_ram"] is None
