"""A Yes on more cards than the job needs says the fewest that hold it (audit 33 M-121)."""

from __future__ import annotations

from bot.reply.fewer_cards import fewest_holding
from knowledge.loader import default_knowledge
from rules.limits import fits_on
from rules.types import Workload
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_eight_mi300x_for_qwen3_235b_fp8_say_that_two_hold_it() -> None:
    # 235B at 1 byte a weight ≈ 219 GiB: one 192 GB MI300X cannot hold it, two can (≈ 110 GiB of weights each)
    answer = ask_json("Qwen3-235B-A22B fp8 on 8x MI300X")
    assert answer["check"]["fits"] and answer["check"]["fewer_count"] == 2
    assert "2× AMD Instinct MI300X already hold it" in answer["text"]
    assert "the other cards add KV-cache room and throughput" in answer["text"]


def test_the_fewest_is_checked_by_hand_against_the_fit() -> None:
    w = Workload(model=KB.model("qwen3-235b-a22b"), precision="fp8", engine="vllm")
    card = KB.gpus["mi300x"]
    fewer = fewest_holding(w, card, 8)
    assert fewer is not None and fewer[0] == 2
    assert not fits_on(w, card, 1)[0] and fits_on(w, card, 2)[0]
    assert fewest_holding(w, card, 2) is None  # two asked: nothing fewer holds it
    assert fewest_holding(w, card, 1) is None


def test_a_training_run_on_more_cards_says_the_others_shorten_it() -> None:
    text = ask_json("LoRA Llama-3.1-8B on 8x H100")["text"]
    assert "1× H100 SXM5 80GB already hold it" in text and "the other cards shorten the run" in text
