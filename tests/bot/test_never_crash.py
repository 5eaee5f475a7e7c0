"""Property test: whatever text arrives, parse → answer → render neither raises nor breaks Slack's limits.

Numbers in the reply must be finite and bounded, so "10^30 parameters" or "context 999999999k" get a
capped answer rather than an overflow, a NaN or a 40-digit figure.
"""

from __future__ import annotations

import json
import math
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.reply.render import MAX_BLOCKS, MAX_HEADER_CHARS, MAX_SECTION_CHARS, render_blocks, render_text
from bot.service import Advisor

ADVISOR = Advisor()
MAX_REPORTED_GB = 1e18
"""Above what the bounds on parameters (20,000B), context (10M) and batch (4,096) can multiply up to, and
far below an overflow: a figure past it means a bound was lost somewhere."""

FRAGMENTS = st.sampled_from([
    "what GPU for", "llama 2 70b", "Qwen2.5-72B-Instruct-AWQ", "10^30 parameters", "context 999999999k",
    "-5 GPUs", "batch -3", "0 x A100", "2x 4090", "两张3090", "千亿参数", "并发100000", "<!channel>",
    "<@U123ABC>", "<https://huggingface.co/THUDM/chatglm-6b|chatglm-6b>", "&amp;", "int4", "fp8",
    "训练", "推理", "LoRA", "vs", "H100和A100", "1e308B", "∞", "NaN tokens", "\u0000", "🤖", "微調",
    "65536k context", "999999 H100", "deepseek-v3 fp8 on 8x H200", "a 0.0001B model",
])


def _numbers(payload: object) -> list[float]:
    found: list[float] = []
    if isinstance(payload, dict):
        for value in payload.values():
            found += _numbers(value)
    elif isinstance(payload, list):
        for value in payload:
            found += _numbers(value)
    elif isinstance(payload, (int, float)) and not isinstance(payload, bool):
        found.append(float(payload))
    return found


def _check(text: str) -> None:
    reply = ADVISOR.respond(text, "prop:thread")
    answer = reply.answer
    data = answer.as_json()
    for number in _numbers({k: v for k, v in data.items() if k != "understood"}):
        assert math.isfinite(number), data
        assert abs(number) < MAX_REPORTED_GB, data
    if answer.estimate is not None:
        assert 0 <= answer.estimate.total_gb < MAX_REPORTED_GB
    rendered = render_text(answer)
    assert rendered
    blocks, fallback = render_blocks(answer, thread_key="prop:thread", ephemeral=True)
    assert 0 < len(blocks) <= MAX_BLOCKS and fallback
    for block in blocks:
        if block["type"] == "header":
            assert len(block["text"]["text"]) <= MAX_HEADER_CHARS
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= MAX_SECTION_CHARS
            for field in block.get("fields", []):
                assert len(field["text"]) <= 2000
    dumped = json.dumps(blocks, ensure_ascii=False)
    assert "<!channel>" not in dumped and "<!here>" not in dumped and "<@U" not in dumped
    assert not re.search(r"\d{16,}", rendered), rendered


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    _check(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(FRAGMENTS, min_size=1, max_size=8), st.integers(min_value=-10**40, max_value=10**40))
def test_hostile_fragments_and_huge_numbers(parts: list[str], number: int) -> None:
    _check(" ".join(parts) + f" {number}B context {number} batch {number}")


def test_forty_thousand_characters_get_a_polite_refusal() -> None:
    reply = ADVISOR.respond("what GPU for llama 2 13b " * 1700, "prop:long")
    assert reply.answer.error == "too-long"
    assert "too long" in render_text(reply.answer)
