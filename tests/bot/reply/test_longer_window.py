"""Asked for the longest context, a model whose whole window fits names the release of it with a longer window
(audit 30 LOW-124: Yi-34B on an H200 said '4,096 tokens' with no word of Yi-34B-200K), and that release is a
model of its own in the knowledge base, sized at its window."""

from __future__ import annotations

from bot.reply.capacity import longer_window_release
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_the_long_window_release_is_named_where_the_window_caps_the_answer() -> None:
    reply = ask_json("Yi-34B on one H200: how long a context can I actually fit for a single user?")
    assert reply["max_context"]["tokens"] == 4096 and reply["max_context"]["longer_release"] == "yi-34b-200k"
    assert "Yi-34B-200K, a release of this model with a 200,000-token window" in reply["text"]


def test_the_200k_release_is_sized_at_its_own_window() -> None:
    reply = ask_json("Yi-34B-200K on one H200: how long a context can I actually fit for a single user?")
    # 34.4B bf16 ≈ 64 GiB of weights leaves ≈ 73 GiB: at 240 KiB a token well past 100k tokens, short of 200k
    assert reply["query"]["model"] == "yi-34b-200k" and 100_000 < reply["max_context"]["tokens"] < 200_000
    assert reply["max_context"]["longer_release"] is None


def test_namesakes_of_another_generation_or_purpose_are_not_releases_of_the_model() -> None:
    assert longer_window_release(KB, KB.models["chatglm3-6b"]) is None  # ChatGLM2-6B has a longer window
    assert longer_window_release(KB, KB.models["qwen3-embedding-4b"]) is None  # an embedder, not Qwen3-4B
    assert longer_window_release(KB, KB.models["yi-34b-200k"]) is None
