"""A model asked to be slow on a desktop card too small for its released weights is sized as a GGUF on llama.cpp
with layers in system RAM: what runs it there, and why it is slow (audit 30 HIGH 64 residue)."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json


def assumed(reply: dict, field: str) -> dict:
    return next(a for a in reply["assumptions"] if a["field"] == field)


@pytest.mark.parametrize("text", [
    "Why is Qwen2.5-32B so slow on my RTX 4070 Ti?",
    "为什么 Qwen2.5-32B 在我的 4070 Ti 上这么慢",
])
def test_a_model_past_a_geforce_card_is_a_gguf_spilling_to_ram(text: str) -> None:
    reply = ask_json(text)
    assert (reply["query"]["engine"], reply["query"]["precision"]) == ("llama.cpp", "int4")
    assert assumed(reply, "engine")["reason"] == "why-slow-desktop"
    # Qwen2.5-32B at Q4_K_M ≈ 18 GiB of weights against 11.5 GiB usable: the verdict is No, with the layer split
    assert reply["check"]["fits"] is False and 16 < reply["estimate"]["breakdown"]["weights"] < 20
    assert "-ngl 34" in reply["text"]  # 34 of the 65 layers on the card, the rest read from system RAM


@pytest.mark.parametrize("text", [
    "Why is Llama-3-8B so slow on my RTX 4090?",  # 16 GB of bf16 weights fit a 24 GB card: sized as asked
    "Why is Qwen2.5-32B so slow on my RTX 4070 Ti in fp16?",  # a precision stated stays
    "Why is Qwen2.5-32B so slow on my RTX 4070 Ti with vLLM?",  # an engine stated stays
    "Why is Qwen2.5-32B so slow on my A100 40GB?",  # a datacenter card is no desktop
    "Why does Qwen2.5-32B OOM on my RTX 4070 Ti?",  # out of memory is not slow: the job as asked is checked
])
def test_the_default_stays_elsewhere(text: str) -> None:
    reply = ask_json(text)
    engine = [a for a in reply["assumptions"] if a["field"] == "engine"]
    assert not engine or engine[0]["reason"] != "why-slow-desktop"

