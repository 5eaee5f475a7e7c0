"""bot.conversation.follow_up: a follow-up replaces the slots it states and keeps the rest."""

from __future__ import annotations

import pytest

from bot.conversation import follow_up, is_follow_up
from bot.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


def thread(kb: KnowledgeBase, *texts: str):  # type: ignore[no-untyped-def]
    previous = None
    for text in texts:
        previous = follow_up(previous, parse(text, kb))
    assert previous is not None
    return previous


def test_no_previous_question(kb: KnowledgeBase) -> None:
    current = parse("what about int4?", kb)
    assert follow_up(None, current) is current


@pytest.mark.parametrize(("text", "slot", "value"), [
    ("what about int4?", "precision", "int4"),
    ("and for training?", "task", "train"),
    ("用两张卡呢", "gpu_count", 2),
    ("on an L40S?", "gpu", "l40s"),
    ("换成4090呢", "gpu", "rtx-4090"),
    ("32k context?", "context", 32768),
    ("with vllm?", "engine", "vllm"),
    ("并发20呢", "batch", 20),
    ("LoRA呢", "task", "lora"),
    ("那Qwen-14B呢", "model", "qwen-14b"),
    ("what about a 70B model?", "params_b", 70),
])
def test_follow_up_replaces_the_stated_slot(text: str, slot: str, value: object, kb: KnowledgeBase) -> None:
    previous = parse("两张3090能跑Baichuan2-13B吗，INT8量化，上下文4k", kb)
    current = parse(text, kb)
    merged = follow_up(previous, current)
    assert getattr(merged, slot) == value
    assert slot in merged.stated
    for kept in ("model", "task", "precision", "gpu", "gpu_count", "context"):
        if kept not in current.stated and not (slot == "params_b" and kept == "model"):
            assert getattr(merged, kept) == getattr(previous, kept), kept
    assert merged.intent == "check"


def test_changing_the_model_clears_the_bare_size(kb: KnowledgeBase) -> None:
    merged = thread(kb, "what GPU for a 13B model", "what about qwen-14b?")
    assert merged.model == "qwen-14b" and merged.params_b is None
    merged = thread(kb, "what GPU for qwen-14b", "what about a 70B model?")
    assert merged.model is None and merged.params_b == 70 and "model" not in merged.stated


def test_changing_precision_clears_the_format(kb: KnowledgeBase) -> None:
    merged = thread(kb, "serve qwen2.5-7b AWQ", "what about int8?")
    assert (merged.precision, merged.quant) == ("int8", None)


def test_intent_kept_unless_stated(kb: KnowledgeBase) -> None:
    assert thread(kb, "A10 vs A100 for stable diffusion", "and for training?").intent == "compare"
    assert thread(kb, "what GPU for llama-2-13b", "what about int4?").intent == "recommend"
    # naming a card after "which GPU?" asks whether that card will do
    assert thread(kb, "what GPU for llama-2-13b", "on an L40S?").intent == "check"
    assert thread(kb, "what GPU for llama-2-13b", "换成4090呢").intent == "check"


def test_implied_task_does_not_override(kb: KnowledgeBase) -> None:
    merged = thread(kb, "full fine-tune llama-3-8b on 8 A100 80GB", "32k context?")
    assert merged.task == "train" and merged.context == 32768


def test_compare_follow_up_adds_a_card(kb: KnowledgeBase) -> None:
    merged = thread(kb, "A10 vs A100 for stable diffusion", "what about an L40S?")
    assert merged.intent == "compare"
    assert merged.compare_gpus[-1] == "l40s" and len(merged.compare_gpus) == 3


def test_new_question_is_not_a_follow_up(kb: KnowledgeBase) -> None:
    previous = parse("两张3090能跑Baichuan2-13B吗", kb)
    for text in ("tell me about the H100", "what GPU for qwen2.5-72b inference", "显存不够怎么办", "help",
                 "how big is mixtral 8x7b"):
        current = parse(text, kb)
        assert not is_follow_up(previous, current), text
        assert follow_up(previous, current) is current


def test_after_help_or_faq_nothing_follows(kb: KnowledgeBase) -> None:
    assert follow_up(parse("help", kb), parse("int4?", kb)).model is None
    assert follow_up(parse("显存不够怎么办", kb), parse("what about int4?", kb)).intent != "faq"


def test_language_follows_the_latest_words(kb: KnowledgeBase) -> None:
    previous = parse("两张3090能跑Baichuan2-13B吗", kb)
    assert follow_up(previous, parse("int4?", kb)).lang == "zh-Hans"  # only slot words: keep Chinese
    assert follow_up(previous, parse("what about int4?", kb)).lang == "en"
    assert follow_up(parse("what GPU for qwen-7b", kb), parse("換成4090呢", kb)).lang == "zh-Hant"


def test_gpu_info_follow_up(kb: KnowledgeBase) -> None:
    merged = thread(kb, "tell me about the H100", "and the A100?")
    assert merged.intent == "gpu_info" and merged.gpu in ("a100-40gb", "a100-80gb")
