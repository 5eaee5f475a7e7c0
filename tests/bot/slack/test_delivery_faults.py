"""Rate limits, server errors and stalls on the Web API and response_url (issue 11): a reply that is only
delayed is delivered once, and no error line goes with it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from slack_bolt import App, BoltRequest, BoltResponse
from slack_sdk import WebClient

from bot.slack.app import build_app
from bot.slack.client import CHANNEL_POST_INTERVAL_S, retry_handlers
from bot.slack.settings import Settings
from bot.state import MemoryStore
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import BOT_TOKEN, SIGNING_SECRET
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.slack.fakes import FakeAdvisor, FakeRenderer

ERROR_WORDS = ("went wrong", "出了点问题")


class Bot:
    def __init__(self, fake: FakeSlack, *, timeout: float = 10.0, pace_s: float = 0.0,
                 store: MemoryStore | None = None) -> None:
        self.fake = fake
        self.store = store if store is not None else MemoryStore()
        self.advisor = FakeAdvisor(self.store)
        settings = Settings.from_env({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                                      "SLACK_API_URL": fake.api_url})
        client = WebClient(token=BOT_TOKEN, base_url=fake.api_url, timeout=timeout,  # type: ignore[arg-type]
                           retry_handlers=retry_handlers(0.01))
        self.app: App = build_app(settings, advisor=self.advisor, store=self.store, renderer=FakeRenderer(),
                                  kb=object(), client=client, post_interval_s=pace_s)

    def dispatch(self, payload: dict[str, Any]) -> BoltResponse:
        body, headers = p.signed(SIGNING_SECRET, payload)
        return self.app.dispatch(BoltRequest(body=body, headers=dict(headers.items())))

    def drain(self) -> None:
        self.app.listener_runner.listener_executor.shutdown(wait=True)


@pytest.fixture
def bots(fake_slack: FakeSlack) -> Iterator[list[Bot]]:
    made: list[Bot] = []
    yield made
    for bot in made:
        bot.drain()


def error_lines(fake: FakeSlack) -> list[str]:
    return [c.everything() for c in fake.answers() if any(w in c.everything() for w in ERROR_WORDS)]


def test_more_than_three_429s_on_post_are_waited_out(fake_slack: FakeSlack, bots: list[Bot]) -> None:
    bots.append(bot := Bot(fake_slack))
    fake_slack.fail("chat.postMessage", 429, times=5, retry_after=0)
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference"))
    bot.drain()
    assert len(fake_slack.calls_to("chat.postMessage")) == 1
    assert error_lines(fake_slack) == []


@pytest.mark.parametrize("status", [429, 500])
def test_response_url_429_or_500_is_retried(fake_slack: FakeSlack, bots: list[Bot], status: int) -> None:
    bots.append(bot := Bot(fake_slack))
    fake_slack.fail("response_url", status, times=2, retry_after=0)
    bot.dispatch(p.command("what GPU for ChatGLM-6B inference", response_url=fake_slack.response_url()))
    bot.drain()
    answers = fake_slack.calls_to("response_url")
    assert len(answers) == 1 and "rtx-4090" in answers[0].everything()
    assert error_lines(fake_slack) == []


def test_post_slower_than_the_client_timeout_gives_no_error_line(fake_slack: FakeSlack, bots: list[Bot]) -> None:
    bots.append(bot := Bot(fake_slack, timeout=0.3))
    fake_slack.delay_s["chat.postMessage"] = 0.8
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference"))
    bot.drain()
    fake_slack.delay_s.pop("chat.postMessage")
    fake_slack.wait_quiet(0.9)
    assert len(fake_slack.calls_to("chat.postMessage")) == 1  # the answer, once; no retry of a stalled post
    assert error_lines(fake_slack) == []


def test_posts_into_one_channel_are_paced(fake_slack: FakeSlack, bots: list[Bot]) -> None:
    bots.append(bot := Bot(fake_slack, pace_s=0.5))
    for i in range(4):
        bot.dispatch(p.mention("what GPU for ChatGLM-6B inference", user=f"U{i}"))
    posts = fake_slack.wait_for("chat.postMessage", count=4)
    moments = sorted(c.at for c in posts)
    gaps = [round(later - earlier, 3) for earlier, later in itertools.pairwise(moments)]
    assert min(gaps) >= 0.35, gaps


def test_posts_are_paced_at_one_a_second_by_default() -> None:
    assert CHANNEL_POST_INTERVAL_S >= 1.0
