"""The A10G (AWS G5) in a reply: sized, priced on its G5 instances, timed only where its memory bandwidth
decides, and saying why the other times are missing."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_a10g_check_is_sized_priced_and_says_what_is_not_timed() -> None:
    result = answer(parse("can I run Llama-3-8B on an A10G?", KB), KB)
    assert result.check is not None and result.check.fits and result.check.gpu == "a10g"
    assert result.speed["decode_tokens_per_s"] and result.speed["prefill_tokens_per_s"] is None
    assert result.cost is not None and (result.cost.instance, result.cost.per_hour) == ("g5.xlarge", 1.006)
    text = render_text(result, kb=KB)
    assert "no prefill, training or serving-plan time: A10G has no published throughput figure" in text
    assert "precision bf16" in text  # Ampere: bf16, not the pre-Ampere fp16 fallback


def test_a10g_instance_training_and_serving_targets_get_no_made_up_time() -> None:
    training = answer(parse("LoRA Llama-3-8B on a g5.12xlarge, 1B tokens", KB), KB)
    assert training.query.gpu == "a10g" and training.query.gpu_count == 4
    assert training.speed.get("train_tokens_per_s") is None and training.speed.get("train_hours") is None
    serving = answer(parse("serve Llama-3-8B on A10G with vllm at 5 qps", KB), KB)
    assert serving.serving is None
    assert "不估算预填充、训练和服务规划时间" in render_text(answer(parse("A10G跑Qwen2-7B推理", KB), KB), kb=KB)


def test_a10g_card_info_says_its_throughput_is_unpublished() -> None:
    text = render_text(answer(parse("tell me about the A10G", KB), KB), kb=KB)
    assert "Throughput: no published figure" in text and "600 GB/s" in text
    assert "Throughput: no published figure" not in render_text(answer(parse("tell me about the A10", KB), KB), kb=KB)


def test_a10g_latency_question_gets_its_output_time_and_no_made_up_prefill() -> None:
    # audit 13 N-M11: "p95 latency … 4 concurrent users" on an A10G gave no speed at all
    result = answer(parse("llama 3.1 8b instruct on 1x A10G, p95 latency for 512 output tokens with 4 concurrent "
                          "users?", KB), KB)
    decode = result.speed["decode_tokens_per_s"]
    assert decode and 15 < decode < 40  # ≈ 16 GB of weights at 600 GB/s: ≈ 27 ms a step at best
    assert result.speed["request_generation_s"] == round(512 / decode, 2)
    assert result.speed.get("request_s") is None and result.speed.get("first_token_s") is None
    text = render_text(result, kb=KB)
    assert f"one request's 512 output tokens take ≈ {512 / decode:.0f} s" in text and "not timed here" in text


def test_a10g_full_load_is_timed_at_the_batch_its_bandwidth_alone_can_time() -> None:
    # audit 14 A-M1: 0.298 USD per million tokens beside 4.37 in one reply, the first at ~940 tok/s: a batch of 256
    # timed with no compute term at all
    from bot.reply.serving import full_load_rate
    from rules import Workload
    from rules.speed_constants import UNLISTED_COMPUTE_DECODE_BATCH

    workload = Workload(model=KB.models["llama-3.1-8b"], engine="vllm", precision="bf16", context=4096)
    rate = full_load_rate(workload, KB.gpus["a10g"], 1)
    step = answer(parse("Llama 3.1 8B on an A10G with vllm, 8 concurrent users", KB), KB).speed
    assert rate is not None and step["aggregate_tokens_per_s"] is not None
    assert rate == pytest.approx(step["aggregate_tokens_per_s"], rel=0.02)  # no more than the 8 sequences' rate
    assert UNLISTED_COMPUTE_DECODE_BATCH == 8
    text = render_text(answer(parse("Which is cheaper per million tokens for Llama 3.1 8B: an L4 or an A10G on "
                                    "AWS?", KB), KB), kb=KB)
    l4 = next(line for line in text.splitlines() if line.startswith("• L4"))
    a10g = next(line for line in text.splitlines() if line.startswith("• A10G"))
    assert "tok/s in all, timed at 8 sequences at most" in a10g
    assert "tok/s in all" in l4 and "timed at" not in l4
