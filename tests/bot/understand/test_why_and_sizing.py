"""A why-question with a sizing question after it: the FAQ answers the why, and the cards named are checked."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize("text", [
    # audit 21's pasted vLLM log ended so; the FAQ alone left "how many users" unanswered
    "Qwen2.5-32B AWQ on 1x L40S with vLLM --max-model-len 16384: why is KV cache usage so high and how many "
    "concurrent users can this card hold at 16k?",
    "为什么 vLLM 跑 Qwen2.5-7B 显存占满了？一张 4090 能撑多少并发？",
    "why does vLLM take all the memory of my A10 with llama 3 8b, and can it hold 20 users at 8k?",
])
def test_the_sizing_question_after_a_why_is_answered_with_the_faq(text: str) -> None:
    question = parse(text, KB)
    assert question.intent == "check" and question.gpu is not None and question.model is not None
    assert question.faq_hint is not None


@pytest.mark.parametrize("text", [
    "why does llama 3 70b need several GPUs?",
    "why is vllm taking 90% of my GPU memory",
    "why does Qwen2.5-7B take 22GB on my 4090 with vllm?",
])
def test_a_why_question_alone_stays_the_faqs(text: str) -> None:
    assert parse(text, KB).intent == "faq"


@pytest.mark.parametrize("text", [
    "SD3.5 Large Turbo on an RTX 3090, 4 steps, 1024x1024: does it fit in bf16 and how many seconds per image?",
    "how many hours to fine-tune llama 3 8b on an A100 with 100M tokens",
    "FLUX.1-dev on a 4090, how many images per minute?",
])
def test_how_many_seconds_hours_or_images_on_a_named_card_checks_that_card(text: str) -> None:
    # audit 22 M-2: "how many seconds per image" read as "how many cards", so the 3090 asked got no Yes/No
    assert parse(text, KB).intent == "check"


def test_how_many_cards_is_still_a_recommendation() -> None:
    assert parse("how many A100 for llama 70b?", KB).intent == "recommend"


def test_a_reply_that_must_finish_in_a_time_is_a_request_latency() -> None:
    # audit 30 HIGH 67: "each 500-token answer must finish within 5 s" was dropped; 500 tokens in 5 s is 100 tok/s
    from bot.understand.parse import parse as _parse
    from knowledge.loader import default_knowledge as _kb

    for text in ("Llama-3.1-8B: each 500-token answer must finish within 5 s end to end, 40 users at once",
                 "Llama-3.1-8B, 40 concurrent users, each 500-token reply must complete in under 5 seconds",
                 "Llama-3.1-8B，40 个并发，每个回答 500 token，要在 5 秒内返回，用什么卡？"):
        question = _parse(text, _kb())
        assert (question.batch, question.gen_tokens) == (40, 500), text
        assert question.tokens_per_s_per_user == 100.0, text


@pytest.mark.parametrize(("text", "service"), [
    ("我們公司預算每月新台幣 30 萬，想自建 Qwen3-32B 的推論服務，要用幾張卡？", True),
    ("想自建 Qwen3-32B 的推理服务，要用几张卡？", True),
    ("we want to self-host a Qwen3-32B inference service, how many GPUs?", True),
    ("self-hosting Qwen3-32B as an internal API, which GPU?", True),
    ("Qwen3-32B on my laptop for chat", False),
    ("what GPU for Qwen3-32B", False),
])
def test_a_model_run_as_a_service_is_read_as_such(text: str, service: bool) -> None:
    # audit 32 M-102: "自建 Qwen3-32B 的推論服務" was sized on transformers, one prompt at a time (9.9 tok/s)
    from bot.understand.intent import SERVICE_NOTE

    assert (SERVICE_NOTE in parse(text, KB).notes) is service
