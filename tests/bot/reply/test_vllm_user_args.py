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
