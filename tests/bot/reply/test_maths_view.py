"""The arithmetic lines of "--maths": each one must be redone by hand from what it prints."""

from __future__ import annotations

import pytest

from bot.reply.maths_view import maths_lines
from bot.reply.model import Answer, Breakdown, EstimateOut, Query
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _answer(per_gpu_weights: float, cards: int, precision: str = "bf16") -> Answer:
    estimate = EstimateOut(total_gb=per_gpu_weights * cards, per_gpu_gb=per_gpu_weights, gpu_count=cards,
                           breakdown=Breakdown(weights=per_gpu_weights))
    return Answer(intent="recommend", query=Query(params_b=32.5, precision=precision), estimate=estimate)


@pytest.mark.parametrize(("weights", "cards", "line"), [
    # 32.5e9 × 2 B = 60.54 GiB whole; a tensor-parallel share of 2 is 30.27 GiB: "× 2.00 B ÷ 2 GPUs"
    (30.27, 2, "weights = 32.5e9 params × 2.00 B ÷ 2 GPUs = 30.27 GiB"),
    # data-parallel training keeps the whole 60.54 GiB on each card: no division
    (60.54, 8, "weights = 32.5e9 params × 2.00 B = 60.54 GiB"),
    (60.54, 1, "weights = 32.5e9 params × 2.00 B = 60.54 GiB"),
])
def test_the_weights_line_shows_the_division_over_the_cards_that_share_them(weights: float, cards: int,
                                                                               line: str) -> None:
    assert maths_lines(_answer(weights, cards), KB)[0] == line


def test_an_fp8_share_reads_as_one_byte_a_parameter() -> None:
    # DeepSeek-R1-like: 32.5e9 × 1 B over 16 cards = 1.89 GiB a card (was printed "× 0.06 B")
    assert maths_lines(_answer(1.89, 16, "fp8"), KB)[0] == "weights = 32.5e9 params × 1.00 B ÷ 16 GPUs = 1.89 GiB"


def test_the_kv_line_counts_one_replicas_sequences_shared_by_its_cards() -> None:
    # audit 16 C-L1: "× batch 4096 × bytes = 53.91 GiB" wrote the whole batch beside one card's share of one
    # replica; 20,000 users over 58 replicas is 345 each: 345 × 1.25 GiB / 8 cards = 53.9 GiB a card
    from bot.service import ask

    answer = ask({"text": "Serve Llama 3.3 70B to 20,000 concurrent chat users at 4k context: how many H100s?"})
    line = next(line for line in maths_lines(answer, KB) if line.startswith("KV cache"))
    replicas = answer.picks[0].replicas or 1
    sequences = -(-20_000 // replicas)
    assert f"× {sequences:,} sequences × bytes, split over 8 GPUs" in line
    assert sequences * 1.25 / 8 == pytest.approx(answer.estimate.breakdown.kv_cache if answer.estimate else 0,
                                                 rel=0.02)


@pytest.mark.parametrize(("question", "line"), [
    # DeepSeek-R1: the MLA latent, 61 layers × (512 + 64) × 4,096 tokens × 2 B = 0.27 GiB, whole on every card
    ("DeepSeek-R1 fp8 on 8x H20 with SGLang",
     "KV cache = layers × (kv_lora_rank 512 + rope 64) × 4,096 tokens × 1 sequences × bytes, the whole latent on each "
     "of 8 GPUs = 0.27 GiB per GPU"),
    # Qwen3-235B-A22B: 4 KV heads over 8 cards, a whole head each: 94 × 2 × 128 × 2 B × 4,096 = 0.18 GiB
    ("Qwen3-235B-A22B fp8 on 8x H20 with vLLM",
     "4 KV heads over 8 GPUs: each keeps a whole head = 0.18 GiB per GPU"),
    # Llama 3.1 70B: 8 KV heads split over 4 cards, 80 × 2 × 2 × 128 × 2 B × 4,096 = 0.31 GiB
    ("Llama 3.1 70B on 4x A100 with vLLM", "split over 4 GPUs = 0.31 GiB per GPU"),
])
def test_the_kv_cache_line_says_how_the_cache_lies_on_the_cards(question: str, line: str) -> None:
    # audit 38 LOW-211: DeepSeek's latent was printed with the GQA formula and "shared by 8 GPUs"
    from bot.reply.answer import answer
    from bot.understand.parse import parse

    lines = maths_lines(answer(parse(question, KB), KB), KB)
    assert any(line in text for text in lines), lines
