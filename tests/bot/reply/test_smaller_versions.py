"""A model far too big for the card asked about: its makers' smaller versions that fit, in the format that fits."""

from __future__ import annotations

from tests.bot.reply._answers import KB, ask_json


def test_the_distills_that_fit_an_8gb_laptop_are_offered_for_deepseek_r1() -> None:
    # the 671B model needs about 628 GiB; DeepSeek's README lists six distills, of which an 8B in Q4_K_M (4.84
    # bits a weight: 8.03e9 × 0.605 B ≈ 4.5 GiB of weights, plus cache) fits a 4060 Laptop's 8 GB
    reply = ask_json("笔记本 4060 8G 能跑 deepseek-r1 吗")
    assert reply["check"]["fits"] is False
    smaller = reply["smaller_models"]
    assert smaller and all(s["model"] in KB.models["deepseek-r1"].smaller_versions for s in smaller)
    assert all(s["per_gpu_gb"] <= reply["check"]["limit_gb"] for s in smaller)
    assert [s["params_b"] for s in smaller] == sorted((s["params_b"] for s in smaller), reverse=True)
    assert "DeepSeek-R1-Distill-Llama-8B (Q4_K_M" in reply["text"] and "的作者还发布了同系列的较小版本" in reply["text"]


def test_a_model_a_few_gib_short_gets_no_smaller_versions() -> None:
    # 84 GiB a card against 75.9 on 8 H100s: more cards or H200s are the answer, not a distill
    reply = ask_json("DeepSeek-R1 on 8x H100")
    assert reply["check"]["fits"] is False and reply["smaller_models"] == []


def test_a_model_without_smaller_versions_gets_none() -> None:
    reply = ask_json("Llama 3.1 405B on a 4090")
    assert reply["check"]["fits"] is False and reply["smaller_models"] == []


def test_with_no_card_named_and_no_pick_that_holds_it_the_closest_card_gets_the_smaller_versions() -> None:
    # 消费级显卡跑 DeepSeek-R1: eight GeForce cards that do not hold it were all the reply had
    reply = ask_json("消费级显卡跑 DeepSeek-R1")
    assert reply["check"] is None and not any(p["fits"] for p in reply["picks"])
    smaller = reply["smaller_models"]
    assert smaller and smaller[0]["gpu"] == reply["picks"][0]["gpu"] and smaller[0]["count"] == 1
    assert "的作者还发布了同系列的较小版本" in reply["text"]


def test_closest_picks_that_cannot_hold_the_model_carry_no_speed() -> None:
    # eight GeForce cards at 80 GiB a card against 24-32 GB: a decode speed for them (~33 tok/s) read as if
    # the set-up ran
    reply = ask_json("消费级显卡跑 DeepSeek-R1")
    assert all(p["decode_tokens_per_s"] is None for p in reply["picks"])
    assert "decode_tokens_per_s" not in reply["speed"] and "tok/s" not in reply["text"].split("最接近的方案")[1]
    assert "速度 (" not in reply["text"]
