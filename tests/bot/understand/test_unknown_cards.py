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
