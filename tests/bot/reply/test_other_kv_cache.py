"""A KV-cache type weighed beside a set-up that runs is answered in one line, not applied to the job sized
(audit 25 HIGH 22's residue), and request lengths written in prose beside an engine's length flag are read."""

from __future__ import annotations

from pathlib import Path

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = (Path(__file__).parent / "vllm_two_replicas_paste.txt").read_text(encoding="utf-8")


def test_the_pasted_set_up_is_sized_as_it_runs_and_the_fp8_cache_is_weighed_per_replica() -> None:
    question = parse(PASTE, KB)
    assert question.kv_cache is None and question.other_kv_cache == "fp8"
    assert (question.other_kv_context, question.tensor_parallel, question.gpu_count) == (32768, 2, 4)
    result = answer(question, KB)
    other = result.other_kv
    assert other is not None and other["count"] == 2 and other["context"] == 32768
    # the log says 7.18 sequences of 32,768 tokens fit a TP2 pair in bf16; fp8 halves a token's cache
    assert other["now"] == 7 and 2 * other["now"] <= other["other"] <= 2 * other["now"] + 2
    text = render_text(result, kb=KB)
    assert f"holds {other['other']} sequences of 32,768 tokens at once (7 now)" in text
    assert "KV cache fp8" not in text.splitlines()[2]
    assert "(--max-num-seqs)" not in text  # 15 is within the 32 the engine batches


def test_a_kv_type_asked_for_with_no_running_set_up_is_the_job() -> None:
    question = parse("Qwen2.5-32B AWQ on 2x L40S with vLLM: if I use an fp8 KV cache, how many 32k sequences fit?",
                     KB)
    assert question.kv_cache == "fp8" and question.other_kv_cache is None
    assert answer(question, KB).other_kv is None


def test_the_chinese_what_if_beside_a_running_set_up() -> None:
    question = parse("我们现在用 vLLM 在 2 张 L40S 上跑 Qwen2.5-32B-AWQ，--max-model-len 32768，"
                     "如果 KV cache 改成 fp8，每个副本能放几个 32k 的序列？", KB)
    assert question.kv_cache is None and question.other_kv_cache == "fp8"
    text = render_text(answer(question, KB), kb=KB)
    assert "若 KV 缓存改用 fp8，一个副本（2× L40S）可同时容纳" in text


def test_answer_lengths_in_prose_after_a_prompt_length() -> None:
    for text in ("Qwen2.5-32B-Instruct-AWQ on 2x L40S with vLLM, about 40 users, prompts around 6k tokens and "
                 "answers around 700: enough?",
                 "Qwen2.5-32B-Instruct-AWQ on 2x L40S, 40 users, prompts of about 6k tokens with replies of about "
                 "700: enough?"):
        question = parse(text, KB)
        assert (question.context, question.gen_tokens) == (6144 + 700, 700), text
    latency = parse("Qwen2.5-32B on 2x L40S, prompts of 6k tokens and responses around 700 ms latency", KB)
    assert latency.gen_tokens is None
