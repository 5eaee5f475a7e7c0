"""A local Slack-compatible Web API for tests and benches (design.md, "Testing without Slack").

A threaded `http.server` on 127.0.0.1 (port 0 by default) that records every call and answers the Web API
methods the bot uses — auth.test, chat.postMessage, chat.postEphemeral, chat.update, chat.delete,
views.publish, apps.connections.open — plus `response_url` endpoints (POST /response/<name>). It can be
told to answer a method with 429 (Retry-After) or 5xx a number of times, or to refuse a channel.

    with FakeSlack() as slack:
        os.environ["SLACK_API_URL"] = slack.api_url          # http://127.0.0.1:PORT/api/
        slack.fail("chat.postMessage", status=429, retry_after=1)
        ...
        [post] = slack.wait_for("chat.postMessage")
        post.args["thread_ts"], post.args["blocks"]

Also runnable on its own for manual runs: `python -m tests.bot.slack.fake_slack --port 8399`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

BOT_USER_ID = "U0BOT"
BOT_ID = "B0BOT"
TEAM_ID = "T0FAKE"
JSON_FIELDS = ("blocks", "view", "attachments", "metadata")


@dataclass
class Call:
    method: str
    """Web API method name, or "response_url" for POST /response/<name>."""
    args: dict[str, Any]
    headers: dict[str, str]
    path: str
    status: int = 200
    ok: bool = True
    """The Web API's "ok" (False for an error answer such as not_in_channel)."""
    response: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)

    @property
    def text(self) -> str:
        return str(self.args.get("text") or "")

    def everything(self) -> str:
        """All the visible text of the call (text, blocks, view) as one string, for content checks."""
        return json.dumps({k: self.args.get(k) for k in ("text", "blocks", "view")}, ensure_ascii=False)


@dataclass
class _Failure:
    status: int
    headers: dict[str, str]
    body: dict[str, Any]


