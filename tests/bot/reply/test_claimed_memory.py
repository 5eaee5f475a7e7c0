"""A card's memory said wrongly ("the 4090 has 48GB right?") is corrected, and the card sized as it ships; a size
the card comes in is that variant; a modified card said as a fact ("my 4090 has 48GB") is sized at its memory."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json as _ask

KB = default_knowledge()


@pytest.mark.parametrize(("text", "said"), [
    ("the 4090 has 48GB right? can it run Qwen2.5-32B in fp16", "The GeForce RTX 4090 has 24 GB, not 48 GB"),
    ("4090是48G的吧，能跑Qwen2.5-32B吗", "GeForce RTX 4090 的显存是 24 GB，不是 48 GB"),
    ("3090有12G，能跑ChatGLM3-6B吗", "GeForce RTX 3090 的显存是 24 GB，不是 12 GB"),
])
def test_a_wrong_memory_is_corrected_and_the_card_sized_as_it_ships(text: str, said: str) -> None:
    answer = _ask(text)
    assert said in answer["text"]
    assert answer["query"]["gpu"] in ("rtx-4090", "rtx-3090")
    card = KB.gpus[answer["query"]["gpu"]]
    assert f"{card.memory_gb:.1f} GB" in answer["text"]  # the fit check uses the card's own memory
    assert "claimed_memory_gb" not in answer["text"]


def test_the_modified_card_hint_only_where_such_cards_exist() -> None:
    assert "aftermarket" in _ask("the 4090 has 48GB right? Qwen2.5-32B fp16")["text"]
    assert "aftermarket" not in _ask("the 4090 has 12GB right? Qwen2.5-7B")["text"]


def test_a_size_the_card_comes_in_is_that_variant() -> None:
    q = parse("A100的显存是40G，Llama 3 8B全参微调够吗", KB)
    assert q.gpu == "a100-40gb" and q.claimed_memory_gb is None


def test_a_modified_card_said_as_a_fact_is_sized_at_its_memory() -> None:
    q = parse("my 4090 has 48GB, can it run Qwen2.5-32B fp16", KB)
    assert q.memory_gb == 48 and q.modified_card == "rtx-4090" and q.claimed_memory_gb is None


def test_the_right_memory_says_nothing() -> None:
    q = parse("the 4090 has 24GB right? Qwen2.5-7B", KB)
    assert q.claimed_memory_gb is None and q.gpu == "rtx-4090"
