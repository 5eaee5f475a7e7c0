"""A card known only by its memory: its fit is checked, and no speed is made up for it."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize("text", ["Llama 3.1 8B in bf16 on a Moore Threads MTT S80 16GB?",
                                  "Llama 3.1 8B on my 16GB card, does it fit?",
                                  "Mistral NeMo 12B bf16 on a 12GB card?"])
def test_the_fixes_on_a_card_known_only_by_its_memory_carry_no_speed(text: str) -> None:
    # audit 21 H-2: "quantise to INT8 — needs 10.2 GiB per card · ~0.1 tok/s per sequence", from the 1 GB/s
    # placeholder bandwidth of a card the reply itself calls "its speed unknown"
    result = answer(parse(text, KB), KB)
    assert result.check is not None and not result.check.fits
    assert all(s.decode_tokens_per_s is None for s in result.check.suggestions if s.gpu is None)
    assert "~0.1 tok/s" not in render_text(result, KB)


def test_a_cloud_named_narrows_the_cards_to_what_it_rents() -> None:
    # audit 21 M-1: "cheapest … on Azure" answered with GeForce cards "on Azure"; a cloud rents no desk cards,
    # and one whose rows the knowledge base holds (AWS) is answered with the cards those rows rent
    from bot.reply.pool import candidate_gpus

    azure, _ = candidate_gpus(parse("cheapest way to run llama 3.1 8b 24/7 on Azure, $/month?", KB), KB)
    assert azure and all(gpu.form != "consumer" for gpu in azure)
    aws, _ = candidate_gpus(parse("Qwen2.5-72B inference on AWS, what GPU?", KB), KB)
    rented = {p.gpu for p in KB.prices.values() if p.cloud == "aws"}
    assert {gpu.id for gpu in aws} <= rented
    # one row (GCP's L4) is not all a cloud rents: the pool is not narrowed to it
    gcp, _ = candidate_gpus(parse("serve Llama 3 70B on GCP", KB), KB)
    assert len(gcp) > 1


def test_a_gpu_only_price_is_said_not_called_unknown() -> None:
    # audit 21 M-2: the knowledge base lists GCP's L4 at 0.5582 USD/h for the GPU alone (host VM on top); the reply
    # said no public price was known
    text = render_text(answer(parse("faster-whisper large-v3 on one L4, 1,000 hours of podcasts: how many hours of "
                                    "compute and what cost on GCP?", KB), KB), KB)
    assert "1× L4, the GPU alone, on GCP" in text and "≥ 0.558 USD/h" in text  # costed as a floor (audit 21 M-11)
    assert "No public list price known for L4" not in text


def test_a_card_known_by_its_memory_and_bandwidth_has_its_decode_timed_and_nothing_compute_bound() -> None:
    # 4.1 GiB of Q4_K_M weights on the card (embeddings in RAM) read once a token at 448 GB/s bound decode at
    # ≈ 100 tok/s; the same engine efficiency as a listed card of that bandwidth (an RTX 3060 Ti, 448 GB/s)
    text = "can my Moore Threads MTT S80 16GB (448 GB/s) run qwen2.5 7b int4 with llama.cpp? how many tok/s"
    result = answer(parse(text, KB), KB)
    same_bandwidth = answer(parse("qwen2.5 7b int4 with llama.cpp on an RTX 3060 Ti, how many tok/s", KB), KB)
    decode = result.speed["decode_tokens_per_s"]
    assert decode and decode == pytest.approx(same_bandwidth.speed["decode_tokens_per_s"], rel=0.02)
    assert result.speed["prefill_tokens_per_s"] is None
    text_out = render_text(result, KB)
    assert "448 GB/s" in text_out and "its speed unknown" not in text_out
    assert "no prefill, training or serving-plan time" in text_out


def test_the_fixes_on_a_card_with_a_stated_bandwidth_are_timed() -> None:
    result = answer(parse("Llama 3.1 8B bf16 on a 12GB card with 360 GB/s, does it fit?", KB), KB)
    assert result.check is not None and not result.check.fits
    timed = [s.decode_tokens_per_s for s in result.check.suggestions if s.gpu is None and s.kind == "quantise"]
    assert timed and all(speed and speed < 360 / 4 for speed in timed)  # ≥ 4 GiB read a token at 360 GB/s
