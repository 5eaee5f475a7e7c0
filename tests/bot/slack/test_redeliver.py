"""Acknowledged events survive the death of the worker answering them (issue 11, with REDIS_URL)."""

from __future__ import annotations

from typing import Any

from bot.slack.redeliver import sweep
from bot.state_redis import RedisStore
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import SIGNING_SECRET
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.slack.test_delivery_faults import Bot


def journal_as_a_dead_worker_would(store: RedisStore, payload: dict[str, Any]) -> None:
    """What the middleware journals at ack time; the worker then dies before answering."""
    body, headers = p.signed(SIGNING_SECRET, payload)
    assert store.first_delivery_journaled(f"event:{payload['event_id']}", payload["event_id"], body,
                                          {k.lower(): v for k, v in headers.items()})


def test_event_of_a_dead_worker_is_answered_once_by_another(fake_slack: FakeSlack, redis_server: Any) -> None:
    dead, alive = RedisStore(redis_server.url), RedisStore(redis_server.url)
    payload = p.mention("what GPU for ChatGLM-6B inference")
    journal_as_a_dead_worker_would(dead, payload)
    bot = Bot(fake_slack, store=alive)  # type: ignore[arg-type]
    assert sweep(bot.app, alive, older_than_s=0.0) == 1
    bot.drain()
    [answer] = fake_slack.calls_to("chat.postMessage")
    assert answer.args["thread_ts"] == payload["event"]["ts"]
    assert sweep(Bot(fake_slack, store=alive).app, alive, older_than_s=0.0) == 0  # type: ignore[arg-type]


def test_answered_events_leave_the_journal(fake_slack: FakeSlack, redis_server: Any) -> None:
    store = RedisStore(redis_server.url)
    bot = Bot(fake_slack, store=store)  # type: ignore[arg-type]
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference"))
    bot.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1
    assert store.journal_claim_stale(0.0) == []


def test_answer_posted_just_before_the_worker_died_is_not_repeated(fake_slack: FakeSlack,
                                                                    redis_server: Any) -> None:
    dead, alive = RedisStore(redis_server.url), RedisStore(redis_server.url)
    payload = p.mention("what GPU for ChatGLM-6B inference")
    first = Bot(fake_slack, store=dead)  # type: ignore[arg-type]
    first.dispatch(payload)
    first.drain()
    body, headers = p.signed(SIGNING_SECRET, payload)  # the entry its death left behind
    dead.journal_add(payload["event_id"], body, {k.lower(): v for k, v in headers.items()})
    bot = Bot(fake_slack, store=alive)  # type: ignore[arg-type]
    assert sweep(bot.app, alive, older_than_s=0.0) == 1
    bot.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1
