"""A reply about an MI250X says it sized GCDs and how many modules that is (audit 33 M-113)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_four_modules_are_eight_gcds_of_64_gb() -> None:
    answer = ask_json("can 4 MI250 fine-tune Llama-3-8B full?")
    assert answer["query"]["gpu_count"] == 8 and answer["query"]["gpu"] == "mi250"
    assert "An AMD Instinct MI250 module is 2 GCDs of 64 GB" in answer["text"]
    assert "(4 modules = 8 GCDs)" in answer["text"]
    # 64 GB less the ROCm context: the room each GCD gives, not a 128 GB device's
    assert answer["check"]["gpu_memory_gb"] == 64 and answer["check"]["limit_gb"] < 64


def test_one_module_is_two_gcds_and_a_70b_in_bf16_does_not_fit_them() -> None:
    # Llama-3-70B bf16: 70.6e9 × 2 bytes = 131 GiB of weights > 2 × 63.5 GiB
    answer = ask_json("can I run Llama-3-70B inference on one MI250X?")
    assert answer["query"]["gpu_count"] == 2
    assert "(1 module = 2 GCDs)" in answer["text"]
    assert answer["check"]["fits"] is False


def test_the_notice_is_in_chinese_too() -> None:
    text = ask_json("4张MI250X能全参微调Llama-3-8B吗")["text"]
    assert "一块 AMD Instinct MI250X 模块含 2 个 GCD" in text and "4 块模块 = 8 个 GCD" in text


def test_other_cards_have_no_such_notice() -> None:
    assert "GCD" not in ask_json("can 4 MI300X serve Llama-3-70B?")["text"]
