"""The engine's length flag written beside shorter requests: whether vLLM starts with it (audit 26 LOW-61)."""

from __future__ import annotations

from pathlib import Path

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()

PASTE = (Path(__file__).parent / "data" / "vllm_start_error.txt").read_text(encoding="utf-8")


def test_the_length_flag_is_kept_beside_the_requests_lengths() -> None:
    question = parse(PASTE, KB)
    assert question.context == 3_072 + 800  # "输入 3k、输出 800"
    assert question.engine_max_len == 32_768
    assert question.logged_kv_tokens == 22_304  # the log's own error line, read though log lines are masked


def test_the_log_decides_what_starts_and_how_many_requests_fit() -> None:
    # 4 RTX 4090s, Qwen2.5-72B GPTQ: the pasted error says the cache holds 22,304 tokens, fewer than 32,768;
    # 22,304 // 3,872 = 5 requests at once
    text = render_text(answer(parse(PASTE, KB), KB))
    assert "--max-model-len 32,768" in text
    assert "22,304" in text and "5 个 3,872 token 的请求" in text


def test_a_length_the_cards_cannot_hold_is_refused_with_the_longest_that_starts() -> None:
    result = answer(parse("vllm serve Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 2 --max-model-len 131072 on "
                          "2x RTX 4090, prompts about 2k tokens, answers about 300: ok?", KB), KB)
    figure = result.engine_length
    assert figure is not None and not figure["starts"]
    assert result.query.context == 2_348 and 2_348 <= figure["longest"] < 131_072
    assert figure["longest"] % 1024 == 0
    assert "does not start with --max-model-len 131,072" in render_text(result)


def test_no_line_without_a_longer_flag_or_on_an_engine_that_does_not_check() -> None:
    plain = answer(parse("Qwen2.5-72B AWQ on 2x RTX 4090 with vLLM, 2k context", KB), KB)
    assert plain.engine_length is None
    llama = answer(parse("llama-server -m qwen2.5-72b-q4_k_m.gguf -c 32768 on 2x RTX 4090, prompts about 2k tokens",
                         KB), KB)
    assert llama.engine_length is None

