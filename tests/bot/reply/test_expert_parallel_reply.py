"""Full training of an MoE model is timed as its makers' frameworks run it, with expert parallelism, unless the
question names DeepSpeed or FSDP (audit 26 HIGH 37: DeepSeek-V3 on 512 H100s at ≈ 6.1B tokens a day, about 7×
below NeMo AutoModel's published ≈ 1,000 tok/s per H100)."""

from __future__ import annotations

import re

from tests.bot.reply._answers import ask_json


def _per_day_billions(text: str, marker: str) -> float:
    line = next(line for line in text.splitlines() if marker in line)
    return float(re.search(r"([\d.]+)B", line.split(marker)[1]).group(1))  # type: ignore[union-attr]


def test_deepseek_v3_tokens_a_day_follow_the_published_expert_parallel_rate() -> None:
    reply = ask_json("DeepSeek-V3 full fine-tuning on 128x H100: how many tokens a day?")
    speed = reply["speed"]
    per_card = speed["train_tokens_per_s"] / 512  # the pick that holds it: 512 H100s
    assert 700 < per_card < 1300  # NeMo AutoModel: 1,002 tok/s per H100 on 256, 865 on 1,024
    assert speed["sharded_train_tokens_per_s"] < speed["train_tokens_per_s"] / 4
    assert "timed with expert parallelism" in reply["text"]
    assert 30 < _per_day_billions(reply["text"], "training tokens ·") < 60


def test_the_chinese_question_says_the_same_in_its_own_words() -> None:
    text = ask_json("DeepSeek-V3 全參數微調要多少張 H100？大概一天能訓練多少 token？")["text"]
    assert "按專家並行計時" in text and "ZeRO-3" in text


def test_deepspeed_named_keeps_the_gathering_rate_and_says_nothing_of_experts() -> None:
    reply = ask_json("DeepSeek-V3 full fine-tuning with DeepSpeed ZeRO-3 on 512x H100: how many tokens a day?")
    assert reply["speed"].get("sharded_train_tokens_per_s") is None
    assert reply["speed"]["train_tokens_per_s"] / 512 < 300
    assert "expert parallelism" not in reply["text"]


def test_a_dense_model_is_untouched() -> None:
    reply = ask_json("Llama 3.1 70B full fine-tuning on 32x H100: how many tokens a day?")
    assert reply["speed"].get("sharded_train_tokens_per_s") is None
    assert "expert parallelism" not in reply["text"]
