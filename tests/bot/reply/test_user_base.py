"""A product's user base is not a load (audit 29 HIGH 54): "10k daily active users" had become a 10,240-token
context, "50k monthly users" a 50,000 USD budget and "10,000 daily users" 10,000 at once (32 B200s)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_a_user_base_asks_for_the_peak_and_sizes_one_at_a_time() -> None:
    reply = ask_json("Llama-3.1-8B chatbot with 10k daily active users, what GPUs?")
    assert reply["query"]["batch"] == 1 and reply["query"]["context"] == 4096
    assert "10,000 daily users (a user base, not a load)" in reply["text"]
    assert "10,000 users a day is how many use it, not what the cards carry" in reply["text"]
    assert reply["query"]["engine"] == "vllm"


def test_no_such_word_once_the_peak_is_said() -> None:
    reply = ask_json("Qwen2.5-7B app with 50k monthly users, 100 at once at peak")
    assert reply["query"]["batch"] == 100 and "is how many use it" not in reply["text"]


def test_chinese() -> None:
    text = ask_json("Qwen2.5-7B 客服机器人，日活 1 万，需要几张卡")["text"]
    assert "日活 10,000（用户规模，不是并发）" in text and "请告诉我峰值并发" in text
