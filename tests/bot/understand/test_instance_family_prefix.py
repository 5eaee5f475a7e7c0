"""An Alibaba instance family written with its product prefix and no size ("ecs.gn8is") is the family's card, and
"几台" asks how many (audit 39 HIGH-123: the family was dropped and A100 gn7e instances quoted instead)."""

from __future__ import annotations

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
QUESTION = "每天 5 亿 token 的 Qwen3-30B-A3B 推理流量，用阿里云 ecs.gn8is 需要几台？每月多少钱（人民币）？"


def test_the_prefixed_family_names_its_card() -> None:
    question = parse(QUESTION, KB)
    assert (question.gpu, question.cloud, question.intent) == ("l20", "alibaba", "recommend")
    assert parse("Qwen3-30B-A3B on ecs.gn7i, 50 users", KB).gpu == "a10"
    assert parse("Qwen3-30B-A3B on gn8is", KB).gpu is None  # a bare family name needs a cloud or instance word


def test_how_many_of_the_family_is_answered_on_its_card() -> None:
    reply = ask_json(QUESTION)
    assert reply["picks"][0]["gpu"] == "l20" and reply["picks"][0]["count"] >= 4


def test_a_card_that_does_not_exist_with_its_memory_written_is_sized_at_that_memory() -> None:
    # audit 39 LOW-217: "RTX 5090 Ti 48GB" was sized as the 32 GB RTX 5090, the 48 GB dropped
    question = parse("Qwen2.5-32B on an RTX 5090 Ti 48GB with Ollama, will it fit?", KB)
    assert question.memory_gb == 48 and "modified-card:rtx-5090" in question.notes
    plain = parse("Qwen2.5-32B on an RTX 5090 Ti with Ollama, will it fit?", KB)
    assert plain.gpu == "rtx-5090" and plain.memory_gb is None  # no memory written: the nearest card as it ships
