"""Slow clients cannot starve Slack's requests in the arrangement the deploy files ship: nginx with
deploy/nginx.conf buffering in front of the real `serve` (issue 11). gunicorn alone gives each connection a thread
while it reads the request, so 40 clients trickling their headers timed out every ack for 20 s; behind the proxy
they cost nginx a socket each and are dropped after its header/body timeouts.

Needs the nginx binary (Debian: nginx-light; .ci/run installs it); skips without it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench._load_harness import Proxy, SlowClients
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import BOT_TOKEN, SIGNING_SECRET, ServeProcess, post
from tests.bot.slack.fake_slack import FakeSlack

SLOW_CLIENTS = 40
ACK_DEADLINE_S = 3.0


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[FakeSlack, ServeProcess, Proxy]]:
    fake = FakeSlack(bot_token=BOT_TOKEN).start()
    serve = ServeProcess(fake, tmp_path / "serve.log")
    try:
        proxy = Proxy(serve.port, tmp_path / "nginx")
    except RuntimeError as error:
        serve.stop()
        fake.stop()
        pytest.skip(str(error))
    yield fake, serve, proxy
    proxy.stop()
    serve.stop()
    fake.stop()


@pytest.mark.parametrize("part", ["headers", "body"])
def test_slack_is_acknowledged_in_time_while_clients_trickle(proxied: tuple[FakeSlack, ServeProcess, Proxy],
                                                             part: str) -> None:
    fake, _serve, proxy = proxied
    clients = SlowClients(proxy.port, part, SLOW_CLIENTS)
    try:
        time.sleep(1.0)
        acks = []
        for index in range(6):
            body, headers = p.signed(SIGNING_SECRET, p.mention("what GPU for ChatGLM-6B inference",
                                                               channel=f"CSLOW{index}", user=f"USLOW{index}"))
            status, _, seconds = post(f"http://127.0.0.1:{proxy.port}/slack/events", body, headers, timeout=10)
            acks.append((status, round(seconds, 2)))
            time.sleep(1.0)  # spread over the proxy's 5 s header timeout
    finally:
        clients.stop()
    assert all(status == 200 and seconds < ACK_DEADLINE_S for status, seconds in acks), acks
    fake.wait_quiet(0.5, timeout=10)
    assert len(fake.calls_to("chat.postMessage")) == 6
