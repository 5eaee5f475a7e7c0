"""Memory with and without gradient checkpointing, both asked: both given (audit 39 M-153: only "off" was)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    "用 FSDP 全參數微調 Llama 3.1 8B，序列 8192，開啟與關閉梯度檢查點各需要多少顯存？",
    "Full fine-tune Llama 3.1 8B with FSDP at 8k: memory with and without gradient checkpointing?",
])
def test_both_settings_are_read(text: str) -> None:
    question = parse(text, KB)
    assert question.gradient_checkpointing is True and "checkpointing-both" in question.notes


def test_the_other_setting_is_sized_beside_the_first() -> None:
    reply = ask_json("Full fine-tune Llama 3.1 8B with FSDP at 8k: memory with and without gradient checkpointing?")
    other = reply["other_checkpointing"]
    assert other["on"] is False
    # without recomputation every layer keeps its activations: more than the checkpointed job's per card
    assert other["activations_gb"] > 3 * reply["estimate"]["breakdown"]["activations"]
    assert other["per_gpu_gb"] > reply["estimate"]["per_gpu_gb"]
    from bot.reply.formatting import gb

    assert f"Without gradient checkpointing: {gb(other['per_gpu_gb'])} GiB per card" in reply["text"]


def test_one_setting_asked_gives_no_second_figure() -> None:
    reply = ask_json("Full fine-tune Llama 3.1 8B with FSDP at 8k without gradient checkpointing: memory?")
    assert reply["other_checkpointing"] is None
