"""Casual, abbreviated follow-ups as typed in Slack keep the thread the way the careful forms do.

"wat about 2 of em", "ok n for 20 ppl at once?", "w/ 8k ctx", "int8 tho?", "换成两张呢", "20个人一起用咋样": each
changes the previous question's slot. A new question typed casually ("wat is the best GPU for llama 3 70b") stays a
new question, and a follow-up with nothing before it gets a reply, not a crash.
"""

from __future__ import annotations

import pytest

from bot.reply.render import render_text
from bot.service import Advisor
from bot.understand.followup import follow_up, is_follow_up
from bot.understand.parse import parse
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge

EN_FIRST = "Qwen2.5-14B on a 4090"
ZH_FIRST = "4090能跑Qwen2.5-14B吗"


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


def thread(kb: KnowledgeBase, *texts: str) -> Question:
    previous = None
    for text in texts:
        previous = follow_up(previous, parse(text, kb), kb)
    assert previous is not None
    return previous


def _kept_the_job(merged: Question) -> None:
    assert merged.model == "qwen2.5-14b"
    assert merged.gpu == "rtx-4090"
    assert merged.intent == "check"


# --- English --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "count"), [
    ("wat about 2 of em", 2),
    ("wut about 2 of em?", 2),
    ("whats about 2 of them", 2),
    ("how bout 2 of em", 2),
    ("2 of 'em?", 2),
    ("2 of \u2019em?", 2),  # a curly apostrophe, as Slack and phones type it
    ("two of those", 2),
    ("a couple of those?", 2),
    ("on 2 of em?", 2),
    ("what about three of em", 3),
    ("4 gpus then?", 4),
    ("k, 4x then?", 4),
])
def test_casual_card_count(text: str, count: int, kb: KnowledgeBase) -> None:
    merged = thread(kb, EN_FIRST, text)
    _kept_the_job(merged)
    assert merged.gpu_count == count and "gpu_count" in merged.stated


@pytest.mark.parametrize(("text", "users"), [
    ("ok n for 20 ppl at once?", 20),
    ("and for 20 users at once?", 20),  # the careful form, for comparison
    ("n for 20 folks?", 20),
    ("& for 20 peeps?", 20),
    ("20 ppl at once?", 20),
    ("for 30 users at the same time?", 30),
    ("how about 20 at once?", 20),
    ("50 concurrent ppl", 50),
])
def test_casual_users(text: str, users: int, kb: KnowledgeBase) -> None:
    merged = thread(kb, EN_FIRST, text)
    _kept_the_job(merged)
    assert merged.batch == users and merged.task == "inference"


@pytest.mark.parametrize(("text", "slot", "value"), [
    ("w/ 8k ctx", "context", 8192),
    ("and 32k ctx?", "context", 32768),
    ("int8 tho?", "precision", "int8"),
    ("how bout int4", "precision", "int4"),
    ("n int4?", "precision", "int4"),
    ("same but qlora", "task", "qlora"),
    ("wat if i use int4", "precision", "int4"),
])
def test_casual_slot_change(text: str, slot: str, value: object, kb: KnowledgeBase) -> None:
    merged = thread(kb, EN_FIRST, text)
    _kept_the_job(merged)
    assert getattr(merged, slot) == value and slot in merged.stated


@pytest.mark.parametrize("text", ["wat about llama 3 8b?", "how bout llama 3 8b", "n llama 3 8b?"])
def test_casual_model_change_keeps_the_card(text: str, kb: KnowledgeBase) -> None:
    # naming a model needs the follow-up cue: without it a model is a new question
    merged = thread(kb, EN_FIRST, text)
    assert (merged.model, merged.gpu, merged.intent) == ("llama-3-8b", "rtx-4090", "check")


def test_casual_and_adds_to_a_comparison(kb: KnowledgeBase) -> None:
    merged = thread(kb, "qwen 14b vs llama 2 13b on a 4090", "n mistral 7b?")
    assert merged.intent == "compare" and merged.compare_models[-1] == "mistral-7b"
    assert len(merged.compare_models) == 3


def test_long_casual_follow_up_with_filler(kb: KnowledgeBase) -> None:
    # more words than a bare slot restatement: only the opening cue ("ok cool thx, so wat about") keeps it
    merged = thread(kb, EN_FIRST, "ok cool thx, so wat about 2 of em w/ 8k ctx for 20 ppl at once n int8")
    _kept_the_job(merged)
    assert (merged.gpu_count, merged.context, merged.batch, merged.precision) == (2, 8192, 20, "int8")


def test_casual_follow_ups_chain(kb: KnowledgeBase) -> None:
    merged = thread(kb, EN_FIRST, "wat about 2 of em", "ok n for 20 ppl at once?", "int8 tho?")
    _kept_the_job(merged)
    assert (merged.gpu_count, merged.batch, merged.precision) == (2, 20, "int8")
    assert merged.lang == "en"


