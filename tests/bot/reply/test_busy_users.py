"""A count of concurrent users with no request rate: what they start when each is always waiting on an answer
(audit 25 M-30), and the first-token targets and prompt lengths the same questions are written with."""

from __future__ import annotations

import math

from bot.reply.answer import answer
from bot.reply.defaults import workload_for
from bot.reply.render import render_text
from bot.reply.request_pace import busy_turnover, request_seconds
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
RAG = ("We're launching an internal RAG assistant: Llama 3.1 70B AWQ on vLLM, about 300 concurrent users at peak, "
       "prompts ~3k tokens (retrieved chunks), answers ~400 tokens, TTFT target under 2 s. How many H100s, and what "
       "per month on AWS?")


def test_a_ttft_target_written_as_a_target_is_read() -> None:
    for text, seconds in (("TTFT target under 2 s", 2.0), ("TTFT goal: 500ms", 0.5),
                          ("TTFT should be under 1.5s", 1.5), ("首token延迟目标 2 秒", 2.0)):
        question = parse(f"Llama 3.1 8B on vLLM, 20 req/s, {text}, on L40S", KB)
        assert question.ttft_s == seconds, text


def test_chinese_prompt_and_answer_lengths_are_read() -> None:
    question = parse("Llama 3.1 70B AWQ 用 vLLM，300 个并发用户，提示约 3k token，回答约 400 token，要几张 H100？", KB)
    assert (question.context, question.gen_tokens) == (3072 + 400, 400)
    warning = parse("Qwen2.5-7B 在 4090 上提示 OOM 了，上下文 8k，怎么办", KB)
    assert warning.context == 8192


def test_busy_users_that_outrun_the_prefill_are_said_with_the_rate_they_start() -> None:
    result = answer(parse(RAG, KB), KB)
    plan = result.serving
    assert plan is not None and plan.replicas == 1 and plan.gpus_per_replica == 8
    busy = plan.targets["busy_qps"]
    # 300 sequences in flight, each finishing a 400-token answer in ≈ 12.8 s at that load: ≈ 23 requests a second
    assert 20 < busy < 26
    assert plan.targets["busy_replicas"] >= 3 and plan.targets["plan_qps"] < busy / 2
    text = render_text(result, kb=KB)
    assert f"they start ≈ {busy:.3g} requests/s" in text
    assert "one replica is enough" not in text and "binding target is memory" not in text


def test_the_turnover_is_users_over_one_requests_time() -> None:
    question = parse(RAG, KB)
    gpu = KB.gpus["h100-sxm"]
    workload, _ = workload_for(question, KB.models["llama-3.1-70b"], gpu)
    seconds = request_seconds(workload, gpu, 8, 300)
    figures = busy_turnover(question, workload, gpu, 8, 1, 300)
    assert math.isclose(figures["busy_qps"], round(300 / seconds, 2))
    # a rate stated is the load: nothing to infer
    assert busy_turnover(question.model_copy(update={"qps": 5.0}), workload, gpu, 8, 1, 300) == {}


def test_users_the_prefill_keeps_up_with_get_no_turnover_line() -> None:
    # 50 users of a 7B model with 1k prompts: ≈ 6 requests a second, well within one L40S's prefill
    result = answer(parse("Qwen2.5-7B on vLLM, 50 concurrent users, 1k prompts, 300-token answers, first token "
                          "under 1 s, on one L40S", KB), KB)
    plan = result.serving
    assert plan is not None and "busy_qps" not in plan.targets
    text = render_text(result, kb=KB)
    assert "waiting on an answer all the time" not in text
    # the engine's batch holds more than the 50 in flight: nothing binds
    assert "one replica is enough" in text and "raise --max-num-seqs" not in text
