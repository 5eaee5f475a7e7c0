"""Several models deployed on the same cards are checked for their sum, each in its own process."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from rules import constants as C
from tests.bot.reply._answers import ask_json as _ask

KB = default_knowledge()


def test_an_embedder_and_a_reranker_on_one_a10_are_checked_together() -> None:
    answer = _ask("Qwen3-Embedding-8B 和 Qwen3-Reranker-4B 一起部署在一张 A10 上够吗")
    parts = {p["model"]: p["per_gpu_gb"] for p in answer["stack"]}
    assert set(parts) == {"qwen3-embedding-8b", "qwen3-reranker-4b"}
    together = sum(parts.values()) + C.CUDA_CONTEXT_GIB
    check = answer["check"]
    assert check["memory_per_gpu_gb"] == pytest.approx(together, abs=0.1)
    assert check["fits"] is False  # ~23.5 GiB against the A10's 22.0, though the embedder alone fits
    assert "不行" in answer["text"] and "合计每卡" in answer["text"]


def test_small_models_together_fit_and_say_so() -> None:
    answer = _ask("bge-m3 and Qwen3-Reranker-0.6B together on one L4")
    assert answer["check"]["fits"] is True
    assert "Together, each in its own process: BGE-M3" in answer["text"]


def test_with_no_card_the_picks_have_room_for_every_model() -> None:
    answer = _ask("Qwen2.5-14B, bge-m3 and bge-reranker-v2-m3 together on one cheap GPU")
    together = sum(p["per_gpu_gb"] for p in answer["stack"]) + 2 * C.CUDA_CONTEXT_GIB
    # each line is the card that runs them all, and has room for them
    assert answer["picks"] and all(p["memory_per_gpu_gb"] == pytest.approx(together, abs=0.2)
                                   and p["memory_per_gpu_gb"] <= p["limit_gb"] for p in answer["picks"])


@pytest.mark.parametrize("text", ["Qwen2.5-7B vs Llama-3.1-8B on one A10", "Llama 3.1 8B or Qwen2.5-7B on a 4090?"])
def test_a_comparison_is_not_a_deployment(text: str) -> None:
    assert parse(text, KB).stack_models == []


def test_two_models_without_a_shared_card_are_not_stacked() -> None:
    q = parse("Qwen2.5-7B with Qwen2.5-0.5B as the draft model on an A10", KB)
    assert q.stack_models == []


@pytest.mark.parametrize("text", ["how much does it cost to rent an H200 vs a B200 for one hour?",
                                  "請問 H200 跟 B200 租一小時各多少錢？"])
def test_cards_compared_for_their_price_get_their_prices(text: str) -> None:
    answer = _ask(text)
    assert {p["gpu"] for p in answer["prices"]} == {"h200", "b200"}
    assert "General guidance" not in answer["text"] and "一般建议" not in answer["text"]


PO = ("Hey team — quick sanity check before I put in the PO. We want to serve Qwen2.5-32B-Instruct internally for "
      "~40 concurrent users, prompts around 6k tokens (RAG), answers ~400 tokens; (2) occasionally LoRA fine-tune it "
      "on our docs. Vendor is quoting us 2x L40S in one box. Is that enough for both, or should we push for 2x H100 "
      "PCIe? Thanks!")


def test_a_brief_s_hardware_sentence_belongs_to_its_first_job_and_the_set_ups_are_compared() -> None:
    answer = _ask(PO)
    assert answer["query"]["context"] == 6144 + 400 and answer["query"]["batch"] == 40
    assert answer["intent"] == "compare" and set(answer["compare"]) == {"l40s", "h100-pcie"}
    assert answer["understood"]["other_jobs"]  # the LoRA job is still quoted back, not mixed in
    l40s = next(p for p in answer["picks"] if p["gpu"] == "l40s")
    assert l40s["count"] == 2 and not l40s["fits"] and l40s["fix"] is not None
    assert l40s["fix"]["memory_per_gpu_gb"] <= l40s["limit_gb"]
    assert "it does with this change" in answer["text"]


def test_picks_beside_a_stack_check_hold_every_model_and_count_them() -> None:
    answer = _ask("Whisper large-v3 + Llama-3.1-8B on one 24GB card for meeting transcription + summary, feasible?")
    together = sum(p["per_gpu_gb"] for p in answer["stack"]) + C.CUDA_CONTEXT_GIB
    assert answer["picks"] and all(p["memory_per_gpu_gb"] == pytest.approx(together, abs=0.2)
                                   for p in answer["picks"])


def test_reserving_engines_in_a_stack_are_given_their_share() -> None:
    text = _ask("Qwen2.5-14B-Instruct + bge-m3 + bge-reranker-v2-m3 together on a single L40S with vLLM")["text"]
    assert "--gpu-memory-utilization (Qwen2.5-14B 0.70" in text


@pytest.mark.parametrize(("text", "batch"), [
    ("tokens per second per dollar: L4 vs T4 vs A10G for Mistral 7B AWQ at 16 concurrency?", 16),
    ("I have $50k to spend on hardware to serve Llama 3.1 70B for 50 internal users. What should I buy?", 50),
])
def test_users_and_concurrency_in_other_words_are_the_load(text: str, batch: int) -> None:
    assert parse(text, KB).batch == batch


def test_a_speed_target_missed_is_said_beside_a_memory_yes() -> None:
    answer = _ask("Llama 3.1 8B FP8 在 L4 上，p95 延遲要 2 秒內，輸出 200 token，可以嗎？")
    assert answer["check"]["fits"] and not answer["serving"]["met"]
    assert "這只是顯存夠用" in answer["text"]


def test_a_card_without_fp8_tensor_cores_is_not_shown_an_fp8_peak() -> None:
    text = _ask("A100 supports FP8 natively so serving Llama-3.1-70B FP8 on 1x A100 80GB gets the H100 FP8 speedup, "
                "right?")["text"]
    assert "312 TFLOPS fp8" not in text


def test_a_format_in_one_model_s_name_is_that_model_s_alone() -> None:
    answer = _ask("Run Llama-3.1-8B and Llama-3.1-70B-AWQ side by side on one H100 80GB with vLLM, 8 users each at 4k")
    assert answer["query"]["quant"] is None  # the 8B runs as released
    parts = {p["model"]: p["per_gpu_gb"] for p in answer["stack"]}
    assert parts["llama-3.1-8b"] > 20 and parts["llama-3.1-70b"] < 60  # 16-bit 8B, AWQ 70B
    assert answer["check"]["tight"] or not answer["check"]["fits"]


@pytest.mark.parametrize("text", [
    "Qwen3-Embedding-4B and Qwen3-Reranker-4B together on one L40S, 20 queries/s, 30 passages reranked per query: "
    "does it fit and is it fast enough?",
    "Qwen3-Embedding-4B and Qwen3-Reranker-4B on one L40S, 20 queries a second, rerank 30 passages each: fits and "
    "fast enough?",
])
def test_the_bill_of_a_stack_counts_each_model_s_own_cards(text: str) -> None:
    # audit 26 HIGH 32 residue: the plan and the month were the embedder's one L40S; the reranker's 600 passages a
    # second take 13 of them on their own. The line adds each model's own plan and bill
    answer = _ask(text)
    parts = {p["model"]: p for p in answer["stack"]}
    reranker, embedder = parts["qwen3-reranker-4b"], parts["qwen3-embedding-4b"]
    assert reranker["serving_cards"] > embedder["serving_cards"] >= 1
    per_hour = reranker["serving_per_hour"] + embedder["serving_per_hour"]
    assert f"≈ {per_hour:,.2f} USD/h in all" in answer["text"]
    assert f"≈ {per_hour * C.HOURS_PER_MONTH:,.0f} USD a month" in answer["text"]
    assert f"Qwen3-Reranker-4B {reranker['serving_cards']}× L40S" in answer["text"]


def test_a_stack_whose_models_share_one_plan_gets_no_second_bill() -> None:
    # the control: at a light load each model's plan is one card, and the reply's bill already counts it
    answer = _ask("Qwen3-Embedding-4B and Qwen3-Reranker-4B together on one L40S, 1 query/s, 10 passages reranked "
                  "per query: does it fit?")
    assert "each model on its own cards" not in answer["text"]


def test_the_header_and_read_back_name_every_model_deployed_together() -> None:
    # audit 32 LOW-175: the header and "我的理解" named only Qwen3-Embedding-8B though both were sized
    text = _ask("qwen3-embedding-8b 和 qwen3-reranker-8b 放在同一张卡上，要多大显存")["text"]
    assert text.startswith("== Qwen3-Embedding-8B + Qwen3-Reranker-8B · 推理 ==")
    assert "我的理解: Qwen3-Embedding-8B + Qwen3-Reranker-8B" in text
