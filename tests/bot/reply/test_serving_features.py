"""Speculative decoding with no draft, and prefix caching: read back and said what they change, not ignored
(audit 39 M-156)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_both_features_are_read_back_and_explained() -> None:
    text = ask_json("GLM-4-9B 用 vLLM 开前缀缓存和投机解码，单卡 L20 能跑到多少 tok/s？")["text"]
    assert "投机解码（未指定草稿）" in text and "前缀缓存" in text.splitlines()[2]
    assert "上面的速度没有计入投机解码" in text and "不提高解码速度" in text


def test_a_named_draft_is_sized_and_not_told_to_name_one() -> None:
    text = ask_json("Llama 3.1 70B with speculative decoding using Llama 3.2 1B as draft on 2 H100")["text"]
    assert "name the draft model" not in text and "no draft named" not in text


def test_the_laptop_route_with_layers_in_ram_carries_its_speed_ceiling() -> None:
    # audit 39 M-161: "速度多少？" on an 8 GB laptop card got "several times slower" for the llama.cpp route with
    # layers in RAM; the same route elsewhere gives the decode ceiling its RAM part sets
    text = ask_json("我的筆電是 RTX 4070 Laptop 8GB，可以跑 Qwen2.5-14B 嗎？速度多少？")["text"]
    route = next(line for line in text.splitlines() if "-ngl" in line)
    assert "tok/s" in route and "慢好幾倍" not in route


def test_a_picks_speed_under_the_load_is_labelled_so() -> None:
    # audit 39 M-154: the top pick's 27 tok/s (each of 227 users at once) and the next picks' single-sequence
    # speeds were all labelled "单序列", so a V100 read 4x faster than an A100
    reply = ask_json("每天 5 亿 token 的 Qwen3-30B-A3B 推理流量，需要几张卡？每月多少钱（人民币）？")
    top = reply["picks"][0]
    assert top["decode_at_load"] and top["decode_at_load"] > 1
    line = next(line for line in reply["text"].splitlines() if line.startswith("1. "))
    assert f"（{top['decode_at_load']:,} 路并发时每路）" in line
    assert all(p["decode_at_load"] is None for p in reply["picks"][1:] if not p.get("replicas"))
