"""bot.understand.jobs: one workload per answer."""

from __future__ import annotations

import pytest

from bot.understand.jobs import segments, split_jobs
from bot.understand.parse import _parse, parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _split(text: str) -> tuple[str, list[str]]:
    return split_jobs(text, lambda part: _parse(part, KB))


def test_segments_cut_at_paragraphs_sentences_and_also() -> None:
    parts = segments("Serve Qwen-7B. Also LoRA Llama-3-8B\n\nThird paragraph")
    assert len(parts) == 3


def test_a_version_dot_is_not_a_sentence_end() -> None:
    assert segments("Qwen2.5-7B on vLLM 0.6") == ["Qwen2.5-7B on vLLM 0.6"]


def test_two_models_are_two_jobs() -> None:
    first, others = _split("Serve Qwen2.5-14B for RAG. Also LoRA Llama-3-8B on tickets.")
    assert "Qwen2.5-14B" in first and "Llama-3-8B" not in first
    assert others and "Llama-3-8B" in others[0]


def test_details_of_the_same_job_stay_with_it() -> None:
    for text in ("LoRA Llama-3.1-8B on a 4090. Batch 4, 2k context.", "用A10能微调Qwen-7B吗？用LoRA",
                 "Serve Llama 3.1 70B. It must handle 50 users at 8k."):
        first, others = _split(text)
        assert others == [] and first == text


def test_serving_then_training_the_same_model_are_two_jobs() -> None:
    _first, others = _split("Serve Qwen2.5-7B to 20 users. Separately, full fine-tune Qwen2.5-7B on our data.")
    assert others and "fine-tune" in others[0]


def test_slack_entities_are_unescaped_before_jobs_are_split() -> None:
    # Slack sends "&amp;" and "&lt;…&gt;": the "other job" quoted back was "Qwen2.5-7B on a T4 &lt"
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    escaped = parse("Llama 3.1 8B &amp; Qwen2.5-7B on a T4 &lt;16GB&gt;", kb)
    plain = parse("Llama 3.1 8B & Qwen2.5-7B on a T4 <16GB>", kb)
    assert escaped.other_jobs == plain.other_jobs and not any("&" in job for job in escaped.other_jobs)
    assert (escaped.model, escaped.gpu) == (plain.model, plain.gpu)


def test_a_bare_size_and_a_model_of_that_size_are_one_job() -> None:
    # audit 14 A-M5: "a 0.5B model? … Qwen2.5-0.5B" sized a generic 0.5B and deferred the model the user named
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    question = parse("How much VRAM for a 0.5B model? is 2GB GPU ok for Qwen2.5-0.5B bf16", kb)
    assert question.model == "qwen2.5-0.5b" and question.precision == "bf16"
    assert not question.other_jobs
    # a size and a model of another size stay two jobs
    assert parse("How much VRAM for a 7B model? Also, is a 4090 ok for Qwen2.5-32B?", kb).other_jobs


def test_a_second_question_after_a_comma_and_is_its_own_job() -> None:
    # audit 18 M-14 / audit 19 M-12: the memory of an AWQ model and a LoRA's time on the same card were read as
    # one job, a LoRA of the AWQ checkpoint (the first question's figure was never given)
    first, others = _split("How much VRAM does Qwen2.5-32B AWQ need on an L40S, and how long would a LoRA on "
                           "10M tokens take on the same card?")
    assert first == "How much VRAM does Qwen2.5-32B AWQ need on an L40S"
    assert others == ["how long would a LoRA on 10M tokens take on the same card?"]
    assert _split("Can I run Llama 3 8B on a 4090, and what about 70B?")[1] == ["what about 70B?"]


def test_a_second_clause_about_the_same_job_stays_with_it() -> None:
    for text in ("Fine-tune Llama 3 8B with LoRA on 100M tokens, and how long does it take on an A100?",
                 "How much memory for Llama 3 8B, and how many tok/s on a 4090?",
                 "Serve Llama 3 8B to 50 users, and what does it cost a month on AWS?"):
        assert _split(text) == (text, [])


