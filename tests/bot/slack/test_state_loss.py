"""Answers that survive the loss of server state (issue 11): buttons carry their question, a follow-up
answered without its context says so."""

from __future__ import annotations

import json

from bot.state import MemoryStore
from tests.bot.slack import payloads as p
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.slack.test_delivery_faults import Bot


def first_answer_buttons(fake: FakeSlack) -> dict[str, dict[str, object]]:
    [post] = fake.wait_for("chat.postMessage")
    return p.buttons_of(post.args["blocks"])


def test_button_works_after_the_stored_question_is_gone(fake_slack: FakeSlack) -> None:
    asked = Bot(fake_slack)
    asked.dispatch(p.mention("what GPU for ChatGLM-6B inference", ts="1700000001.000100"))
    asked.drain()
    button = first_answer_buttons(fake_slack)["gpu_advisor.int4"]
    assert json.loads(str(button["value"]))["q"]["model"]
    fake_slack.reset()

    restarted = Bot(fake_slack)  # a new process with an empty store (Redis restarted, 24 h expiry)
    restarted.dispatch(p.block_action(button, response_url=fake_slack.response_url(), message_ts="1700000001.000200"))
    restarted.drain()
    [update] = fake_slack.calls_to("chat.update")
    assert "rtx-4060-ti-16g" in update.everything()  # the INT4 answer for the carried question, not the help page


def test_old_button_without_its_question_never_replaces_the_answer_with_help(fake_slack: FakeSlack) -> None:
    bot = Bot(fake_slack)
    button = {"action_id": "gpu_advisor.int4",
              "value": json.dumps({"thread": "C0GENERAL:1700000002.000100", "overrides": {"precision": "int4"}})}
    bot.dispatch(p.block_action(button, response_url=fake_slack.response_url(), message_ts="1700000002.000200"))
    bot.drain()
    assert fake_slack.calls_to("chat.update") == []
    [line] = fake_slack.calls_to("response_url")
    assert "no longer have that question" in line.text and line.args.get("replace_original") is False


class DownStore(MemoryStore):
    """A store whose backend is down: nothing is found, nothing is kept."""

    available = False

    def get_question(self, thread_key: str) -> None:  # type: ignore[override]
        return None


def test_follow_up_without_context_says_so_in_one_line(fake_slack: FakeSlack) -> None:
    bot = Bot(fake_slack, store=DownStore())
    bot.dispatch(p.mention("and with int4?", ts="1700000003.000300", thread_ts="1700000003.000100"))
    bot.dispatch(p.mention("what GPU for ChatGLM-6B inference", ts="1700000003.000400"))  # a new thread
    bot.drain()
    posts = fake_slack.wait_for("chat.postMessage", count=2)
    by_thread = {c.args["thread_ts"]: c for c in posts}
    follow_up = by_thread["1700000003.000100"].args["blocks"]
    assert follow_up[0]["type"] == "context" and "lost the thread's context" in json.dumps(follow_up[0])
    assert "lost the thread" not in by_thread["1700000003.000400"].everything()
