"""A 16-bit answer on many of the card named (or, with no card named, on several of the first pick's) says what 8 or
4 bits take on the same card (audit 29 LOW-111: 70B on RTX 4090s was 8 cards in bf16 alone, though "AWQ" gives 4;
audit 36 M-140)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_seventy_b_on_4090s_names_the_fp8_cards() -> None:
    # the 4090 computes FP8 (Ada): 70B at 8 bits ≈ 66 GiB of weights, over 4 × 24 GB cards ≈ 16.5 a card plus
    # cache and working memory
    reply = ask_json("We want Llama-3.1-70B on RTX 4090s, 20 tok/s each for 3 users. How many cards?")
    assert reply["picks"][0]["gpu"] == "rtx-4090" and reply["picks"][0]["count"] == 8
    path = reply["quantised_path"]
    assert path["quant"] == "fp8" and path["count"] == 4 and path["sixteen_bit_count"] == 8
    assert 16 < path["per_gpu_gb"] < 21
    assert "In FP8, which these cards compute natively, the same job takes 4× GeForce RTX 4090" in reply["text"]


def test_without_fp8_tensor_cores_the_path_is_8_bit_before_4() -> None:
    # the 3090 (Ampere) has none: GPTQ-Int8 70B ≈ 70 GiB of weights holds on 4 cards (20 GiB a card), half the 8
    # in bf16, at less loss than AWQ, which would take as many (2 cards only within the tight band)
    path = ask_json("We want Llama-3.1-70B on RTX 3090s for 3 users. How many cards?")["quantised_path"]
    assert path is not None and path["quant"] == "gptq-int8" and path["count"] == 4


def test_no_path_when_a_precision_or_count_is_stated_or_few_cards_do() -> None:
    for text in ("Llama-3.1-70B AWQ on RTX 4090s, how many?", "Llama-3.1-70B bf16 on RTX 4090s, how many?",
                 "Llama-3.1-70B on 8x RTX 4090", "Qwen2.5-32B on RTX 3090s, how many?",
                 "Llama-3.1-8B inference, what GPU?"):
        assert ask_json(text)["quantised_path"] is None, text


def test_a_recommendation_on_several_cards_names_the_8_bit_path() -> None:
    # audit 36 M-140: Falcon-40B got 16-bit picks alone (2× RTX A6000); 41.8e9 × 1 byte ≈ 39 GiB in 8 bits holds
    # on one 48 GB card
    reply = ask_json("falcon 40b inference, what gpu")
    path = reply["quantised_path"]
    assert path is not None and path["count"] == 1 and path["sixteen_bit_count"] == 2
    assert "In 8 bits (GPTQ-Int8) the same job takes 1× RTX A6000" in reply["text"]


def test_a_speed_each_for_the_users_is_read_per_user() -> None:
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    question = parse("We want Llama-3.1-70B on RTX 4090s, 20 tok/s each for 3 users. How many cards?", kb)
    assert (question.tokens_per_s_per_user, question.batch) == (20.0, 3)
    assert parse("Llama-3.1-8B, 3 users at 20 tok/s each", kb).tokens_per_s_per_user == 20.0
