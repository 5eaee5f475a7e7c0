"""A quantised alternative on the card asked carries its decode speed there: "does it fit, and if not which
quant and how many tok/s?" is answered for that card, not only for the picks (audit 17 M-5)."""

from __future__ import annotations

from dataclasses import replace

import rules
from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_each_quantised_fix_on_the_asked_card_is_timed_there() -> None:
    question = parse("Qwen3-30B-A3B in bf16 on a single RTX 3090: does it fit, and if not which quant and how "
                     "many tok/s?", KB)
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits
    quantised = [s for s in result.check.suggestions if s.kind == "quantise" and s.gpu is None]
    assert quantised and all(s.decode_tokens_per_s for s in quantised)
    gguf = next(s for s in quantised if s.engine == "llama.cpp")
    # a Q4_K_M GGUF of a 3B-active MoE decodes far faster than the bf16 job's transformers loop
    assert gguf.decode_tokens_per_s is not None and gguf.decode_tokens_per_s > 50
    text = render_text(result, kb=KB)
    assert f"needs {gguf.memory_per_gpu_gb:.1f} GiB per card · ~{gguf.decode_tokens_per_s:,.0f} tok/s" in text


def test_the_speed_is_the_rules_speed_of_that_format_on_that_card() -> None:
    question = parse("can I run Llama 3 70B on one H100?", KB)
    result = answer(question, KB)
    assert result.check is not None
    fix = next(s for s in result.check.suggestions if s.kind == "quantise")
    model = KB.models[result.query.model or ""]
    workload = rules.Workload(model=model, task="inference", precision="bf16", context=result.query.context or 4096,
                              batch=1, engine=result.query.engine or "transformers")
    expected = rules.estimate_speed(replace(workload, precision=fix.precision, quant=fix.quant),
                                    KB.gpus[result.check.gpu], 1).decode_tokens_per_s
    assert expected is not None and fix.decode_tokens_per_s == round(expected, 1)


def test_more_cards_and_training_fixes_carry_no_speed() -> None:
    check = answer(parse("can I run Llama 3 70B on one H100?", KB), KB).check
    assert check is not None and all(s.decode_tokens_per_s is None for s in check.suggestions
                                     if s.kind != "quantise")
    training = answer(parse("full fine-tune Llama 3 8B on one 4090?", KB), KB).check
    assert training is not None and all(s.decode_tokens_per_s is None for s in training.suggestions)
