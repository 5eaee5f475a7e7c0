"""Payloads Slack should never send but a bug or a replay might: each is handled without a traceback, and
answered once or refused (issue 11)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.bot.slack import payloads as p
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.slack.test_delivery_faults import Bot


def mention_without(*fields: str, **replace: Any) -> dict[str, Any]:
    payload = p.mention("what GPU for ChatGLM-6B inference")
    for name in fields:
        payload["event"].pop(name, None)
    payload["event"].update(replace)
    return payload


CASES: dict[str, dict[str, Any]] = {
    "mention without channel": mention_without("channel"),
    "mention without ts": mention_without("ts"),
    "mention with non-string text": mention_without(text=["what", "GPU"]),
    "mention with numeric text": mention_without(text=4090),
    "dm with non-string text": {**p.dm("x"), "event": {**p.dm("x")["event"], "text": {"a": 1}}},
    "event without event_id": {k: v for k, v in p.mention("what GPU for ChatGLM-6B inference").items()
                               if k != "event_id"},
    "event that is not an object": {**p.mention("hi"), "event": "app_mention"},
}


def _traceback_free(caplog: pytest.LogCaptureFixture) -> None:
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
    assert tracebacks == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_event_is_handled_without_traceback(fake_slack: FakeSlack, caplog: pytest.LogCaptureFixture,
                                                      name: str) -> None:
    bot = Bot(fake_slack)
    with caplog.at_level(logging.DEBUG):
        assert bot.dispatch(CASES[name]).status == 200
        bot.drain()
    _traceback_free(caplog)
    assert len(fake_slack.answers()) <= 1


def test_event_without_event_id_is_still_answered_once(fake_slack: FakeSlack) -> None:
    bot = Bot(fake_slack)
    bot.dispatch(CASES["event without event_id"])
    bot.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1


def test_command_without_trigger_id(fake_slack: FakeSlack, caplog: pytest.LogCaptureFixture) -> None:
    bot = Bot(fake_slack)
    payload = p.command("what GPU for ChatGLM-6B inference", response_url=fake_slack.response_url())
    payload.pop("trigger_id")
    with caplog.at_level(logging.DEBUG):
        assert bot.dispatch(payload).status == 200
        bot.drain()
    _traceback_free(caplog)
    assert len(fake_slack.calls_to("response_url")) == 1


@pytest.mark.parametrize("actions", [[], None, [{}], [{"action_id": "gpu_advisor.nonsense", "value": "{]"}],
                                     [{"action_id": "someone_else.button", "value": "x"}]])
def test_odd_button_payloads(fake_slack: FakeSlack, caplog: pytest.LogCaptureFixture, actions: Any) -> None:
    bot = Bot(fake_slack)
    payload = p.block_action({"action_id": "gpu_advisor.int4", "value": "{}"}, response_url=fake_slack.response_url())
    payload["actions"] = actions
    with caplog.at_level(logging.DEBUG):
        assert bot.dispatch(payload).status in (200, 404)
        bot.drain()
    _traceback_free(caplog)
