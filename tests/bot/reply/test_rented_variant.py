"""A bare card name on a named cloud is the variant that cloud rents cheapest for the job (audit 18 H-2)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_a_small_job_on_a_lambda_a100_is_priced_on_the_one_card_instance() -> None:
    question = parse("Unsloth QLoRA on Qwen3-14B, 20k examples of ~1,500 tokens, 2 epochs, on a Lambda A100: how "
                     "long and how much?", KB)
    assert question.gpu == "a100-80gb" and question.gpu_variants == ["a100-80gb", "a100-40gb"]
    result = answer(question, KB)
    assert result.query.gpu == "a100-40gb"
    assert result.cost is not None and result.cost.instance_gpus is None and result.cost.count == 1
    forty = min(r.price_per_hour for r in KB.prices.values() if r.cloud == "lambda" and r.gpu == "a100-40gb"
                and r.count == 1)
    assert result.cost.per_hour == forty
    text = render_text(result, kb=KB)
    assert "the variant the cloud named rents cheapest that holds the job" in text


def test_a_job_only_the_larger_variant_holds_keeps_it() -> None:
    # 32.8e9 × 2 B = 61 GiB of weights: only the 80 GB card holds it, whatever the 40 GB one costs
    result = answer(parse("serve Qwen2.5-32B in bf16 on one Lambda A100", KB), KB)
    assert result.query.gpu == "a100-80gb" and result.check is not None and result.check.fits


def test_without_a_cloud_the_default_variant_stays() -> None:
    result = answer(parse("Unsloth QLoRA on Qwen3-14B on an A100", KB), KB)
    assert result.query.gpu == "a100-80gb"
    assert "memory size not stated: read as this variant" in render_text(result, kb=KB)


def test_geforce_siblings_are_no_variants() -> None:
    assert parse("Llama 3 8B on a 3090 on RunPod", KB).gpu_variants == []
