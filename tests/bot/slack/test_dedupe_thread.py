"""A retry reaching a replica whose store does not know the event (Redis down or restarted empty) is
recognised from the event id the bot's own answer carries (issue 11)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from slack_bolt import BoltRequest

from bot.state import MemoryStore
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import SIGNING_SECRET
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.slack.test_delivery_faults import Bot


def dispatch(bot: Bot, payload: dict[str, Any], retry_num: int | None = None) -> int:
    body, headers = p.signed(SIGNING_SECRET, payload, retry_num=retry_num)
    return bot.app.dispatch(BoltRequest(body=body, headers=dict(headers.items()))).status


@pytest.mark.parametrize("surface", ["mention", "mention-in-thread", "dm"])
def test_retry_on_another_replica_is_not_answered_twice(fake_slack: FakeSlack, surface: str) -> None:
    if surface == "dm":
        payload = p.dm("what GPU for ChatGLM-6B inference")
    else:
        thread = {"thread_ts": "1700000010.000100"} if surface == "mention-in-thread" else {}
        payload = p.mention("what GPU for ChatGLM-6B inference", **thread)
    first, second = Bot(fake_slack), Bot(fake_slack)  # two replicas, no shared store
    assert dispatch(first, payload) == 200
    first.drain()
    [answer] = fake_slack.calls_to("chat.postMessage")
    assert answer.args["metadata"]["event_payload"]["event_id"] == payload["event_id"]
    assert dispatch(second, payload, retry_num=1) == 200
    second.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1


def test_retry_of_an_unanswered_event_is_answered(fake_slack: FakeSlack) -> None:
    bot = Bot(fake_slack)
    assert dispatch(bot, p.mention("what GPU for ChatGLM-6B inference"), retry_num=2) == 200
    bot.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1


def test_an_unreadable_conversation_still_gets_its_answer(fake_slack: FakeSlack) -> None:
    fake_slack.fail("conversations.replies", 200, error="missing_scope")
    bot = Bot(fake_slack)
    assert dispatch(bot, p.mention("what GPU for ChatGLM-6B inference"), retry_num=1) == 200
    bot.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1


class DoubtedStore(MemoryStore):
    """A replica's view of a shared store that is up but whose memory cannot be trusted (Redis just came back
    or restarted empty: bot/state.py "Degradation")."""

    @property
    def reliable(self) -> bool:
        return False


def test_plain_copy_while_the_store_is_doubted_is_not_answered_twice(fake_slack: FakeSlack) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference")
    first, second = Bot(fake_slack, store=DoubtedStore()), Bot(fake_slack, store=DoubtedStore())
    assert dispatch(first, payload) == 200
    first.drain()
    assert dispatch(second, payload) == 200  # no retry header: a plain duplicate delivery
    second.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1


def test_answer_landing_while_a_copy_is_computed_is_not_posted_again(fake_slack: FakeSlack) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference")
    first, second = Bot(fake_slack, store=DoubtedStore()), Bot(fake_slack, store=DoubtedStore())
    respond = second.advisor.respond

    def slow_respond(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.5)  # the other replica answers meanwhile
        return respond(*args, **kwargs)

    second.advisor.respond = slow_respond  # type: ignore[method-assign]
    assert dispatch(second, payload, retry_num=1) == 200  # checked on arrival: nothing there yet
    assert dispatch(first, payload) == 200
    first.drain()
    second.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1
    assert len(fake_slack.calls_to("conversations.replies", "conversations.history")) >= 3
