"""Socket Mode end to end: `python -m bot socket` against a local WebSocket server playing Slack's side.

The fake Web API's apps.connections.open hands out the ws://127.0.0.1:PORT URL; the server sends `hello`,
then envelopes; the bot must ack each with its envelope_id and answer through the Web API.
"""

from __future__ import annotations

import asyncio
import json
import queue
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import APP_TOKEN, BOT_TOKEN, ROOT, bot_command, bot_env
from tests.bot.slack.fake_slack import FakeSlack


class FakeSocketSlack:
    def __init__(self) -> None:
        self.received: queue.Queue[dict[str, Any]] = queue.Queue()
        self.connected = threading.Event()
        self.port = 0
        self._ws: ServerConnection | None = None
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="fake-socket-slack")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/link/?ticket=fake-ticket&app_id=A0APP"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())

    async def _main(self) -> None:
        self._stop = self._loop.create_future()
        async with serve(self._handler, "127.0.0.1", 0) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self._ready.set()
            await self._stop

    async def _handler(self, ws: ServerConnection) -> None:
        self._ws = ws
        await ws.send(json.dumps({"type": "hello", "num_connections": 1,
                                  "debug_info": {"host": "fake", "approximate_connection_time": 3600},
                                  "connection_info": {"app_id": "A0APP"}}))
        self.connected.set()
        async for message in ws:
            self.received.put(json.loads(message))

    def start(self) -> FakeSocketSlack:
        self._thread.start()
        assert self._ready.wait(5)
        return self

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set_result, None)
        self._thread.join(5)

    def send(self, envelope: dict[str, Any]) -> None:
        assert self._ws is not None, "no connection"
        asyncio.run_coroutine_threadsafe(self._ws.send(json.dumps(envelope)), self._loop).result(5)

    def ack_for(self, envelope_id: str, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            message = self.received.get(timeout=timeout)
            if message.get("envelope_id") == envelope_id:
                return message


def events_envelope(envelope_id: str, payload: dict[str, Any], retry_attempt: int = 0) -> dict[str, Any]:
    return {"envelope_id": envelope_id, "type": "events_api", "accepts_response_payload": False,
            "retry_attempt": retry_attempt, "retry_reason": "timeout" if retry_attempt else "", "payload": payload}


@pytest.fixture
def socket_bot(fake_slack: FakeSlack, tmp_path: Path) -> Iterator[tuple[FakeSocketSlack, FakeSlack, Path]]:
    ws = FakeSocketSlack().start()
    fake_slack.socket_url = ws.url
    log_path = tmp_path / "socket.log"
    env = bot_env(fake_slack, SLACK_APP_TOKEN=APP_TOKEN)
    env.pop("SLACK_SIGNING_SECRET")  # Socket Mode needs no signing secret
    with open(log_path, "wb") as log:
        process = subprocess.Popen(bot_command("socket"), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            assert ws.connected.wait(30), log_path.read_text()
            yield ws, fake_slack, log_path
        finally:
            process.terminate()
            try:
                assert process.wait(timeout=15) == 0, log_path.read_text()[-3000:]
            finally:
                if process.poll() is None:
                    process.kill()
                ws.stop()


def test_socket_mode_acks_envelopes_and_answers_through_the_web_api(
        socket_bot: tuple[FakeSocketSlack, FakeSlack, Path]) -> None:
    ws, fake, log_path = socket_bot
    assert fake.calls_to("apps.connections.open")[0].headers["authorization"] == f"Bearer {APP_TOKEN}"
    payload = p.mention("what GPU for ChatGLM-6B inference", channel="C0SOCK", ts="1700000003.000100")
    ws.send(events_envelope("env-1", payload))
    assert ws.ack_for("env-1") == {"envelope_id": "env-1"}
    [answer] = fake.wait_for("chat.postMessage")
    assert answer.args["channel"] == "C0SOCK" and answer.args["thread_ts"] == "1700000003.000100"
    assert answer.args["blocks"] and answer.text

    # Slack redelivers the same event (retry_attempt 1) in a new envelope: acked, not answered again.
    ws.send(events_envelope("env-2", payload, retry_attempt=1))
    assert ws.ack_for("env-2") == {"envelope_id": "env-2"}
    fake.wait_quiet(0.5)
    assert len(fake.calls_to("chat.postMessage")) == 1

    # A slash command over the socket: acked, answered through its response_url.
    command = p.command("what GPU for ChatGLM-6B inference", response_url=fake.response_url("sock-cmd"))
    ws.send({"envelope_id": "env-3", "type": "slash_commands", "accepts_response_payload": True,
             "payload": command})
    assert ws.ack_for("env-3")["envelope_id"] == "env-3"
    [reply] = fake.wait_for("response_url")
    assert reply.args["response_type"] == "ephemeral"
    logs = log_path.read_text()
    assert APP_TOKEN not in logs and BOT_TOKEN not in logs


def test_socket_mode_refuses_to_start_without_an_app_token(fake_slack: FakeSlack) -> None:
    env = bot_env(fake_slack)
    done = subprocess.run(bot_command("socket"), cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "SLACK_APP_TOKEN" in lines[0]
