"""A vision request's text length said beside its image ("one 1024x1024 image plus ~500 tokens of text") is the
text alone: the image's positions come on top of it (audit 24 HIGH 6: they were dropped, 2 A100s for a load that
takes 6). A context said outright still holds its images."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json as _ask


@pytest.mark.parametrize(("text", "cards"), [
    ("Qwen2.5-VL-72B AWQ on 2x A100 80GB with vLLM, each request is one 1024x1024 image plus ~500 tokens of text "
     "and ~200 tokens out, 3 requests/s: enough?", 6),
    ("Qwen2.5-VL-7B on L20s, one 1280x720 image per request plus 300 tokens of text, 100 tokens out, 15 requests "
     "per second: how many L20s?", 7),
    ("Qwen2.5-VL-7B 用 L20，每个请求一张 1280x720 的图加 300 token 的文字，输出 100 token，"
     "每秒 15 个请求，要几张 L20？", 7),
])
def test_the_image_comes_on_top_of_the_text(text: str, cards: int) -> None:
    answer = _ask(text)
    serving = answer["serving"]
    assert serving["gpus_per_replica"] * serving["replicas"] == cards
    assert any(a["field"] == "image_tokens" for a in answer["assumptions"])


def test_a_context_said_outright_holds_its_images() -> None:
    answer = _ask("Qwen2.5-VL-7B on one L40S, one 1280x720 image per request, 8k context: how many concurrent?")
    assert answer["query"]["context"] == 8192
    assert not any(a["field"] == "image_tokens" for a in answer["assumptions"])


def test_images_arriving_at_a_rate_carry_a_short_instruction_not_a_default_prompt() -> None:
    # audit 24 LOW-35: 200,000 invoices a day with 300 output tokens each were sized with a 4,096-token prompt
    answer = _ask("阿里雲 A10 跑 Qwen2.5-VL-7B 做發票 OCR，每天 20 萬張 1024x1024 的圖，"
                  "每張輸出約 300 token，要幾張卡？")
    assert answer["query"]["context"] == 256 + 300 + 1371
    assert any(a["reason"] == "image-request-text" for a in answer["assumptions"])


def test_text_tokens_said_as_their_own_kind_are_the_text() -> None:
    answer = _ask("Qwen2.5-VL-7B on L40S, each request has one 1280x720 image and about 300 text tokens, 100 tokens "
                  "out, 10 requests per second: how many L40S?")
    assert answer["query"]["context"] == 300 + 100 + 1198  # the text, its reply and the image's positions
