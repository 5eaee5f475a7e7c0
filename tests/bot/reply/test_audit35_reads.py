"""Audit 35's HIGH readings, each on the audit's own question with a control beside it."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.hub import looks_like_repo_id
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    "We have a budget of $3,000/month. Best setup to serve Llama-3.1-70B AWQ int4 to ~50 concurrent users at 8k "
    "context?",
    "Llama-3.1-8B in fp16/bf16.",
    "Which is faster for Llama-3.1-8B, A100/H100.",
    "Budget is 3000/month. Llama-3.1-8B inference?",
])
def test_a_sentence_ending_in_word_slash_word_is_answered(text: str) -> None:
    # HIGH 102: "month." passed as a Hub repo name; the Hub client's validation error took the reply down
    answer = ask_json(text)
    assert answer["error"] is None and answer["estimate"] is not None


@pytest.mark.parametrize(("text", "repo"), [
    ("month.", False), ("bf16.", False), ("Qwen/Qwen3-0.6B", True), ("mistralai/Mistral-7B-v0.1", True),
    ("a--b/c-d", False), ("org/na..me", False),
])
def test_repo_ids_as_the_hub_spells_them(text: str, repo: bool) -> None:
    assert looks_like_repo_id(text if "/" in text else f"000/{text}") is repo


@pytest.mark.parametrize("text", ["Can I run Llama-3.1-70B inference on Intel Gaudi 2 cards? How many?",
                                  "Llama-3.1-8B on a Gaudi 2 card"])
def test_an_accelerator_s_generation_is_no_count(text: str) -> None:
    # HIGH 108: "Gaudi 2" was read as 2 GPUs (2× A10 at twice the price)
    question = parse(text, KB)
    assert question.gpu_count != 2 and "Gaudi 2" in (question.unknown_gpu_text or "")
    assert parse("Llama-3.1-8B on 2 cards", KB).gpu_count == 2


def test_an_encoder_s_tokens_per_query_are_what_it_reads() -> None:
    # HIGH 103: "512 tokens per query" for bge-m3 was 512 generated tokens (0.12 sequences/s on an L4)
    question = parse("bge-m3 embeddings at 500 QPS, 512 tokens per query - how many L4s do I need?", KB)
    assert question.context == 512 and question.gen_tokens is None
    speed = ask_json("bge-m3 embeddings at 500 QPS, 512 tokens per query - how many L4s do I need?")["speed"]
    # 2 × 0.568e9 params × 512 tokens ≈ 5.8e11 FLOP a text: tens a second on an L4, not a tenth
    assert speed["sequences_per_s"] > 10


def test_glm_4_9b_chat_1m_keeps_four_kv_groups() -> None:
    # HIGH 104: its config.json has multi_query_group_num 4 (the 128K chat model 2): 2 × 40 layers × 4 × 128 × 2
    # bytes = 80 KiB a token, 80 GiB at 1,048,576 tokens, so one A100 80GB does not hold it
    model = KB.model("glm-4-9b-chat-1m")
    assert model.num_kv_heads == 4 and KB.models[KB.model_index.exact("glm-4-9b-chat") or ""].num_kv_heads == 2
    answer = ask_json("GLM-4-9B-Chat-1M 跑满 1M 上下文需要多少显存？")
    assert answer["estimate"]["breakdown"]["kv_cache"] * answer["query"]["gpu_count"] == pytest.approx(80.0, rel=0.01)
    assert not any(p["gpu"] == "a100-80gb" and p["count"] == 1 and p["fits"] for p in answer["picks"])


@pytest.mark.parametrize(("text", "formats"), [
    ("Qwen2.5-14B Q8_0 vs AWQ on RTX 4090 which is faster", ["q8_0", "awq"]),
    ("Qwen2.5-14B: GGUF Q5_K_M vs AWQ on an RTX 4080, which is better?", ["q5_k_m", "awq"]),
    ("Qwen3-32B: GPTQ-int8 or FP8, which is faster on an L40S?", ["gptq-int8", "fp8"]),
    ("Qwen3-32B AWQ vs GPTQ-Int8 on an L40S", ["awq", "gptq-int8"]),
    ("Qwen3-32B 用 GPTQ-int8 和 FP8 哪个在 L40S 上更快？", ["gptq-int8", "fp8"]),
    ("Qwen2.5-14B 用 GGUF Q5_K_M 和 AWQ 比，在 RTX 4080 上哪個比較好？", ["q5_k_m", "awq"]),
])
def test_named_quantisation_formats_are_compared_as_written(text: str, formats: list[str]) -> None:
    # HIGH 105/106: GPTQ-int8 became GPTQ int4, Q5_K_M became Q4_K_M, and "Q8_0 vs AWQ" one "int8 AWQ" sizing
    assert parse(text, KB).compare_formats == formats


def test_each_format_compared_is_sized_at_its_own_bytes() -> None:
    # Q8_0 at 8.5 bits a weight against AWQ's 4 bits: 14.7e9 × 1.0625 bytes ≈ 14.5 GiB of weights against ≈ 8 GiB
    rows = ask_json("Qwen2.5-14B Q8_0 vs AWQ on RTX 4090 which is faster")["model_compare"]
    by_format = {r["format"]: r for r in rows}
    assert by_format["q8_0"]["per_gpu_gb"] > by_format["awq"]["per_gpu_gb"] + 3


def test_a_volume_of_tokens_on_a_serving_set_up_is_generated_and_timed() -> None:
    # HIGH 109: "how long for 10B tokens?" was read as training tokens and never timed nor priced; at the reply's
    # own ≈ 616 tok/s in all, 1e10 tokens take ≈ 4,500 h
    answer = ask_json("Qwen2.5-32B AWQ on 4x L40S, 16 concurrent: how long for 10B tokens?")
    speed = answer["speed"]
    assert speed["output_tokens"] == 1e10
    assert speed["job_hours"] == pytest.approx(1e10 / speed["aggregate_tokens_per_s"] / 3600, rel=0.05)
    assert answer["cost"]["total"] is not None


def test_an_embedder_and_a_reranker_joined_are_one_service_the_reranker_first() -> None:
    # HIGH 107: "bge-m3 + bge-reranker-v2-m3 做 RAG, QPS 100" sized the embedder alone
    text = "每月預算 NT$30,000，要跑 bge-m3 + bge-reranker-v2-m3 做 RAG，QPS 100，每次重排 20 篇，用什麼 GPU？"
    question = parse(text, KB)
    assert question.model == "bge-reranker-v2-m3" and question.stack_models == ["bge-m3"]
    answer = ask_json(text)
    plan = answer["serving"]
    # 100 queries × 20 candidates = 2,000 pairs a second at each replica's rate
    assert plan["targets"]["sequences_per_s"] == 2000
    assert plan["replicas"] >= 10
    # no candidates stated: sized at one a query, and said
    alone = ask_json("bge-m3 + bge-reranker-v2-m3 for RAG at 100 QPS, which GPU?")
    assert any(a["reason"] == "reranker-candidates" for a in alone["assumptions"])
    # a generator among them is still the model sized, the encoders beside it (audit 31 HIGH 79)
    rag = parse("bge-m3 + bge-reranker-v2-m3 + Qwen2.5-14B for 100 users", KB)
    assert rag.model == "qwen2.5-14b" and rag.companion_models == ["bge-m3", "bge-reranker-v2-m3"]
