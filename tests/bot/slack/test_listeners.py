"""Listener tests: signed requests through `app.dispatch(BoltRequest(...))`, the Web API faked on loopback."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from slack_bolt import App, BoltRequest, BoltResponse

from bot.slack.app import build_app
from bot.slack.client import build_web_client
from bot.slack.delivery import delivery_key
from bot.slack.settings import Settings
from bot.state import MemoryStore, thread_key
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import BOT_TOKEN, SIGNING_SECRET
from tests.bot.slack.fake_slack import BOT_ID, FakeSlack, assert_no_broadcasts
from tests.bot.slack.fakes import FakeAdvisor, FakeRenderer

_BOTS: list[Bot] = []


class Bot:
    def __init__(self, fake: FakeSlack, *, advisor: FakeAdvisor | None = None, renderer: FakeRenderer | None = None,
                 api_url: str | None = None) -> None:
        self.fake = fake
        self.store = MemoryStore()
        self.advisor = advisor or FakeAdvisor(self.store)
        self.advisor.store = self.store
        settings = Settings.from_env({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                                      "SLACK_API_URL": api_url or fake.api_url})
        self.app: App = build_app(settings, advisor=self.advisor, store=self.store,
                                  renderer=renderer or FakeRenderer(), kb=object(),
                                  client=build_web_client(settings, backoff_factor=0.05), post_interval_s=0.0)
        _BOTS.append(self)

    def drain(self) -> None:
        """Wait for the listeners still running, so none outlives its test (and its fake server)."""
        self.app.listener_runner.listener_executor.shutdown(wait=True)

    def dispatch(self, payload: dict[str, Any], *, retry_num: int | None = None, timestamp: int | None = None,
                 secret: str = SIGNING_SECRET) -> BoltResponse:
        body, headers = p.signed(secret, payload, timestamp=timestamp, retry_num=retry_num)
        return self.app.dispatch(BoltRequest(body=body, headers=dict(headers.items())))


@pytest.fixture(autouse=True)
def _drain_bots(fake_slack: FakeSlack) -> Iterator[None]:
    yield
    while _BOTS:
        _BOTS.pop().drain()


@pytest.fixture
def bot(fake_slack: FakeSlack) -> Bot:
    return Bot(fake_slack)


def test_mention_is_answered_in_its_thread_with_blocks_and_fallback(bot: Bot) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference", ts="1700000000.000100")
    assert bot.dispatch(payload).status == 200
    [post] = bot.fake.wait_for("chat.postMessage")
    assert post.args["channel"] == "C0GENERAL"
    assert post.args["thread_ts"] == "1700000000.000100"
    assert "rtx-4090" in post.text and post.args["blocks"]
    assert bot.advisor.calls[0]["thread_key"] == thread_key("C0GENERAL", "1700000000.000100")
    assert bot.advisor.calls[0]["user_id"] == "U0ALICE"


def test_later_mentions_in_the_thread_are_follow_ups(bot: Bot) -> None:
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference", ts="1700000000.000200"))
    bot.fake.wait_for("chat.postMessage")
    bot.dispatch(p.mention("what about int4?", ts="1700000000.000300", thread_ts="1700000000.000200"))
    posts = bot.fake.wait_for("chat.postMessage", count=2)
    assert posts[1].args["thread_ts"] == "1700000000.000200"
    assert {c["thread_key"] for c in bot.advisor.calls} == {thread_key("C0GENERAL", "1700000000.000200")}
    assert "rtx-4060-ti-16g" in posts[1].text  # the fake advisor applied int4 to the thread's model


def test_dm_is_answered_and_edits_deletions_and_bots_are_ignored(bot: Bot) -> None:
    bot.dispatch(p.dm("两张3090能跑Baichuan2-13B吗"))
    [post] = bot.fake.wait_for("chat.postMessage")
    assert post.args["channel"] == "D0ALICE" and "a100-80g" in post.text
    for ignored in (
        p.dm("edited", subtype="message_changed"),
        p.dm("gone", subtype="message_deleted"),
        p.dm("from another bot", bot_id="B0OTHER"),
        p.dm("our own reply", bot_id=BOT_ID, user="U0BOT"),
        p.dm("joined", subtype="channel_join"),
        p.event_callback({"type": "message", "channel_type": "channel", "channel": "C0GENERAL", "user": "U0ALICE",
                          "text": "not for us", "ts": "1.2"}),
    ):
        assert bot.dispatch(ignored).status == 200
    bot.fake.wait_quiet()
    assert len(bot.fake.calls_to("chat.postMessage")) == 1
    assert len(bot.advisor.calls) == 1


def test_mentions_from_bots_are_ignored(bot: Bot) -> None:
    payload = p.mention("what GPU for ChatGLM-6B")
    payload["event"]["bot_id"] = "B0OTHER"
    bot.dispatch(payload)
    bot.fake.wait_quiet()
    assert bot.fake.answers() == []


def test_slash_command_acks_before_computing_and_answers_ephemeral(fake_slack: FakeSlack) -> None:
    class SlowAdvisor(FakeAdvisor):
        def respond(self, *args: Any, **kwargs: Any) -> Any:
            time.sleep(0.5)
            return super().respond(*args, **kwargs)

    bot = Bot(fake_slack, advisor=SlowAdvisor())
    started = time.perf_counter()
    response = bot.dispatch(p.command("what GPU for ChatGLM-6B inference", response_url=fake_slack.response_url()))
    acked = time.perf_counter() - started
    assert response.status == 200 and acked < 0.3
    [reply] = fake_slack.wait_for("response_url")
    assert reply.args["response_type"] == "ephemeral"
    assert "rtx-4090" in reply.text
    assert "gpu_advisor.post" in p.buttons_of(reply.args["blocks"])


@pytest.mark.parametrize("text", ["", "help", "  HELP "])
def test_gpu_alone_or_help_shows_help(bot: Bot, text: str) -> None:
    bot.dispatch(p.command(text, response_url=bot.fake.response_url()))
    [reply] = bot.fake.wait_for("response_url")
    assert "Ask me which GPU" in reply.text
    assert bot.advisor.calls[0]["text"] == "help"


def _ephemeral_answer(bot: Bot) -> dict[str, dict[str, Any]]:
    bot.dispatch(p.command("what GPU for ChatGLM-6B inference", response_url=bot.fake.response_url("cmd")))
    [reply] = bot.fake.wait_for("response_url")
    bot.fake.reset()
    return p.buttons_of(reply.args["blocks"])


def test_button_on_an_ephemeral_answer_replaces_it(bot: Bot) -> None:
    buttons = _ephemeral_answer(bot)
    bot.dispatch(p.block_action(buttons["gpu_advisor.int4"], response_url=bot.fake.response_url("act"),
                                ephemeral=True))
    [update] = bot.fake.wait_for("response_url")
    assert update.args["replace_original"] is True
    assert "rtx-4060-ti-16g" in update.text
    assert bot.advisor.calls[-1]["overrides"] == {"precision": "int4"}
    assert bot.fake.calls_to("chat.update") == []


def test_button_on_a_posted_answer_updates_it_with_chat_update(bot: Bot) -> None:
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference", ts="1700000000.000400"))
    [post] = bot.fake.wait_for("chat.postMessage")
    buttons = p.buttons_of(post.args["blocks"])
    assert "gpu_advisor.post" not in buttons
    bot.dispatch(p.block_action(buttons["gpu_advisor.maths"], response_url=bot.fake.response_url("act"),
                                message_ts="1700000000.000500"))
    [update] = bot.fake.wait_for("chat.update")
    assert update.args["channel"] == "C0GENERAL" and update.args["ts"] == "1700000000.000500"
    assert "Maths:" in update.text and update.args["blocks"]


def test_post_to_channel_posts_publicly_then_removes_the_ephemeral(bot: Bot) -> None:
    buttons = _ephemeral_answer(bot)
    bot.dispatch(p.block_action(buttons["gpu_advisor.post"], response_url=bot.fake.response_url("act"),
                                ephemeral=True))
    [posted] = bot.fake.wait_for("chat.postMessage")
    assert posted.args["channel"] == "C0GENERAL" and "rtx-4090" in posted.text
    assert "gpu_advisor.post" not in p.buttons_of(posted.args["blocks"])
    [delete] = bot.fake.wait_for("response_url")
    assert delete.args.get("delete_original") is True
    # a mention in the posted message's thread continues the same question
    assert bot.store.get_question(thread_key("C0GENERAL", posted.response["ts"])) is not None


def test_post_to_channel_without_membership_uses_response_url_in_channel(bot: Bot) -> None:
    buttons = _ephemeral_answer(bot)
    bot.fake.not_in_channels.add("C0GENERAL")
    bot.dispatch(p.block_action(buttons["gpu_advisor.post"], response_url=bot.fake.response_url("act"),
                                ephemeral=True))
    replies = bot.fake.wait_for("response_url", count=2)
    assert replies[0].args["response_type"] == "in_channel" and "rtx-4090" in replies[0].text
    assert replies[1].args.get("delete_original") is True


def test_message_shortcut_answers_the_message_text_ephemerally(bot: Bot) -> None:
    bot.dispatch(p.message_shortcut("can we serve llama-3-70b?", response_url=bot.fake.response_url("sc")))
    [reply] = bot.fake.wait_for("response_url")
    assert reply.args["response_type"] == "ephemeral" and "h100-80g" in reply.text
    assert bot.advisor.calls[0]["text"] == "can we serve llama-3-70b?"


def test_message_shortcut_without_response_url_answers_in_dm(bot: Bot) -> None:
    bot.dispatch(p.message_shortcut("ChatGLM-6B please", response_url=None))
    [post] = bot.fake.wait_for("chat.postMessage")
    assert post.args["channel"] == "U0ALICE" and "rtx-4090" in post.text


def test_home_tab_publishes_recent_questions(bot: Bot) -> None:
    bot.dispatch(p.dm("what GPU for ChatGLM-6B inference"))
    bot.fake.wait_for("chat.postMessage")
    bot.dispatch(p.home_opened())
    [publish] = bot.fake.wait_for("views.publish")
    assert publish.args["user_id"] == "U0ALICE"
    assert "ChatGLM-6B" in json.dumps(publish.args["view"])


def test_retries_and_duplicates_are_answered_once(bot: Bot) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference")
    assert bot.dispatch(payload).status == 200
    assert bot.dispatch(payload, retry_num=1).status == 200
    assert bot.dispatch(payload, retry_num=2).status == 200
    assert bot.dispatch(payload).status == 200  # a plain duplicate delivery
    bot.fake.wait_for("chat.postMessage")
    bot.fake.wait_quiet()
    assert len(bot.fake.calls_to("chat.postMessage")) == 1


def test_a_retry_whose_first_delivery_was_lost_is_answered(bot: Bot) -> None:
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference"), retry_num=1)
    bot.fake.wait_for("chat.postMessage")
    bot.fake.wait_quiet()
    assert len(bot.fake.calls_to("chat.postMessage")) == 1


def test_duplicate_slash_command_is_answered_once(bot: Bot) -> None:
    payload = p.command("what GPU for ChatGLM-6B", response_url=bot.fake.response_url())
    bot.dispatch(payload)
    bot.dispatch(payload)
    bot.fake.wait_for("response_url")
    bot.fake.wait_quiet()
    assert len(bot.fake.calls_to("response_url")) == 1


@pytest.mark.parametrize("kind", ["forged", "stale", "unsigned"])
def test_bad_signatures_are_refused_and_nothing_happens(bot: Bot, kind: str) -> None:
    payload = p.mention("what GPU for ChatGLM-6B")
    if kind == "forged":
        response = bot.dispatch(payload, secret="not-the-secret")
    elif kind == "stale":
        response = bot.dispatch(payload, timestamp=int(time.time()) - 6 * 60)
    else:
        body, _ = p.encode(payload)
        response = bot.app.dispatch(BoltRequest(body=body, headers={"Content-Type": "application/json"}))
    assert response.status == 401
    time.sleep(0.2)
    assert bot.fake.answers() == [] and bot.advisor.calls == []
    # …and the refused copy did not claim the event id: the genuine delivery is still answered.
    assert bot.dispatch(payload).status == 200
    bot.fake.wait_for("chat.postMessage")


def test_rate_limit_answers_politely_once_instead_of_flooding(bot: Bot) -> None:
    for n in range(25):
        bot.dispatch(p.dm(f"what GPU for ChatGLM-6B inference #{n}"))
    bot.fake.wait_for("chat.postMessage", count=21, timeout=15)
    bot.fake.wait_quiet()
    posts = bot.fake.calls_to("chat.postMessage")
    notices = [c for c in posts if "faster than I can" in c.text]
    assert len(posts) == 21 and len(notices) == 1
    assert len(bot.advisor.calls) == 20


def test_rate_limit_in_a_channel_is_ephemeral(bot: Bot) -> None:
    for n in range(21):
        bot.dispatch(p.mention(f"ChatGLM-6B #{n}"))
    [notice] = bot.fake.wait_for("chat.postEphemeral")
    assert notice.args["user"] == "U0ALICE" and "faster than I can" in notice.text


def test_handler_error_logs_traceback_with_event_id_and_says_one_friendly_line(
        fake_slack: FakeSlack, caplog: pytest.LogCaptureFixture) -> None:
    bot = Bot(fake_slack, advisor=FakeAdvisor(fail_on="explode"))
    payload = p.mention("please explode", eid="Ev0BOOM")
    with caplog.at_level(logging.INFO, logger="bot.slack"):
        bot.dispatch(payload)
        [line] = fake_slack.wait_for("chat.postEphemeral")
        fake_slack.wait_quiet()
    assert "went wrong" in line.text
    for call in fake_slack.calls:
        assert "boom" not in call.everything() and "xoxb" not in call.everything()
    assert fake_slack.calls_to("chat.postMessage") == []
    [failure] = [r for r in caplog.records if r.getMessage() == "handler failed"]
    assert failure.exc_info is not None and getattr(failure, "event_id", None) == "Ev0BOOM"


def test_unescaped_renderer_output_is_still_defused(fake_slack: FakeSlack) -> None:
    bot = Bot(fake_slack, renderer=FakeRenderer(escape_user_text=False))
    bot.dispatch(p.dm("<!channel> <!here|here> <!everyone> what GPU for ChatGLM-6B"))
    [post] = fake_slack.wait_for("chat.postMessage")
    assert_no_broadcasts([post])
    assert "&lt;!channel&gt;" in post.text


def test_server_errors_are_retried_then_answered_once(bot: Bot) -> None:
    bot.fake.fail("chat.postMessage", 500, times=2)
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference"))
    bot.fake.wait_for("chat.postMessage", timeout=10)
    bot.fake.wait_quiet()
    assert len(bot.fake.calls_to("chat.postMessage")) == 1
    assert len(bot.fake.calls_to("chat.postMessage", ok_only=False)) == 3


@pytest.mark.parametrize("failure", ["connection", "server"])
def test_api_failures_after_retries_are_logged_once_and_the_app_keeps_serving(
        bot: Bot, caplog: pytest.LogCaptureFixture, failure: str) -> None:
    from bot.slack.client import SERVER_ERROR_RETRIES

    tries = 3 if failure == "connection" else 1 + SERVER_ERROR_RETRIES
    if failure == "connection":
        bot.fake.drop("chat.postMessage", times=tries)
    else:
        bot.fake.fail("chat.postMessage", 503, times=tries)
    with caplog.at_level(logging.INFO, logger="bot.slack"):
        assert bot.dispatch(p.dm("what GPU for ChatGLM-6B inference", eid="Ev0DEAD")).status == 200
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(r.getMessage() == "handler failed" for r in caplog.records):
            time.sleep(0.05)
        bot.fake.wait_quiet()
    assert len(bot.fake.calls_to("chat.postMessage", ok_only=False)) == tries + 1  # the tries, then the apology
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1 and getattr(failures[0], "event_id", None) == "Ev0DEAD"
    bot.fake.reset()
    bot.dispatch(p.dm("what GPU for ChatGLM-6B inference"))  # the app keeps serving
    assert "rtx-4090" in bot.fake.wait_for("chat.postMessage")[0].text


@pytest.mark.parametrize(("body", "key"), [
    ({"type": "event_callback", "event_id": "Ev1"}, "event:Ev1"),
    ({"command": "/gpu", "trigger_id": "t.1"}, "trigger:t.1"),
    ({"type": "block_actions", "actions": [{"action_ts": "9.9"}], "container": {"message_ts": "8.8"}},
     "action:9.9:8.8"),
    ({"type": "block_actions", "actions": [{}], "container": {}, "trigger_id": "t.2"}, "trigger:t.2"),
    ({"type": "message_action", "trigger_id": "t.3"}, "trigger:t.3"),
    ({"type": "url_verification"}, None),
])
def test_delivery_keys(body: dict[str, Any], key: str | None) -> None:
    assert delivery_key(body) == key


def test_url_verification_and_ssl_check_are_answered(bot: Bot) -> None:
    body, headers = p.sign_json(SIGNING_SECRET, {"type": "url_verification", "challenge": "c-123",
                                                 "token": "legacy"})
    response = bot.app.dispatch(BoltRequest(body=body, headers=headers))
    assert response.status == 200 and "c-123" in response.body
    assert bot.fake.answers() == []
