"""A GeForce card the text places in a laptop is read as the laptop chip; a card's name never spans punctuation."""

from __future__ import annotations

import pytest

from bot.understand.mentions import find_mentions
from bot.understand.parse import parse
from bot.understand.tokens import fold, tokenize
from bot.understand.vocab import vocab_of
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _gpus(text: str, with_text: bool = True) -> list[tuple[str, str]]:
    """The GPU mentions (entry, key) found in `text`, given the text as `bot.understand.parse` should give it."""
    folded = fold(text)
    found = find_mentions(tokenize(folded), vocab_of(KB), folded if with_text else None)
    return [(m.entry_id, m.key) for m in found if m.kind == "gpu"]


LAPTOP_CARDS = [
    # the laptop word a few words away from the card, before or after it
    ("can I run Llama 3 8B on my laptop's RTX 4070?", "rtx-4070-laptop"),
    ("my laptop's RTX 4070", "rtx-4070-laptop"),
    ("laptop with a 4090", "rtx-4090-laptop"),
    ("on my laptop (RTX 4060, 8GB)", "rtx-4060-laptop"),
    ("the 4070 in my laptop", "rtx-4070-laptop"),
    ("notebook with RTX 3080", "rtx-3080-laptop"),
    ("my laptop has a 3080 16GB", "rtx-3080-laptop-16gb"),
    ("laptop: RTX 4070", "rtx-4070-laptop"),
    ("qwen2.5:7b on my laptop's 4060", "rtx-4060-laptop"),
    # Simplified Chinese
    ("我的笔记本是4060", "rtx-4060-laptop"),
    ("笔记本电脑上的3060", "rtx-3060-laptop"),
    ("游戏本 显卡是4070", "rtx-4070-laptop"),
    ("我的笔记本，显卡是4060", "rtx-4060-laptop"),
    ("笔电的4080能跑Qwen2.5-7B吗", "rtx-4080-laptop"),
    # Traditional Chinese (folded to Simplified)
    ("我的筆記本是4060", "rtx-4060-laptop"),
    ("筆電上的3060能跑Qwen2.5-7B嗎", "rtx-3060-laptop"),
    ("遊戲本 顯卡是4070", "rtx-4070-laptop"),
    # the laptop chip's own name, as before
    ("RTX 4090 Laptop GPU", "rtx-4090-laptop"),
    ("RTX 4090 (Laptop)", "rtx-4090-laptop"),
    ("4090M", "rtx-4090-laptop"),
    ("笔记本 4060", "rtx-4060-laptop"),
]

DESKTOP_CARDS = [
    # no laptop word, or a laptop that is clearly another machine
    ("4090", "rtx-4090"),
    ("RTX 4070", "rtx-4070"),
    ("I have a laptop and a desktop with a 4090", "rtx-4090"),
    ("I have a laptop and a 4090", "rtx-4090"),
    ("I have a 4090. My laptop is too slow", "rtx-4090"),
    ("my old laptop is slow so I bought a new RTX 4090", "rtx-4090"),
    ("run my notebook on a 4090", "rtx-4090"),
    ("jupyter notebook on a 3090", "rtx-3090"),
    ("RTX 4090 24GB in my laptop", "rtx-4090"),
    ("我有4090，我的笔记本太慢", "rtx-4090"),
    ("我有笔记本和台式机，台式机是4090", "rtx-4090"),
    ("我有筆記本和桌機，桌機是4090", "rtx-4090"),
]

SENTENCE_SPLIT = [
    # a card's name does not span punctuation, so the next sentence's laptop is not the card's
    ("I have a 4090. Laptop is too slow", "rtx-4090"),
    ("I have a 4090, laptop is too slow", "rtx-4090"),
    ("I have a 4090; laptop is too slow", "rtx-4090"),
    ("Do you have a 4090? Laptop users ask too", "rtx-4090"),
    ("我有4090。笔记本太慢", "rtx-4090"),
    ("我有4090，笔记本太慢", "rtx-4090"),
    ("我有4090！笔记本太慢了", "rtx-4090"),
    ("我有4090；筆記本太慢", "rtx-4090"),
    ("我有4090：筆記本太慢", "rtx-4090"),
]