class FakeSlack:
    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, bot_token: str | None = None,
                 app_token: str | None = None) -> None:
        self.calls: list[Call] = []
        self.expected_bot_token = bot_token
        self.expected_app_token = app_token
        self.socket_url: str | None = None
        """What apps.connections.open returns (the test's WebSocket server)."""
        self.not_in_channels: set[str] = set()
        self.delay_s: dict[str, float] = {}
        self.messages: dict[str, list[dict[str, Any]]] = {}
        self._last_ts = 0.0
        self.channel_interval_s = 0.0
        """When > 0, chat.postMessage into a channel within this many seconds of the previous one gets 429
        (Retry-After: 1), as Slack limits posting to about one message a second per channel."""
        self._last_post: dict[str, float] = {}
        """channel → the messages chat.postMessage posted there (read back by conversations.*)."""
        self._failures: dict[str, list[_Failure]] = {}
        self._storms: dict[str, tuple[float, _Failure | None, float]] = {}
        self._random = random.Random(11)
        self._drops: dict[str, int] = {}
        self._lock = threading.Condition()
        self._server = ThreadingHTTPServer((host, port), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    # --- lifecycle

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/"

    @property
    def api_url(self) -> str:
        return self.url + "api/"

    def response_url(self, name: str = "cmd") -> str:
        return f"{self.url}response/{name}"

    def start(self) -> FakeSlack:
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-slack", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- behaviour

    def fail(self, method: str, status: int = 500, *, times: int = 1, retry_after: int | None = None,
             error: str | None = None) -> None:
        """Answer the next `times` calls of `method` with `status` (429 carries Retry-After)."""
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        body = {"ok": False, "error": error or ("ratelimited" if status == 429 else "internal_error")}
        with self._lock:
            self._failures.setdefault(method, []).extend(_Failure(status, headers, body) for _ in range(times))

    def storm(self, method: str, share: float, status: int | None = None, *, retry_after: int | None = None,
              stall_s: float = 0.0) -> None:
        """From now on, answer a random `share` of `method`'s calls with `status` (429 carries Retry-After),
        or, with `status` None, answer them normally after `stall_s` seconds. share 0 ends the storm."""
        failure = None
        if status is not None:
            headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
            error = "ratelimited" if status == 429 else "internal_error"
            failure = _Failure(status, headers, {"ok": False, "error": error})
        with self._lock:
            if share <= 0:
                self._storms.pop(method, None)
            else:
                self._storms[method] = (share, failure, stall_s)

    def _storm_of(self, method: str) -> tuple[_Failure | None, float]:
        with self._lock:
            storm = self._storms.get(method)
            if storm is None or self._random.random() >= storm[0]:
                return None, 0.0
            return storm[1], storm[2]

    def drop(self, method: str, *, times: int = 1) -> None:
        """Close the connection without answering the next `times` calls of `method` (a network failure)."""
        with self._lock:
            self._drops[method] = self._drops.get(method, 0) + times

    def reset(self) -> None:
        with self._lock:
            self.calls.clear()
            self._failures.clear()
            self._drops.clear()

    # --- inspection

    def calls_to(self, *methods: str, ok_only: bool = True) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.method in methods and ((c.status == 200 and c.ok) or not ok_only)]

    def answers(self) -> list[Call]:
        """Every call that shows something to a user (posts, updates, ephemeral, response_url)."""
        return self.calls_to("chat.postMessage", "chat.postEphemeral", "chat.update", "response_url",
                             "views.publish")

    def wait_for(self, *methods: str, count: int = 1, timeout: float = 10.0) -> list[Call]:
        """Wait until at least `count` successful calls to any of `methods` were recorded; return them."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = [c for c in self.calls if c.method in methods and c.status == 200 and c.ok]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [(c.method, c.status) for c in self.calls]
                    raise AssertionError(f"expected {count} call(s) to {methods} within {timeout} s; saw {seen}")
                self._lock.wait(remaining)

    def wait_quiet(self, quiet_s: float = 0.3, timeout: float = 5.0) -> None:
        """Wait until no call has arrived for `quiet_s` (to check that nothing more is coming)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                last = self.calls[-1].at if self.calls else 0.0
            if time.monotonic() - last >= quiet_s:
                return
            time.sleep(quiet_s / 3)

    # --- the server

    def _record(self, call: Call) -> None:
        with self._lock:
            self.calls.append(call)
            self._lock.notify_all()

    def _take_drop(self, method: str) -> bool:
        with self._lock:
            if self._drops.get(method, 0) > 0:
                self._drops[method] -= 1
                return True
            return False

    def _next_failure(self, method: str) -> _Failure | None:
        with self._lock:
            queue = self._failures.get(method)
            return queue.pop(0) if queue else None

    def _next_ts(self) -> str:
        """Unique and later than any event sent before it, as Slack's message timestamps are."""
        with self._lock:
            self._last_ts = max(time.time(), self._last_ts + 1e-6)
            return f"{self._last_ts:.6f}"

    def _answer(self, method: str, args: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        token = (headers.get("authorization") or "").removeprefix("Bearer ").strip() or args.get("token")
        if method == "apps.connections.open":
            if not str(token or "").startswith("xapp-") or (
                    self.expected_app_token and token != self.expected_app_token):
                return 200, {"ok": False, "error": "invalid_auth"}
            if not self.socket_url:
                return 200, {"ok": False, "error": "socket_mode_disabled"}
            return 200, {"ok": True, "url": self.socket_url}
        if not token:
            return 200, {"ok": False, "error": "not_authed"}
        if self.expected_bot_token and token != self.expected_bot_token:
            return 200, {"ok": False, "error": "invalid_auth"}
        if method == "auth.test":
            return 200, {"ok": True, "url": "https://fake.slack.invalid/", "team": "Fake", "user": "gpu-advisor",
                         "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID, "is_enterprise_install": False}
        channel = str(args.get("channel") or "")
        if method in ("chat.postMessage", "chat.postEphemeral", "chat.update") and channel in self.not_in_channels:
            return 200, {"ok": False, "error": "not_in_channel"}
        if method in ("chat.postMessage", "chat.postEphemeral") and not (
                args.get("text") or args.get("blocks") or args.get("attachments")):
            return 200, {"ok": False, "error": "no_text"}
        if method == "chat.postMessage" and self.channel_interval_s > 0:
            with self._lock:
                now = time.monotonic()
                if now - self._last_post.get(channel, -1e9) < self.channel_interval_s:
                    return 429, {"ok": False, "error": "ratelimited"}
                self._last_post[channel] = now
        if method == "chat.postMessage":
            ts = self._next_ts()
            message = {"type": "message", "text": args.get("text"), "bot_id": BOT_ID, "user": BOT_USER_ID, "ts": ts,
                       "thread_ts": args.get("thread_ts")}
            if isinstance(args.get("metadata"), dict):
                message["metadata"] = args["metadata"]
            with self._lock:
                self.messages.setdefault(channel, []).append(message)
            return 200, {"ok": True, "channel": channel, "ts": ts, "message": message}
        if method in ("conversations.replies", "conversations.history"):
            with self._lock:
                posted = list(self.messages.get(channel, []))
            if method == "conversations.replies":
                found = [m for m in posted if args.get("ts") in (m.get("thread_ts"), m.get("ts"))]
            else:
                found = [m for m in posted if float(m["ts"]) >= float(args.get("oldest") or 0)]
            if str(args.get("include_all_metadata")).lower() not in ("true", "1"):
                found = [{k: v for k, v in m.items() if k != "metadata"} for m in found]
            return 200, {"ok": True, "messages": found}
        if method == "chat.postEphemeral":
            return 200, {"ok": True, "message_ts": self._next_ts()}
        if method == "chat.update":
            return 200, {"ok": True, "channel": channel, "ts": args.get("ts"), "text": args.get("text")}
        if method == "chat.delete":
            return 200, {"ok": True, "channel": channel, "ts": args.get("ts")}
        if method == "views.publish":
            return 200, {"ok": True, "view": {"id": "V0HOME", **(args.get("view") or {})}}
        return 200, {"ok": False, "error": "unknown_method"}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def _args(self, raw: bytes) -> dict[str, Any]:
                ctype = self.headers.get("Content-Type", "")
                parsed: dict[str, Any] = {}
                query = urlsplit(self.path).query
                for key, values in parse_qs(query).items():
                    parsed[key] = values[-1]
                if raw:
                    if "json" in ctype:
                        try:
                            body = json.loads(raw)
                            if isinstance(body, dict):
                                parsed.update(body)
                        except ValueError:
                            parsed["_raw"] = raw.decode("utf-8", "replace")
                    else:
                        for key, values in parse_qs(raw.decode("utf-8", "replace")).items():
                            parsed[key] = values[-1]
                for key in JSON_FIELDS:
                    if isinstance(parsed.get(key), str):
                        with contextlib.suppress(ValueError):
                            parsed[key] = json.loads(parsed[key])
                return parsed

            def _send(self, status: int, body: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
                try:
                    self._write(status, body, ctype, headers)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a stalled call)
                    self.close_connection = True

            def _write(self, status: int, body: bytes, ctype: str, headers: dict[str, str] | None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self.do_POST()

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path = urlsplit(self.path).path
                headers = {k.lower(): v for k, v in self.headers.items()}
                args = self._args(raw)
                if path.startswith("/response/"):
                    method = "response_url"
                elif path.startswith("/api/"):
                    method = path.removeprefix("/api/")
                else:
                    self._send(404, b"not found", "text/plain")
                    return
                delay = fake.delay_s.get(method)
                if delay:
                    time.sleep(delay)
                if fake._take_drop(method):
                    fake._record(Call(method, args, headers, path, status=0, ok=False))
                    self.close_connection = True
                    return
                failure, stall = fake._storm_of(method)
                if stall:
                    time.sleep(stall)
                failure = failure or fake._next_failure(method)
                if failure is not None:
                    fake._record(Call(method, args, headers, path, status=failure.status, ok=False))
                    self._send(failure.status, json.dumps(failure.body).encode(), "application/json",
                               failure.headers)
                    return
                if method == "response_url":
                    fake._record(Call(method, args, headers, path))
                    self._send(200, b"ok", "text/html")
                    return
                status, body = fake._answer(method, args, headers)
                fake._record(Call(method, args, headers, path, status=status, ok=bool(body.get("ok")),
                                  response=body))
                extra = {"Retry-After": "1"} if status == 429 else None
                self._send(status, json.dumps(body).encode(), "application/json; charset=utf-8", extra)

        return Handler


def iter_strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value (for last-line-of-defence content checks)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from iter_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from iter_strings(item)


FORBIDDEN_MARKUP = ("<!channel", "<!here", "<!everyone", "<!subteam")


def assert_no_broadcasts(calls: list[Call], also: Callable[[str], bool] | None = None) -> None:
    """Last line of defence: nothing the bot sent may contain a live broadcast mention."""
    for call in calls:
        for text in iter_strings(call.args):
            lowered = text.lower()
            for markup in FORBIDDEN_MARKUP:
                assert markup not in lowered, f"{call.method} sent {markup!r}: {text[:200]!r}"
            if also is not None:
                assert not also(text), f"{call.method} sent {text[:200]!r}"


def main() -> None:  # pragma: no cover - manual use
    parser = argparse.ArgumentParser(description="local fake Slack Web API")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    with FakeSlack(port=args.port) as fake:
        print(f"SLACK_API_URL={fake.api_url}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":  # pragma: no cover
    main()
