"""End to end over real HTTP: the real `serve` (gunicorn + Bolt's WSGI adapter) as a subprocess, signed
requests as Slack sends them, the Web API and response_url faked on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import (
    APP_TOKEN,
    BOT_TOKEN,
    ROOT,
    SIGNING_SECRET,
    ServeProcess,
    bot_command,
    bot_env,
    post,
    real_pipeline_works,
)
from tests.bot.slack.fake_slack import FakeSlack, assert_no_broadcasts


@pytest.fixture(scope="module")
def slack() -> Iterator[FakeSlack]:
    with FakeSlack(bot_token=BOT_TOKEN, app_token=APP_TOKEN) as fake:
        yield fake


@pytest.fixture(scope="module")
def server(slack: FakeSlack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = ServeProcess(slack, tmp_path_factory.mktemp("serve") / "serve.log")
    yield process
    process.stop()


@pytest.fixture
def fresh(slack: FakeSlack, server: ServeProcess) -> FakeSlack:
    slack.wait_quiet(0.2)
    slack.reset()
    return slack


def send(server: ServeProcess, payload: dict, **kwargs: object) -> tuple[int, str, float]:
    body, headers = p.signed(SIGNING_SECRET, payload, **kwargs)  # type: ignore[arg-type]
    return post(server.url + "/slack/events", body, headers)


def expected_gpu(text: str) -> tuple[str, ...]:
    """Names the top pick may appear under in the reply (id and display name)."""
    if not real_pipeline_works():
        from tests.bot.slack.fakes import FakeAdvisor

        return (FakeAdvisor().respond(text, "probe:e2e").answer.picks[0].gpu,)
    from bot.service import Advisor

    advisor = Advisor()
    gpu_id = advisor.respond(text, "probe:e2e").answer.picks[0].gpu
    name = advisor.kb.gpu(gpu_id).name
    return gpu_id, name, name.removeprefix("NVIDIA ")


def test_healthz_and_unknown_paths(server: ServeProcess) -> None:
    import urllib.error
    import urllib.request

    with urllib.request.urlopen(server.url + "/healthz", timeout=2) as response:
        assert response.status == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(server.url + "/nope", timeout=2)
    assert refused.value.code == 404
    refused.value.close()  # gunicorn's gthread lingers up to 2 s on a "Connection: close" peer that stays open


def test_mention_is_answered_in_its_thread_with_the_right_gpu(server: ServeProcess, fresh: FakeSlack) -> None:
    question = "what GPU for ChatGLM-6B inference"
    status, _, seconds = send(server, p.mention(question, channel="C0E2E1", ts="1700000001.000100"))
    assert status == 200 and seconds < 1.0
    [answer] = fresh.wait_for("chat.postMessage")
    assert answer.args["channel"] == "C0E2E1" and answer.args["thread_ts"] == "1700000001.000100"
    assert answer.args["blocks"] and answer.text
    assert any(name in answer.everything() for name in expected_gpu(question)), answer.everything()[:500]


def test_dm_is_answered(server: ServeProcess, fresh: FakeSlack) -> None:
    send(server, p.dm("两张3090能跑Baichuan2-13B吗", channel="D0E2E"))
    [answer] = fresh.wait_for("chat.postMessage")
    assert answer.args["channel"] == "D0E2E" and answer.text


def test_slash_command_is_acked_fast_and_answered_via_response_url(server: ServeProcess, fresh: FakeSlack) -> None:
    status, _body, seconds = send(server, p.command("what GPU for ChatGLM-6B inference",
                                                   response_url=fresh.response_url("e2e-cmd")))
    assert status == 200 and seconds < 3.0
    [answer] = fresh.wait_for("response_url")
    assert answer.path == "/response/e2e-cmd" and answer.args["response_type"] == "ephemeral"
    assert "gpu_advisor.post" in p.buttons_of(answer.args["blocks"])


@pytest.mark.parametrize("kind", ["forged", "replayed"])
def test_forged_and_replayed_requests_are_refused(server: ServeProcess, fresh: FakeSlack, kind: str) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference", channel="C0E2EBAD")
    if kind == "forged":
        body, headers = p.signed("an-attackers-guess", payload)
    else:
        body, headers = p.signed(SIGNING_SECRET, payload, timestamp=int(time.time()) - 5 * 60 - 30)
    status, _, _ = post(server.url + "/slack/events", body, headers)
    assert status == 401
    fresh.wait_quiet(0.5)
    assert fresh.answers() == []


def test_a_retried_event_is_answered_once(server: ServeProcess, fresh: FakeSlack) -> None:
    payload = p.mention("what GPU for ChatGLM-6B inference", channel="C0E2ERETRY")
    assert send(server, payload)[0] == 200
    assert send(server, payload, retry_num=1)[0] == 200
    fresh.wait_for("chat.postMessage")
    fresh.wait_quiet(0.5)
    assert len(fresh.calls_to("chat.postMessage")) == 1


def test_429_then_200_ends_in_exactly_one_message(server: ServeProcess, fresh: FakeSlack) -> None:
    fresh.fail("chat.postMessage", 429, retry_after=1)
    send(server, p.mention("what GPU for ChatGLM-6B inference", channel="C0E2E429"))
    [answer] = fresh.wait_for("chat.postMessage", timeout=10)
    tries = fresh.calls_to("chat.postMessage", ok_only=False)
    assert [c.status for c in tries] == [429, 200]
    assert tries[1].at - tries[0].at >= 1.0  # waited for Retry-After
    fresh.wait_quiet(0.5)
    assert len(fresh.calls_to("chat.postMessage")) == 1 and answer.args["channel"] == "C0E2E429"


def test_broadcast_markup_in_the_question_is_not_echoed_raw(server: ServeProcess, fresh: FakeSlack) -> None:
    send(server, p.mention("<!channel> <!here> <!everyone> <https://evil.example|docs> what GPU for ChatGLM-6B",
                           channel="C0E2EESC"))
    send(server, p.dm("<!channel> ChatGLM-6B?", channel="D0E2EESC"))
    fresh.wait_for("chat.postMessage", count=2)
    fresh.wait_quiet(0.3)
    assert_no_broadcasts(fresh.answers(), also=lambda text: "<https://evil.example" in text)


def test_a_button_click_updates_the_message(server: ServeProcess, fresh: FakeSlack) -> None:
    send(server, p.mention("what GPU for ChatGLM-6B inference", channel="C0E2EBTN", ts="1700000002.000100"))
    [answer] = fresh.wait_for("chat.postMessage")
    buttons = p.buttons_of(answer.args["blocks"])
    assert buttons, "the answer has action buttons"
    action_id = "gpu_advisor.int4" if "gpu_advisor.int4" in buttons else sorted(buttons)[0]
    message_ts = answer.response["ts"]
    status, _, seconds = send(server, p.block_action(buttons[action_id], response_url=fresh.response_url("btn"),
                                                     channel="C0E2EBTN", message_ts=message_ts))
    assert status == 200 and seconds < 3.0
    [update] = fresh.wait_for("chat.update")
    assert update.args["channel"] == "C0E2EBTN" and update.args["ts"] == message_ts
    assert update.args["blocks"] and update.text


def test_logs_are_json_with_delivery_fields_and_never_contain_secrets(server: ServeProcess, fresh: FakeSlack) -> None:
    send(server, p.mention("what GPU for ChatGLM-6B inference", channel="C0E2ELOG", eid="Ev0E2ELOG"))
    fresh.wait_for("chat.postMessage")
    time.sleep(0.3)
    logs = server.logs()
    assert BOT_TOKEN not in logs and SIGNING_SECRET not in logs and "xoxb-1111" not in logs
    entries = [json.loads(line) for line in logs.splitlines() if line.startswith("{")]
    assert entries and len(entries) == len([line for line in logs.splitlines() if line.strip()]), \
        "every log line is a JSON object"
    [answered] = [e for e in entries if e.get("msg") == "answered" and e.get("event_id") == "Ev0E2ELOG"]
    assert answered["kind"] == "mention" and "latency_ms" in answered and "intent" in answered
    assert any(e.get("msg") == "duplicate delivery ignored" and e.get("retry_num") == 1 for e in entries)
    assert any(e.get("status") == 401 for e in entries)


@pytest.mark.parametrize("missing", ["SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN"])
def test_serve_refuses_to_start_without_secrets(slack: FakeSlack, missing: str, tmp_path: Path) -> None:
    env = bot_env(slack, PORT="0")
    env.pop(missing)
    done = subprocess.run(bot_command("serve"), cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and missing in lines[0], done.stderr


def test_serve_refuses_a_rejected_token(slack: FakeSlack) -> None:
    env = bot_env(slack, PORT="0", SLACK_BOT_TOKEN="xoxb-wrong-token-0000")
    done = subprocess.run([sys.executable, "-c", "import sys; from bot.slack.server import main; sys.exit(main())"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "invalid_auth" in done.stderr
    assert "xoxb-wrong-token-0000" not in done.stderr


def test_post_to_channel_from_a_slash_command_answer(server: ServeProcess, fresh: FakeSlack) -> None:
    send(server, p.command("what GPU for ChatGLM-6B inference", channel="C0E2EPOST",
                           response_url=fresh.response_url("post-cmd")))
    [ephemeral] = fresh.wait_for("response_url")
    buttons = p.buttons_of(ephemeral.args["blocks"])
    fresh.reset()
    send(server, p.block_action(buttons["gpu_advisor.post"], response_url=fresh.response_url("post-act"),
                                channel="C0E2EPOST", ephemeral=True))
    [posted] = fresh.wait_for("chat.postMessage")
    assert posted.args["channel"] == "C0E2EPOST" and posted.args["blocks"]
    assert "gpu_advisor.post" not in p.buttons_of(posted.args["blocks"])
    assert posted.text == ephemeral.text  # the same answer, now public
    [removed] = fresh.wait_for("response_url")
    assert removed.args.get("delete_original") is True
