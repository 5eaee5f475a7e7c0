"""bot.understand.instances: a cloud instance type named in a question stands for its cards and its cloud."""

from __future__ import annotations

import pytest

from bot.understand.followup import follow_up
from bot.understand.instances import find_instance, instance_index
from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


@pytest.mark.parametrize(("text", "instance", "gpu", "count", "cloud"), [
    ("can I serve Llama-3-8B on a g4dn.xlarge", "g4dn.xlarge", "t4", 1, "aws"),
    ("Qwen2.5-72B AWQ on p4d.24xlarge with vllm?", "p4d.24xlarge", "a100-40gb", 8, "aws"),
    ("ChatGLM-6B 推理 用 ecs.gn7i-c8g1.2xlarge 够吗", "ecs.gn7i-c8g1.2xlarge", "a10", 1, "alibaba"),
    ("LoRA Llama-3-8B on gpu_1x_a10", "gpu_1x_a10", "a10", 1, "lambda"),
    ("Llama-3-8B on a G4DN.XLARGE.", "g4dn.xlarge", "t4", 1, "aws"),
    ("Llama-3-8B on AWS China g4dn.xlarge", "g4dn.xlarge", "t4", 1, "aws-china"),
])
def test_instance_names_its_cards_and_cloud(text: str, instance: str, gpu: str, count: int, cloud: str,
                                            kb: KnowledgeBase) -> None:
    q = parse(text, kb)
    assert (q.instance, q.gpu, q.gpu_count, q.cloud) == (instance, gpu, count, cloud)
    assert q.intent == "check"
    assert "instance" in q.stated


def test_instance_digits_are_not_read_as_numbers(kb: KnowledgeBase) -> None:
    """"24xlarge" is neither 24 cards nor 24 GB, "c8g1.2xlarge" not a count of 2."""
    q = parse("Llama-3-70B inference on p4d.24xlarge", kb)
    assert q.gpu_count == 8 and q.memory_gb is None and q.context is None
    q = parse("ChatGLM-6B on ecs.gn7i-c8g1.2xlarge", kb)
    assert q.gpu_count == 1 and q.batch is None


def test_a_stated_count_is_kept(kb: KnowledgeBase) -> None:
    q = parse("Llama-3-8B on 2 GPUs of a g4dn.12xlarge", kb)
    assert q.instance == "g4dn.12xlarge" and q.gpu == "t4" and q.gpu_count == 2


def test_unlisted_or_partial_names_are_not_instances(kb: KnowledgeBase) -> None:
    for text in ("Llama-3-8B on g9.xlarge", "Llama-3-8B on my-g4dn.xlarge-box", "g4dn.xlarge2 for Llama-3-8B"):
        q = parse(text, kb)
        assert q.instance is None, text


def test_a_cloud_named_in_words_wins(kb: KnowledgeBase) -> None:
    assert parse("Llama-3-8B on gpu_1x_a10 or whatever AWS has", kb).cloud == "aws"


def test_index_covers_price_rows_and_alibaba_families(kb: KnowledgeBase) -> None:
    index = instance_index(kb)
    for price in kb.prices.values():
        if price.gpu in kb.gpus:
            entry = index.by_name.get(price.instance.lower())
            assert entry is None or entry.gpu_id == price.gpu  # None only for names two clouds give different cards
    family = next(iter(kb.instance_families.values()))
    example = family.example_instance_types[0]
    assert find_instance(f"on {example.instance_type}", kb) is not None


def test_follow_up_on_another_card_drops_the_instance(kb: KnowledgeBase) -> None:
    previous = parse("can I serve Llama-3-8B on a g4dn.xlarge", kb)
    merged = follow_up(previous, parse("on an L40S?", kb))
    assert merged.gpu == "l40s" and merged.instance is None
    merged = follow_up(parse("can I serve Llama-3-8B on an L40S", kb), parse("on a g4dn.xlarge?", kb))
    assert (merged.instance, merged.gpu, merged.gpu_count) == ("g4dn.xlarge", "t4", 1)


@pytest.mark.parametrize(("text", "family", "gpu", "cloud", "count"), [
    ("Llama-3-8B on an AWS g5 instance", "g5", "a10g", "aws", None),
    ("用阿里云gn7i实例跑ChatGLM-6B", "gn7i", "a10", "alibaba", None),
    ("g5实例能跑Qwen2.5-7B吗", "g5", "a10g", "aws", None),
    ("Qwen2.5-72B on p4d instances", "p4d", "a100-40gb", "aws", 8),
])
def test_a_family_name_beside_an_instance_or_cloud_word_names_its_card(text: str, family: str, gpu: str,
                                                                      cloud: str, count: int | None,
                                                                      kb: KnowledgeBase) -> None:
    q = parse(text, kb)
    assert (q.instance, q.gpu, q.cloud) == (family, gpu, cloud)
    # a family's sizes carry 1 to 8 cards (the count is left to the rules), unless it has one size (p4d.24xlarge)
    assert q.gpu_count == count


def test_a_bare_family_name_is_not_read(kb: KnowledgeBase) -> None:
    assert parse("Llama-3-8B on g5", kb).instance is None  # "g5" alone could be many things


def test_instance_names_inside_chinese_text(kb: KnowledgeBase) -> None:
    q = parse("用ecs.gn7i-c8g1.2xlarge跑ChatGLM-6B够吗", kb)
    assert (q.instance, q.gpu, q.gpu_count, q.model) == ("ecs.gn7i-c8g1.2xlarge", "a10", 1, "chatglm-6b")


@pytest.mark.parametrize(("text", "cards", "counts"), [
    # audit 15 B-M10: the second instance of "X vs Y" was dropped, and only the first card priced
    ("Llama 3.1 8B: cost per million output tokens on g6.xlarge vs g5.xlarge?", ["l4", "a10g"],
     {"l4": 1, "a10g": 1}),
    ("p4d.24xlarge 还是 p5.48xlarge 跑 Llama-3-70B", ["a100-40gb", "h100-sxm"], {"a100-40gb": 8, "h100-sxm": 8}),
])
def test_two_instances_set_against_each_other_are_compared_with_their_cards(
        kb: KnowledgeBase, text: str, cards: list[str], counts: dict[str, int]) -> None:
    question = parse(text, kb)
    assert question.intent == "compare"
    assert question.compare_gpus == cards and question.compare_counts == counts


def test_one_instance_alone_is_not_a_comparison(kb: KnowledgeBase) -> None:
    question = parse("Llama 3.1 8B on g5.xlarge", kb)
    assert question.intent != "compare" and question.gpu == "a10g" and question.gpu_count == 1
