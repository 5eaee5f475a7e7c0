"""A card known by its memory and bandwidth only ("a 24 GB GPU with 600 GB/s"): sized, timed only where its
memory bandwidth decides, and saying why the other times are missing. And the A10G (AWS G5), which had no
throughput figure until a measured GEMM rate gave it one: now timed like any card (audit 21-24 M-6)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
GENERIC = "a 24GB GPU with 600 GB/s memory bandwidth"


def test_a_card_known_by_memory_and_bandwidth_is_sized_and_says_what_is_not_timed() -> None:
    result = answer(parse(f"can I run Llama-3-8B on {GENERIC}?", KB), KB)
    assert result.check is not None and result.check.fits
    assert result.speed["decode_tokens_per_s"] and result.speed["prefill_tokens_per_s"] is None
    text = render_text(result, kb=KB)
    assert "decode from the 600 GB/s stated; no prefill, training or serving-plan time without the card's compute" \
        in text
    chinese = answer(parse("Qwen2-7B推理，一张 24GB、带宽 600 GB/s 的卡", KB), KB)
    assert "不估算预填充、训练和服务规划时间" in render_text(chinese, kb=KB)


def test_a_latency_question_on_it_gets_its_output_time_and_no_made_up_prefill() -> None:
    # audit 13 N-M11: "p95 latency … 4 concurrent users" on a card with no compute figure gave no speed at all
    result = answer(parse(f"llama 3.1 8b instruct on {GENERIC}, p95 latency for 512 output tokens with 4 "
                          "concurrent users?", KB), KB)
    decode = result.speed["decode_tokens_per_s"]
    assert decode and 15 < decode < 40  # ≈ 16 GB of weights at 600 GB/s: ≈ 27 ms a step at best
    assert result.speed["request_generation_s"] == round(512 / decode, 2)
    assert result.speed.get("request_s") is None and result.speed.get("first_token_s") is None
    text = render_text(result, kb=KB)
    assert f"one request's 512 output tokens take ≈ {512 / decode:.0f} s" in text and "not timed here" in text


def test_its_full_load_is_timed_at_the_batch_its_bandwidth_alone_can_time() -> None:
    # audit 14 A-M1: 0.298 USD per million tokens beside 4.37 in one reply, the first at ~940 tok/s: a batch of 256
    # timed with no compute term at all
    from bot.reply.serving import full_load_rate
    from rules import Workload
    from rules.speed_constants import UNLISTED_COMPUTE_DECODE_BATCH

    unlisted = KB.gpus["a10"].model_copy(update=dict(fp16_tflops=None, bf16_tflops=None, fp32_tflops=None,
                                                     fp8_tflops=None, int8_tops=None))
    workload = Workload(model=KB.models["llama-3.1-8b"], engine="vllm", precision="bf16", context=4096)
    rate = full_load_rate(workload, unlisted, 1)
    eight = full_load_rate(workload, KB.gpus["a10"], 1)
    assert rate is not None and eight is not None and rate < eight
    assert UNLISTED_COMPUTE_DECODE_BATCH == 8


def test_the_a10g_is_timed_priced_and_laid_out_for_a_load() -> None:
    # audit 21-24 M-6: "1× A10G … how many the load needs is not computed" ranked first, and no hours for jobs on it
    result = answer(parse("can I run Llama-3-8B on an A10G?", KB), KB)
    assert result.check is not None and result.check.fits and result.check.gpu == "a10g"
    assert result.speed["decode_tokens_per_s"] and result.speed["prefill_tokens_per_s"]
    # prefill at PREFILL_MFU of its 69.5 measured TFLOPS: 2 × 8B FLOPs a token → ≈ 2,000 tok/s
    assert result.speed["prefill_tokens_per_s"] == pytest.approx(0.5 * 69.5e12 / (2 * 8.0e9), rel=0.1)
    assert result.cost is not None and (result.cost.instance, result.cost.per_hour) == ("g5.xlarge", 1.006)
    text = render_text(result, kb=KB)
    assert "no prefill, training or serving-plan time" not in text and "precision bf16" in text
    training = answer(parse("LoRA Llama-3-8B on a g5.12xlarge, 1B tokens", KB), KB)
    assert training.query.gpu == "a10g" and training.query.gpu_count == 4
    assert training.speed.get("train_hours") and training.speed["train_tokens_per_s"]
    serving = answer(parse("serve Llama-3-8B on A10G with vllm at 5 qps", KB), KB)
    assert serving.serving is not None


def test_the_a10g_card_info_gives_its_measured_throughput_and_the_a10_its_datasheet() -> None:
    text = render_text(answer(parse("tell me about the A10G", KB), KB), kb=KB)
    assert "69.5" in text and "600 GB/s" in text and "Throughput: no published figure" not in text
    assert "125" in render_text(answer(parse("tell me about the A10", KB), KB), kb=KB)
