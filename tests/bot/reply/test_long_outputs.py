"""A generated length said without the context ("reasoning outputs of 16k tokens") makes every sequence that long
plus its prompt (audit 24 HIGH 20: sized at a 4,096-token window, 8 users of 16k answers "fit" on 2× L40S and vLLM
was told --max-model-len 4096, which would cut every answer short)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json as _ask


def test_the_output_alone_extends_the_window() -> None:
    answer = _ask("DeepSeek-R1-Distill-Qwen-32B on 2x L40S with vLLM, reasoning outputs of 16k tokens, 8 users: fits?")
    assert answer["query"]["context"] == 16384 + 2048
    assert answer["check"]["fits"] is False  # 8 × 18,432 × 256 KiB = 36 GiB of KV beside 30.6 GiB of weights


def test_a_prompt_and_an_adjective_output_are_read_together() -> None:
    answer = _ask("DeepSeek-R1-Distill-Qwen-32B on 2x L40S with vLLM, 500-token prompts and 16k-token reasoning "
                  "outputs, 8 users: fits?")
    assert answer["query"]["context"] == 500 + 16384 and answer["check"]["fits"] is False


def test_a_short_output_keeps_the_default_window() -> None:
    answer = _ask("Qwen2.5-7B on one L4 with vLLM, 300-token answers, 8 users: fits?")
    assert answer["query"]["context"] == 4096
