"""A card count tensor parallelism cannot split the heads over (audit 30 M-76): pipeline stages on the engines that
run them, and one copy a card when one card holds the model."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def _kinds(text: str) -> list[str]:
    return [s["kind"] for s in ask_json(text)["check"]["suggestions"]]


def test_three_a100s_run_a_72b_as_pipeline_stages() -> None:
    reply = ask_json("Qwen2.5-72B on 3x A100 80GB with vLLM, 8k context 10 users?")
    assert reply["check"]["split_invalid"]
    first = reply["check"]["suggestions"][0]
    assert first["kind"] == "pipeline-parallel" and first["count"] == 3
    assert "--tensor-parallel-size 1 --pipeline-parallel-size 3" in reply["text"]


def test_a_7b_on_three_3090s_runs_a_copy_a_card_first() -> None:
    kinds = _kinds("Qwen2.5-7B on 3x RTX 3090 with vLLM tensor parallel?")
    assert kinds[:2] == ["one-card-replicas", "pipeline-parallel"]


def test_transformers_splits_by_layers_and_needs_neither() -> None:
    reply = ask_json("Qwen2.5-72B on 3x A100 80GB with transformers, 8k context?")
    assert not reply["check"]["split_invalid"]


def test_two_ordinary_changes_together_before_a_bigger_card() -> None:
    # audit 30 M-69: a Gemma-2-9B LoRA at batch 4 and 8k on a 4090 was offered a bigger card only
    reply = ask_json("Gemma-2-9b LoRA with torchtune on an RTX 4090, seq 8192, batch 4 — fits?")
    first = reply["check"]["suggestions"][0]
    assert first["kind"] == "qlora" and first["batch"] is not None and first["batch"] < 4
    assert "at micro batch" in reply["text"]
