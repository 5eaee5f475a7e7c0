"""Azure and GCP VM names (knowledge `instance_types:`) are read as their cards, their count and their cloud."""

from __future__ import annotations

import pytest

from bot.understand.instances import find_instance, instance_index
from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge
from tests.bot.reply._answers import ask_json

REPROS = (
    "Azure ND H100 v5 for Llama 3.1 405B fp8",
    "Standard_ND96isr_H100_v5 for Llama 3.1 405B fp8",
    "GCP a3-highgpu-8g for Llama 3.1 405B fp8",
)


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


@pytest.mark.parametrize(("text", "instance", "gpu", "count", "cloud"), [
    ("Azure ND H100 v5 for Llama 3.1 405B fp8", "Standard_ND96isr_H100_v5", "h100-sxm", 8, "azure"),
    ("Standard_ND96isr_H100_v5 for Llama 3.1 405B fp8", "Standard_ND96isr_H100_v5", "h100-sxm", 8, "azure"),
    ("GCP a3-highgpu-8g for Llama 3.1 405B fp8", "a3-highgpu-8g", "h100-sxm", 8, "gcp"),
    ("Llama-3-70B on an ND-H100-v5", "Standard_ND96isr_H100_v5", "h100-sxm", 8, "azure"),
    ("llama-3-70b on nd h100 v5?", "Standard_ND96isr_H100_v5", "h100-sxm", 8, "azure"),
    ("Qwen2.5-72B on ND96isr_H100_v5", "Standard_ND96isr_H100_v5", "h100-sxm", 8, "azure"),
    ("Qwen2.5-72B on an ND H200 v5", "Standard_ND96isr_H200_v5", "h200", 8, "azure"),
    ("Qwen2.5-72B on NDm A100 v4", "Standard_ND96amsr_A100_v4", "a100-80gb", 8, "azure"),
    ("Qwen2.5-72B on ND A100 v4", "Standard_ND96asr_v4", "a100-40gb", 8, "azure"),
    ("Llama-3-70B on Standard_NC80adis_H100_v5", "Standard_NC80adis_H100_v5", "h100-nvl", 2, "azure"),
    ("Llama-3-8B on standard_nc4as_t4_v3", "Standard_NC4as_T4_v3", "t4", 1, "azure"),
    ("DeepSeek-V3 on ND MI300X v5", "Standard_ND96isr_MI300X_v5", "mi300x", 8, "azure"),
    ("Llama-3-8B on g2-standard-24", "g2-standard-24", "l4", 2, "gcp"),
    ("Llama-3-70B on a2-ultragpu-1g.", "a2-ultragpu-1g", "a100-80gb", 1, "gcp"),
    ("Llama-3-70B on a2-highgpu-4g", "a2-highgpu-4g", "a100-40gb", 4, "gcp"),
    ("Llama 3.1 405B fp8 on A3 Mega", "a3-megagpu-8g", "h100-sxm", 8, "gcp"),
    ("用 a3-ultragpu-8g 跑 DeepSeek-V3 可以吗", "a3-ultragpu-8g", "h200", 8, "gcp"),
    ("Llama 3.1 405B on a4-highgpu-8g", "a4-highgpu-8g", "b200", 8, "gcp"),
])
def test_a_vm_name_is_its_cards_count_and_cloud(text: str, instance: str, gpu: str, count: int, cloud: str,
                                                kb: KnowledgeBase) -> None:
    q = parse(text, kb)
    assert (q.instance, q.gpu, q.gpu_count, q.cloud) == (instance, gpu, count, cloud)
    assert "instance" in q.stated


@pytest.mark.parametrize("text", REPROS)
def test_the_405b_fp8_repros_are_checked_on_eight_h100(text: str) -> None:
    answer = ask_json(text)
    assert answer["query"]["gpu"] == "h100-sxm"
    assert answer["query"]["gpu_count"] == 8
    assert answer["check"]["count"] == 8 and answer["check"]["fits"] is True
    assert "Yes:" in answer["text"] and "8× H100" in answer["text"]
    assert "1× H100" not in answer["text"]


@pytest.mark.parametrize("text", REPROS)
def test_no_price_is_invented_for_them(text: str) -> None:
    answer = ask_json(text)
    cloud = answer["query"]["cloud"]
    assert cloud in ("azure", "gcp")
    assert not [p for p in answer.get("picks") or [] if p.get("cloud") == cloud and p.get("price_per_hour")]
    assert "none is guessed" in answer["text"]


@pytest.mark.parametrize("text", [
    "Llama-3-8B on ND H100 v6",
    "Llama-3-8B on Standard_ND96isr_H100_v9",
    "Llama-3-8B on a3-highgpu-16g",
    "Llama-3-8B on a3-highgpu-8gx",
    "Llama-3-8B on my-a3-highgpu-8g-box",
    "Llama-3-8B on nd96isr_h100_v5x",
    "Llama-3-8B on an NC A100 v4",  # a series of 1, 2 and 4 cards: no one count to read
])
def test_unknown_or_partial_vm_names_are_not_guessed(text: str, kb: KnowledgeBase) -> None:
    q = parse(text, kb)
    assert q.instance is None, text
    assert q.gpu_count != 8, text


def test_a_stated_count_is_kept(kb: KnowledgeBase) -> None:
    q = parse("Llama-3-70B on 2 GPUs of an ND H100 v5", kb)
    assert (q.instance, q.gpu, q.gpu_count) == ("Standard_ND96isr_H100_v5", "h100-sxm", 2)


def test_the_first_machine_named_is_the_one_read(kb: KnowledgeBase) -> None:
    assert parse("Llama-3-70B on ND H100 v5 or p4d.24xlarge", kb).instance == "Standard_ND96isr_H100_v5"
    assert parse("Llama-3-70B on p4d.24xlarge or ND H100 v5", kb).instance == "p4d.24xlarge"


def test_the_index_reads_every_name_of_every_layout(kb: KnowledgeBase) -> None:
    index = instance_index(kb)
    for layout in kb.instance_types.values():
        for name in layout.names:
            found = find_instance(f"on {name.lower()} please", kb)
            assert found is not None, name
            assert (found.instance.gpu_id, found.instance.count) == (layout.gpu, layout.count), name
    assert index.vm_names is not None


def test_an_aws_family_with_one_size_is_read_with_its_cards() -> None:
    # p4d is only ever p4d.24xlarge (8× A100 40GB): "on AWS p4d" checked one A100 and said No
    reply = ask_json("Llama 3.1 70B on AWS p4d")
    assert reply["check"]["count"] == 8 and reply["check"]["fits"] is True
    # a g5 comes with 1 to 8 cards: the family gives the card, not a count
    assert ask_json("Llama 3 8B on an aws g5 instance")["check"]["count"] == 1