@pytest.mark.parametrize(("text", "gpu"), LAPTOP_CARDS + DESKTOP_CARDS)
def test_card_read_in_or_out_of_a_laptop(text: str, gpu: str) -> None:
    assert parse(text, KB).gpu == gpu


@pytest.mark.parametrize(("text", "gpu"), LAPTOP_CARDS + DESKTOP_CARDS + SENTENCE_SPLIT)
def test_mentions_with_the_text(text: str, gpu: str) -> None:
    assert _gpus(text)[0][0] == gpu


@pytest.mark.parametrize(("text", "gpu"), SENTENCE_SPLIT)
def test_parse_name_stops_at_punctuation(text: str, gpu: str) -> None:
    assert parse(text, KB).gpu == gpu


def test_name_stops_at_punctuation_but_model_does_not() -> None:
    assert _gpus("I have a 4090. Laptop") == [("rtx-4090", "4090")]
    assert _gpus("4090 laptop") == [("rtx-4090-laptop", "4090laptop")]
    assert _gpus("80GB. A100")[0][1] == "a100"  # the memory before a card does not cross a sentence end
    assert _gpus("80GB A100") == [("a100-80gb", "a10080g")]
    folded = fold("ollama run qwen2.5:7b")
    models = [m.entry_id for m in find_mentions(tokenize(folded), vocab_of(KB), folded) if m.kind == "model"]
    assert models == ["qwen2.5-7b"]  # an Ollama tag is one name


def test_without_the_text_a_wide_gap_keeps_the_laptop_apart() -> None:
    assert _gpus("my laptop's RTX 4070", with_text=False)[0][0] == "rtx-4070-laptop"
    assert _gpus("I have a 4090. My laptop is too slow", with_text=False)[0][0] == "rtx-4090"
    assert _gpus("我有4090。我的笔记本太慢", with_text=False)[0][0] == "rtx-4090"


def test_laptop_keys_come_from_the_knowledge_base() -> None:
    vocab = vocab_of(KB)
    assert vocab.gpus[vocab.laptops["4090"]] == "rtx-4090-laptop"
    assert vocab.gpus[vocab.laptops["rtx4070"]] == "rtx-4070-laptop"
    assert vocab.gpus[vocab.laptops["3060"]] == "rtx-3060-laptop"  # the desktop entry is rtx-3060-12gb
    assert vocab.gpus[vocab.laptops["4060显卡"]] == "rtx-4060-laptop"
    for desktop_only in ("rtx409024g", "4090d", "3090", "a100", "4070ti"):
        assert desktop_only not in vocab.laptops


@pytest.mark.parametrize(("text", "gpu", "count", "model"), [
    ("4060能跑Qwen2.5-7B吗", "rtx-4060", None, "qwen2.5-7b"),
    ("A100 80GB", "a100-80gb", None, None),
    ("80GB A100", "a100-80gb", None, None),
    ("2x 3090", "rtx-3090", 2, None),
    ("ollama run qwen2.5:7b on 4090", "rtx-4090", None, "qwen2.5-7b"),
])
def test_plain_cards_unchanged(text: str, gpu: str, count: int | None, model: str | None) -> None:
    q = parse(text, KB)
    assert (q.gpu, q.gpu_count, q.model) == (gpu, count, model)


def test_compare_keeps_each_card_its_own() -> None:
    assert parse("4090 or laptop 4060?", KB).compare_gpus == ["rtx-4090", "rtx-4060-laptop"]
    assert parse("laptop 4060 vs 4090", KB).compare_gpus == ["rtx-4060-laptop", "rtx-4090"]


def test_a_laptop_chip_not_known_is_said_to_be_sized_as_the_desktop_card() -> None:
    # the RTX 3070 Ti Laptop (448 GB/s, not the desktop Ti's 608) had been sized as the desktop card silently
    question = parse("llama 3.1 8b q4 on my RTX 3070 Ti Laptop", KB)
    assert question.gpu == "rtx-3070-ti" and question.no_such_variant == "RTX 3070 Ti Laptop"
    assert parse("llama 3.1 8b q4 on my RTX 4070 Laptop", KB).no_such_variant is None
