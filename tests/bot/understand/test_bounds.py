"""bot.understand.bounds: a number beyond a field's bound is brought inside it and said, never a lost question."""

from __future__ import annotations

from bot.understand.bounds import bounded_question


def test_a_number_above_its_bound_is_set_to_it_and_said_clamped() -> None:
    question = bounded_question(text="x", intent="recommend", tokens=2e16, clamped=["gpu_count"])
    assert question.tokens == 1e16 and question.clamped == ["gpu_count", "tokens"]


def test_a_number_below_its_bound_that_has_no_floor_value_is_dropped() -> None:
    # tokens must be > 0: there is no "nearest allowed" value to take, so the slot is left unset and said
    question = bounded_question(text="x", intent="recommend", tokens=-5.0)
    assert question.tokens is None and question.clamped == ["tokens"]


def test_a_valid_question_is_untouched() -> None:
    question = bounded_question(text="x", intent="recommend", tokens=1e9)
    assert question.tokens == 1e9 and question.clamped == []


def test_a_context_in_billions_is_read_and_bounded_not_dropped_for_the_default() -> None:
    # audit 22 HIGH 1: "a 10 billion token context window" was not a context, so 4,096 was sized and the reply said Yes
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    for text in ("Llama 3.1 8B with a 10 billion token context window on one H100?",
                 "llama 3.1 8b 1 亿 token 上下文 一张 H100 能跑吗"):
        question = parse(text, kb)
        assert question.context == 10_000_000 and "context" in question.clamped, text
    assert parse("7b context length on a 4090?", kb).context is None  # a model's size is no context


def test_a_chinese_user_count_keeps_its_scale() -> None:
    # audit 22 HIGH 2: "500 万用户" lost its digits and the lone 万 read as 10,000 users
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    cases = {"500 万用户同时在线，每人 32k 上下文，Qwen2.5-7B，需要多少张 H200？": 5_000_000,
             "3 万个用户同时使用 Llama 3.1 8B，上下文 4k，需要几张 H100？": 30_000,
             "同时服务 2 万个用户，Qwen2.5-7B，要几张 L20": 20_000,
             "50 个用户同时使用 Qwen2.5-7B，一张 A10 够吗": 50}
    for text, users in cases.items():
        question = parse(text, kb)
        assert (question.users or question.batch) == users, text
