"""A card that shows the runtime two devices (an MI250X module: two GCDs of 64 GB) is counted in devices (audit 33
M-113: "4 MI250" was sized as four 128 GB devices; the runtime sees eight of 64 GB)."""

from __future__ import annotations

import pytest

from bot.understand.devices import per_device
from bot.understand.parse import parse
from bot.understand.question import Question
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "gpu", "count"), [
    ("can 4 MI250 fine-tune Llama-3-8B full?", "mi250", 8),
    ("4张MI250X能全参微调Llama-3-8B吗", "mi250x", 8),
    ("can I run Llama-3-70B inference on one MI250X?", "mi250x", 2),
    ("Llama-3-70B on an MI250X?", "mi250x", 2),
])
def test_a_count_of_modules_is_a_count_of_gcds(text: str, gpu: str, count: int) -> None:
    question = parse(text, KB)
    assert (question.gpu, question.gpu_count) == (gpu, count)
    assert "gpu_count" in question.stated


def test_an_open_count_stays_open_and_other_cards_are_untouched() -> None:
    assert parse("how many MI250X for Llama-3-70B inference?", KB).gpu_count is None
    assert parse("can 4 MI300X serve Llama-3-70B?", KB).gpu_count == 4
    assert parse("Llama-3-70B on one A100 80GB?", KB).gpu_count in (None, 1)


def test_compare_counts_and_card_sets_are_multiplied() -> None:
    compared = per_device(Question(text="x", intent="compare", compare_gpus=["mi250x", "a100-80gb"],
                                   compare_counts={"mi250x": 4, "a100-80gb": 4}), KB)
    assert compared.compare_counts == {"mi250x": 8, "a100-80gb": 4}
    mixed = per_device(Question(text="x", intent="check", gpu="mi250x", gpu_count=2,
                                gpu_set=["mi250x", "mi210"]), KB)
    assert mixed.gpu_set == ["mi250x", "mi250x", "mi210"] and mixed.gpu_count == 3


def test_a_gcd_is_half_the_module_as_published() -> None:
    # AMD: MI250X module 128 GB, 3.2 TB/s, 383 TFLOPS FP16; MI250 362.1 TFLOPS; each GCD 64 GB at 1.6 TB/s
    for card_id, fp16 in (("mi250x", 383), ("mi250", 362.1)):
        card = KB.gpus[card_id]
        assert card.devices_per_card == 2 and card.gpus_per_node == 2
        assert (card.memory_gb, card.bandwidth_gbps) == (64, 1600)
        assert card.fp16_tflops == pytest.approx(fp16 / 2)