# --- Chinese --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "slot", "value"), [
    ("那int8呢", "precision", "int8"),
    ("两张呢", "gpu_count", 2),
    ("20个人同时用呢", "batch", 20),
    ("换成两张呢", "gpu_count", 2),
    ("那32k上下文呢", "context", 32768),
    ("20人同时用咋样", "batch", 20),
    ("用int4咋样", "precision", "int4"),
    ("20个人用呢", "batch", 20),
    ("20个人一起用咋样", "batch", 20),
    ("换两张咋样", "gpu_count", 2),
])
def test_chinese_colloquial(text: str, slot: str, value: object, kb: KnowledgeBase) -> None:
    merged = thread(kb, ZH_FIRST, text)
    _kept_the_job(merged)
    assert getattr(merged, slot) == value and slot in merged.stated
    assert merged.lang == "zh-Hans"


def test_chinese_model_change_with_zayang(kb: KnowledgeBase) -> None:
    merged = thread(kb, ZH_FIRST, "Qwen2.5-7B咋样")
    assert (merged.model, merged.gpu, merged.intent) == ("qwen2.5-7b", "rtx-4090", "check")


# --- slots read alone ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "slot", "value"), [
    ("2 of em", "gpu_count", 2),
    ("a pair of them", "gpu_count", 2),
    ("20 ppl", "batch", 20),
    ("2k ppl", "batch", 2000),  # people, counted in thousands, not a 2k context
    ("32k ctx for 20 ppl", "context", 32768),
    ("32k ctx for 20 ppl", "batch", 20),
    ("给20个人用", "batch", 20),
])
def test_casual_slots_parse(text: str, slot: str, value: object, kb: KnowledgeBase) -> None:
    assert getattr(parse(text, kb), slot) == value


@pytest.mark.parametrize("text", ["2 of the H100s were down", "them 2", "em dash"])
def test_no_count_without_of_them(text: str, kb: KnowledgeBase) -> None:
    question = parse(text, kb)
    assert question.gpu_count in (None, 1) or "gpu" in question.stated


# --- negatives: new questions stay new ------------------------------------------------------------------

def test_casual_new_question_in_a_fresh_thread(kb: KnowledgeBase) -> None:
    current = parse("wat is the best GPU for llama 3 70b", kb)
    assert follow_up(None, current, kb) is current
    assert (current.intent, current.model) == ("recommend", "llama-3-70b")


@pytest.mark.parametrize("text", [
    "wat is the best GPU for llama 3 70b",
    "wats the best gpu for mixtral 8x7b",
    "ok, what GPU for qwen2.5-72b inference",
    "tell me about the H100",
    "thanks!",
])
def test_casual_new_question_in_a_thread(text: str, kb: KnowledgeBase) -> None:
    previous = parse(EN_FIRST, kb)
    current = parse(text, kb)
    assert not is_follow_up(previous, current), text
    assert follow_up(previous, current, kb) is current


def test_casual_follow_up_after_help_stands_alone(kb: KnowledgeBase) -> None:
    merged = thread(kb, "help", "wat about 2 of em")
    assert merged.model is None and merged.gpu is None


# --- the whole turn, as the bot answers it ---------------------------------------------------------------

def test_audit_thread_end_to_end() -> None:
    advisor = Advisor(fetch_config=None)
    advisor.respond(EN_FIRST, "C1:casual")
    reply = advisor.respond("wat about 2 of em", "C1:casual")
    text = render_text(reply.answer, advisor.kb)
    assert reply.question.gpu_count == 2 and reply.question.model == "qwen2.5-14b"
    assert "didn't understand" not in text and "2× GeForce RTX 4090" in text
    reply = advisor.respond("ok n for 20 ppl at once?", "C1:casual")
    text = render_text(reply.answer, advisor.kb)
    assert reply.question.intent == "check" and reply.question.batch == 20
    assert "didn't understand" not in text and "Qwen2.5-14B" in text


@pytest.mark.parametrize("text", ["2 of em", "wat about 2 of em", "ok n for 20 ppl at once?"])
def test_casual_follow_up_with_nothing_before(text: str) -> None:
    advisor = Advisor(fetch_config=None)
    reply = advisor.respond(text, "C2:fresh")
    rendered = render_text(reply.answer, advisor.kb)
    assert reply.question.model is None and reply.question.gpu is None
    assert rendered.strip()
    assert "tell me" in rendered.lower()  # asks for the model rather than guessing one


@pytest.mark.parametrize(("text", "batch"), [("并发改成 50", 50), ("change users to 50", 50), ("batch 改成 64", 64)])
def test_a_count_set_after_its_name_carries_the_thread(text: str, batch: int) -> None:
    # "并发改成 50" and "change users to 50" got the welcome text: the value came after its name
    kb = load_knowledge()
    merged = follow_up(parse("Qwen2.5-72B AWQ 在 2 张 L20 上，20 个并发", kb), parse(text, kb), kb)
    assert (merged.model, merged.gpu, merged.gpu_count, merged.batch) == ("qwen2.5-72b", "l20", 2, batch)
