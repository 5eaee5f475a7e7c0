"""Pasted logs: each repeated record read once, so the question after a minute of metrics lines is answered."""

from __future__ import annotations

from bot.reply.render import render_text
from bot.service import MAX_MESSAGE_CHARS, Advisor, ask
from bot.understand.logs import fold_repeated_records
from knowledge.loader import default_knowledge

KB = default_knowledge()

METRICS = ("INFO 12-06 10:{m:02d}:07 [metrics.py:455] Avg prompt throughput: {p}.0 tokens/s, Avg generation "
           "throughput: {g}.2 tokens/s, Running: {r} reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: "
           "{u}.0%, CPU KV cache usage: 0.0%. ")
QUESTION = "-- why is KV cache usage so high and how many concurrent users can this card hold at 16k?"
PASTE = ("here is our vllm log from the Qwen2.5-32B AWQ box (1x L40S, --max-model-len 16384): "
         + "".join(METRICS.format(m=m, p=1000 + 37 * m, g=200 + 11 * m, r=20 + m, u=40 + m) for m in range(30))
         + QUESTION)


def test_records_pasted_into_one_line_are_told_apart_and_read_once_each() -> None:
    folded, dropped = fold_repeated_records(PASTE)
    assert dropped == 28  # 30 records: the first is kept, and the last, which carries the question
    assert folded.startswith("here is our vllm log") and folded.endswith(QUESTION)
    assert folded.count("[metrics.py:455]") == 2


def test_records_on_their_own_lines_and_short_lines_are_kept() -> None:
    text = "\n".join(["my log:", *(f"INFO 2025-01-0{d} 10:00:00 loaded weights in {d}.5 s, rank {d}" for d in
                                   range(1, 6)), "ok", "ok", "is this normal?"])
    folded, dropped = fold_repeated_records(text)
    assert dropped == 4 and folded.splitlines() == ["my log:", "INFO 2025-01-01 10:00:00 loaded weights in 1.5 s, "
                                                    "rank 1", "ok", "ok", "is this normal?"]


def test_a_long_pasted_log_with_its_question_is_answered_and_says_what_it_skipped() -> None:
    # audit 21 LOW-1: a 5,122-character vLLM log and its question got "That message is too long"
    assert len(PASTE) > MAX_MESSAGE_CHARS
    result = ask({"text": PASTE}, KB)
    assert result.error is None and result.query.gpu == "l40s" and result.query.context == 16384
    assert result.understood["records_folded"] == 28
    text = render_text(result, KB)
    assert "28 repeats skipped" in text and "· 28" not in text  # said in a notice, not read back as a slot
    reply = Advisor(KB).respond(PASTE, "thread:log")
    assert reply.answer.error is None and reply.answer.understood["records_folded"] == 28


def test_a_long_message_with_nothing_repeated_is_still_refused() -> None:
    prose = " ".join(f"sentence {n} about a different subject{'!' * (n % 7)} word{n}" for n in range(400))
    assert len(prose) > MAX_MESSAGE_CHARS
    assert ask({"text": prose}, KB).error == "too-long"


def test_a_long_chinese_message_is_refused_in_chinese() -> None:
    # audit 22 LOW-1: the refusal of a Chinese paste was in English
    result = ask({"text": "这是一段很长的中文说明，没有重复的日志。" * 150 + "".join(str(n) for n in range(400))}, KB)
    assert result.error == "too-long" and result.query.lang == "zh-Hans"


def test_a_pasted_nvidia_smi_row_is_no_count_of_cards() -> None:
    # audit 22 HIGH 9: "|   0  NVIDIA A100…" was read as 0 GPUs (bounded to 1) and beat "8 卡" / "8x H100"
    from bot.understand.parse import parse

    rows = ("|   0  NVIDIA A100-SXM4-80GB  On | 00000000:07:00.0 Off | 0 |\n"
            "|   1  NVIDIA A100-SXM4-80GB  On | 00000000:0B:00.0 Off | 0 |\n")
    asked = "我们这台 8 卡 A100 80G 的机器跑 Qwen2.5-72B-Instruct bf16（vLLM，TP=8），32k 上下文最多能撑多少并发？"
    question = parse(rows + asked, KB)
    assert question.gpu == "a100-80gb" and question.gpu_count == 8 and "gpu_count" not in question.clamped
    english = parse("nvidia-smi:\n|   0  NVIDIA H100 80GB HBM3   On | 00000000:18:00.0 Off | 0 |\nThis is our 8x H100 "
                    "box. Llama 3.1 70B FP8 with vLLM at 8k context: how many concurrent users?", KB)
    assert english.gpu_count == 8


def test_a_pasted_start_up_log_is_not_read_as_the_job() -> None:
    # audit 25 HIGH 22: "Maximum concurrency for 32,768 tokens per request: 7.18x" in a pasted vLLM log became 32,768
    # generated tokens a request, and --max-model-len 32768 every request's length, beside "about 40 users, prompts
    # around 6k tokens, answers around 700": 171 GiB a card and a 1,469 s request instead of ≈ 6.8k a sequence
    from pathlib import Path

    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    paste = Path(__file__).with_name("vllm_two_replicas_paste.txt").read_text(encoding="utf-8")
    question = parse(paste, default_knowledge())
    assert (question.context, question.gen_tokens, question.batch) == (6144 + 700, 700, 40)
    assert question.max_num_seqs == 32 and question.memory_fraction == 0.9
