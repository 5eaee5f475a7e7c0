"""A speed the asker measured ("is 15 tok/s normal?") set against the estimate for their own set-up."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_a_slow_measurement_is_compared_with_the_estimate_and_its_usual_causes_named() -> None:
    # Qwen2.5-32B AWQ on a 4090 with vLLM: about 19 GB of weights read per token at 1,008 GB/s, ~35 tok/s
    reply = ask_json("Is 15 tok/s normal for Qwen2.5-32B AWQ on an RTX 4090 with vLLM?")
    expected = reply["speed"]["decode_tokens_per_s"]
    assert 25 < expected < 45
    assert reply["speed"]["observed_tokens_per_s"] == 15.0
    pct = round(100 * 15.0 / expected)
    assert "You see 15 tok/s; this set-up should decode about" in reply["text"]
    assert f"so yours is {pct}% of it" in reply["text"] and "ollama ps" in reply["text"]


def test_a_measurement_near_the_estimate_is_said_to_be_in_line() -> None:
    reply = ask_json("is 50 tok/s normal for llama 3 8b on a 3060 with ollama")
    assert "in line with this estimate" in reply["text"]


def test_a_measurement_on_cards_that_cannot_hold_the_model_as_read_points_at_the_file_or_ram() -> None:
    # Qwen2.5-14B in bf16 (27.5 GiB of weights) does not fit one 4090: the 10 tok/s the asker sees comes from a
    # smaller file or a split with system RAM, and no estimate of other cards is passed off as theirs
    reply = ask_json("4090跑Qwen2.5-14B只有10 token/s正常吗")
    assert reply["check"]["fits"] is False
    assert "你测到 10 tok/s，但按这里的设定模型放不进这些卡" in reply["text"]
    assert "你的是它的" not in reply["text"]


def test_a_speed_target_is_not_taken_for_a_measurement() -> None:
    reply = ask_json("serve Llama 3 70B with at least 30 tokens/s, is an H100 enough?")
    assert "observed_tokens_per_s" not in reply["speed"]
    assert "You see" not in reply["text"]


def test_a_mac_named_by_its_chip_alone_is_timed_at_that_chips_bandwidth() -> None:
    # Llama 3 70B Q4_K_M reads about 40 GiB a token; an M2 Max (every one of them) has 400 GB/s, so about
    # 8 tok/s: the 8 the asker sees is in line, and the reply says it took the chip's fastest configuration
    # rather than asking for the memory before it can compare
    reply = ask_json("is 8 tok/s normal for Llama 3 70B Q4 on my M2 Max")
    assert reply["speed"]["unified_memory_bandwidth_gbps"] == 400
    assert 6 < reply["speed"]["decode_tokens_per_s"] < 10
    assert "in line with this estimate" in reply["text"]
    assert "Speed (M2 Max): decode" in reply["text"] and "say the Mac's memory" in reply["text"]


def test_a_slow_mac_gets_the_causes_a_mac_has() -> None:
    reply = ask_json("M2 Max 上 Llama-3-70B Q4 每秒 3 个 token 正常吗")
    assert "这台 Mac 单序列生成应约" in reply["text"] and "交换区" in reply["text"]
    assert "nvidia-smi" not in reply["text"]


def test_a_mac_without_a_measurement_still_asks_for_its_memory() -> None:
    reply = ask_json("can I run Llama 3 70B Q4 on my M2 Max")
    assert "unified_memory_bandwidth_gbps" not in reply["speed"]
    assert "say how much the Mac has" in reply["text"]


def test_a_speed_above_what_the_bandwidth_allows_is_said_to_be() -> None:
    # Qwen2.5-7B bf16 reads about 14.1 GB a token (its embedding rows aside): an A10's 600 GB/s caps one
    # sequence near 42 tok/s, so 60 tok/s is a smaller file, batching or speculative decoding
    reply = ask_json("I get 60 tok/s on Qwen2.5-7B with vLLM on an A10, normal?")
    assert 40 < reply["speed"]["decode_ceiling_tokens_per_s"] < 44
    assert "more than one sequence can reach on this set-up" in reply["text"]
    assert "decode_ceiling_tokens_per_s" not in ask_json("Qwen2.5-7B with vLLM on an A10")["speed"]