def test_a_second_question_after_also_is_its_own_job() -> None:
    # audit 21 M-10: "…on a 4090? Also how long would a QLoRA on 20M tokens take on it?" was one QLoRA job
    first, others = _split("What's the VRAM for Mistral Small 24B AWQ on a 4090? Also how long would a QLoRA on "
                           "20M tokens take on it?")
    assert first.rstrip() == "What's the VRAM for Mistral Small 24B AWQ on a 4090?"
    assert others == ["Also how long would a QLoRA on 20M tokens take on it?"]


@pytest.mark.parametrize("ping", ["@here", "<!channel>", "<@U012AB3CD>"])
def test_a_ping_between_two_questions_does_not_merge_them_and_is_not_quoted(ping: str) -> None:
    # audit 22 HIGH 8: "…, and @here how long would a LoRA…" sized one LoRA over AWQ weights and lost the VRAM asked
    from bot.reply.answer import answer
    from bot.reply.render import render_text
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    question = parse(f"VRAM for Qwen2.5-14B AWQ on an A10, and {ping} how long would a LoRA on 8M tokens take there?",
                     kb)
    assert question.task in (None, "inference") and question.tokens is None
    text = render_text(answer(question, kb), kb)
    assert "I also saw “how long would a LoRA on 8M tokens take there?”" in text
    assert ping not in text and "@here" not in text


def test_background_about_another_model_is_neither_this_job_nor_another() -> None:
    # audit 23 LOW-16: "We previously ran a similar job on Qwen2.5-7B …" was quoted back as a second job to ask about
    text = ("LoRA on Qwen2.5-14B at 8k with LLaMA-Factory. We previously ran a similar job on Qwen2.5-7B on a single "
            "A100 and it took forever. Does it fit on 4x RTX 4090 with ZeRO-3?")
    first, others = _split(text)
    assert others == [] and "Qwen2.5-7B" not in first and "4x RTX 4090" in first
    # a second question about another model is still a second job
    asked = "LoRA on Qwen2.5-14B on 4x RTX 4090? Also, how fast is Qwen2.5-7B inference on an L4?"
    assert len(_split(asked)[1]) == 1
    # background about the same job keeps what it says (the card it ran on)
    same = "How much memory does a LoRA of Qwen2.5-7B need? We tried a LoRA of Qwen2.5-7B on a T4 and it OOMed."
    first, others = _split(same)
    assert others == [] and "T4" in first


def test_a_yaml_key_after_a_number_is_no_output_length() -> None:
    # "preprocessing_num_workers: 16\noutput_dir: …" read as 16 generated tokens
    question = _parse("LoRA Qwen2.5-14B\npreprocessing_num_workers: 16\noutput_dir: saves/lora\ncutoff_len: 8192", KB)
    assert question.gen_tokens is None and question.context == 8192


def test_a_numbered_question_under_another_load_is_asked_separately() -> None:
    # audit 24 HIGH 14: "2) 如果要 32k、同時 20 個人用，最少要換成什麼卡" after "1) … 64 個並發" was merged into
    # the first question and lost
    kb = default_knowledge()
    question = parse("vLLM 跑 Qwen2.5-32B-AWQ 在一張 A100 40GB 上。想問：1) 這張卡能不能撐 32k 上下文、64 個並發？ "
                     "2) 如果要 32k、同時 20 個人用，最少要換成什麼卡、幾張？ 3) KV cache 改 fp8 有沒有幫助？", kb)
    assert question.batch == 64 and question.kv_cache == "fp8"
    assert len(question.other_jobs) == 1 and "20 個人用" in question.other_jobs[0]


@pytest.mark.parametrize("text", [
    "兩件事：bge-m3 做 RAG 向量化，資料 2000 萬段、每段 512 token，用一張 A10 要幾小時？"
    "另外查詢端每秒 50 個 query，一張 T4 夠不夠？",
    "Two things: embed 20M passages of 512 tokens with bge-m3 on one A10, how many hours? Also the query side gets "
    "50 queries/s, is one T4 enough?",
])
def test_a_batch_job_then_a_load_on_another_card_are_two_questions(text: str) -> None:
    # audit 25 HIGH 28: the two were merged into "A10 vs T4" with the 50 queries/s as the load of both and no hours
    question = parse(text, default_knowledge())
    assert question.training_samples == 20_000_000 and question.gpu == "a10" and question.qps is None
    assert len(question.other_jobs) == 1 and "T4" in question.other_jobs[0]
