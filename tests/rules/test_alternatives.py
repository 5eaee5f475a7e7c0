"""rules.alternatives: the changes that would make a job fit, in the order a practitioner tries them."""

from __future__ import annotations


def test_a_fix_that_keeps_the_card_comes_before_a_quantisation_on_more_cards() -> None:
    # audit 20 LOW-6: num_ctx 65536 for qwen2.5:14b on one 16 GB card offered "a Q3_K_M GGUF … on 2×" first,
    # above an INT8 KV cache that fits the one card asked about
    from bot.reply.answer import answer
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer(parse("If I set num_ctx to 65536 for qwen2.5:14b in Ollama on a 16GB RTX 4070 Ti Super, will "
                          "it OOM?", kb), kb)
    assert result.check is not None
    kinds = [(s.kind, s.count) for s in result.check.suggestions]
    assert kinds[0] == ("kv-cache", None)
    wider = kinds.index(("quantise", 2))
    assert all(kind not in ("cpu-layers", "more-gpus", "bigger-gpu") for kind, _ in kinds[:wider])
