"""Cards and accelerators the knowledge base does not list: named back as unknown, never passed over."""

from __future__ import annotations

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_an_unlisted_accelerator_named_beside_a_known_card_is_said_to_be_unknown() -> None:
    # audit 14 A-M4: "Jetson or T4?" checked the T4 without a word about the Jetson
    question = parse("Phi-3-mini 在 Jetson 上跑得動嗎？還是要用 T4？", KB)
    assert question.gpu == "t4" and question.unknown_gpu_text == "Jetson"
    assert parse("Phi-3-mini on a T4", KB).unknown_gpu_text is None


def test_an_unknown_family_with_its_version_and_size_written_apart_is_named_back() -> None:
    # audit 17 L-4: "Falcon 3 10B" was sized as a generic 10B without saying the model is unknown
    question = parse("Can I run Falcon 3 10B on an RTX 4070?", KB)
    assert question.model is None and question.model_text == "Falcon 3 10B" and question.params_b == 10
    assert parse("can I run 7B on a T4", KB).model_text is None  # a bare size names no model


def test_a_bandwidth_stated_beside_an_unknown_card_is_its_memory_bandwidth_not_its_memory() -> None:
    question = parse("can my Moore Threads MTT S80 16GB (448 GB/s) run qwen2.5 7b int4 with llama.cpp?", KB)
    assert (question.memory_gb, question.card_bandwidth_gbps) == (16, 448)
    chinese = parse("一张国产卡 32G 显存 带宽 1.2TB/s，跑 Qwen2.5-14B 推理多少 tok/s", KB)
    assert (chinese.memory_gb, chinese.card_bandwidth_gbps) == (32, 1200)


def test_the_bandwidth_of_the_host_ram_or_a_link_is_not_the_cards() -> None:
    for text in ("a 24GB card and DDR5 RAM at 89.6 GB/s, llama 3 70b q4 with offload",
                 "two 24GB cards over PCIe 4.0 (32 GB/s), Qwen2.5-32B AWQ",
                 "24GB card, NVLink 600 GB/s, llama 3 8b"):
        assert parse(text, KB).card_bandwidth_gbps is None, text


def test_a_bandwidth_beyond_any_card_is_not_read() -> None:
    assert parse("16GB card at 90000 GB/s, llama 3 8b", KB).card_bandwidth_gbps is None
