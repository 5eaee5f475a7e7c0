"""A layer split (llama.cpp, cards someone owns) is sized on any count of cards, not tensor-parallel degrees."""

from __future__ import annotations


def test_llama_cpp_on_owned_cards_is_sized_on_any_count_up_to_a_machine() -> None:
    # audit 27 M-40: llama.cpp splits layers, with no head count to divide: 3 RTX 4090s hold Qwen3-32B Q8_0 at
    # 32k for 3 users (≈ 20 GiB a card), where the counts tried (1, 2, 4, 8) made the answer 4
    from bot.reply.answer import answer
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer(parse("how many 4090s do I need for qwen3 32b q8 gguf at 32k ctx with llama.cpp, 3 users at "
                          "the same time", kb), kb)
    top = result.picks[0]
    assert (top.gpu, top.count) == ("rtx-4090", 3) and top.fits
