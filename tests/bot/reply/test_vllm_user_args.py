"""A pasted vLLM start-up log is read for the flags the user set and the KV cache it reports (audit 29 HIGH 52):
the reply had assumed 1 card, gpu_memory_utilization 1.0 and max_num_seqs 256 "not stated" beside a log saying
TP 2, 0.92 and 64, and never said what the log's own 85,040-token cache holds."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
PASTE = Path(__file__).with_name("vllm_awq_tp2_oom_paste.txt").read_text(encoding="utf-8")


def test_the_non_default_args_record_is_the_configuration() -> None:
    question = parse(PASTE, KB)
    assert (question.gpu_count, question.memory_fraction, question.max_num_seqs) == (2, 0.92, 64)
    assert question.logged_kv_tokens == 85_040 and question.context == 8192


def test_the_logs_cache_is_said_at_the_requests_length_with_the_cap_above_it() -> None:
    text = ask_json(PASTE)["text"]
    # 85,040 // 8,192 = 10 requests at once; max_num_seqs 64 admits more, so vLLM preempts on spikes
    assert "the KV cache holds 85,040 tokens: that is 10 requests of 8,192 tokens at once" in text
    assert "max_num_seqs 64 admits more than that: past 10, vLLM preempts" in text
    assert "max_num_seqs (its start-up sampler warm-up, counted in activations) 256" not in text


NAMESPACE_PASTE = Path(__file__).with_name("vllm_085_namespace_oom_paste.txt").read_text(encoding="utf-8")


def test_the_api_servers_namespace_record_is_the_configuration() -> None:
    # audit 38 HIGH-116: vLLM 0.8.5 prints every flag as "args: Namespace(…)"; the reply had sized 4,096 tokens at
    # gpu_memory_utilization 1.0 "the engine's own default" beside a log saying 32,768 and 0.9
    question = parse(NAMESPACE_PASTE, KB)
    assert (question.context, question.memory_fraction, question.gpu_count) == (32_768, 0.9, 4)
    assert question.engine == "vllm" and question.engine_version == "0.8.5"


def test_the_namespace_logs_job_is_sized_as_configured_and_does_not_fit() -> None:
    reply = ask_json(NAMESPACE_PASTE)
    # Qwen2.5-72B: 80 layers × 8 KV heads × 128 × 2 (K, V) × 2 bytes = 320 KiB a token; 32,768 tokens = 10 GiB,
    # 2.5 GiB a card at TP 4, beside 33.9 GiB of weights: over the 0.9 × 40 GB = 36.0 GiB vLLM takes
    assert reply["check"]["fits"] is False and reply["check"]["limit_gb"] == 36.0
    assert reply["estimate"]["breakdown"]["kv_cache"] == 2.5
    assert "What would fit" in reply["text"] and "gpu_memory_utilization 1.0" not in reply["text"]


def test_an_oom_on_cards_the_sizing_says_hold_it_lists_what_makes_room() -> None:
    # the log settles a fit within a few percent; "one of the changes listed" must have changes under it
    text = ask_json("vllm keeps dying when I start Qwen2.5-72B-Instruct on our 4x A100 40GB box: "
                    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 462.00 MiB. what should I change?"
                    )["text"]
    assert "Your log settles it" in text and "What would fit:" in text
    fixes = text.split("What would fit:")[1].split("\n\n")[0]
    assert "quantise to INT8" in fixes and "8× A100 40GB" in fixes
    control = ask_json("can I serve Qwen2.5-72B-Instruct on 4x A100 40GB with vLLM?")["text"]
    assert "What would fit:" not in control  # no log, a fit: nothing to change
