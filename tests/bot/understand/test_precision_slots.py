"""The precision slot: what the text asks for, not a precision it names as missing."""

from __future__ import annotations


def test_a_precision_named_as_what_the_card_lacks_is_not_the_one_asked() -> None:
    # audit 14 A-L1: "I heard bf16 isn't supported" was read back as bf16 asked
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    assert parse("Can a V100 32GB serve Llama 3.1 8B with vLLM? I heard bf16 isn't supported.", kb).precision is None
    assert parse("V100 不支持 bf16，跑 Qwen2.5-7B 用什么精度", kb).precision is None
    assert parse("A100 has no fp8, so run Llama 70B in int8 on it?", kb).precision == "int8"
    assert parse("run Qwen 7B bf16 on a T4", kb).precision == "bf16"
