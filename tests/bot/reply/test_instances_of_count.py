"""A card's facts asked with a count say which instance types carry that many (audit 28 LOW-94: "阿里云上 8 卡 H20
的实例叫什么" named the families gn8v and ebmgn8v but no instance type)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_an_alibaba_count_names_its_instance_types() -> None:
    text = ask_json("阿里云上 8 卡 H20 的实例叫什么，多少钱？")["text"]
    line = next(line for line in text.splitlines() if line.startswith("8 卡实例"))
    assert "ecs.gn8v-8x.16xlarge (64 vCPU, 768 GiB)" in line and "ecs.gn8v-4x" not in line


def test_another_clouds_vm_of_that_count_is_named_too() -> None:
    text = ask_json("which Azure VM has 8 H100s?")["text"]
    assert "With 8 cards: Standard_ND96isr_H100_v5" in text


def test_no_list_without_a_count() -> None:
    assert "With " not in ask_json("H100 specs")["text"].split("Time and cost")[0]
