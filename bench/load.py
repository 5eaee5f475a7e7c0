"""Bounded load on loopback against a real `serve`: ack latency, answers posted, lost and duplicated.

Starts the fake Slack Web API (tests/bot/slack/fake_slack.py) in this process and `python -m bot serve` as a
subprocess pointed at it, then sends signed `app_mention` events at a fixed rate for a fixed time over
keep-alive connections (as Slack does). A share of the requests are deliberate repeats of an earlier
event — Slack-style retries (X-Slack-Retry-Num: 1..3) and plain duplicate deliveries — which must not
produce a second answer. Each event comes from its own user (the per-user limit is 20 a minute).
It stops by itself: after the sending window it waits at most --settle seconds for the answers.

    .venv/bin/python bench/load.py                      # 50 mentions/s for 30 s, 10% repeats
    .venv/bin/python bench/load.py --rate 100 --duration 10 --repeat-share 0.2

Goal (issue 3): p99 ack < 100 ms, zero lost, zero duplicated. Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bot.slack import payloads as p  # noqa: E402
from tests.bot.slack.fake_slack import FakeSlack  # noqa: E402

SECRET = "bench-signing-secret-0123456789abcdef"
TOKEN = "xoxb-0000000000-0000000000-benchTOKENbenchTOKEN"
QUESTIONS = (
    "what GPU for ChatGLM-6B inference",
    "两张3090能跑Baichuan2-13B吗",
    "Qwen-7B LoRA fine-tuning, which GPU?",
    "can a 4090 serve Llama-2-13B in int4?",
    "cheapest GPU for Mistral-7B inference with 8k context",
)
MAX_RATE = 500
MAX_DURATION = 300


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(fake: FakeSlack, port: int, log_path: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "REDIS_URL"))}
    env.update({"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": fake.api_url,
                "PORT": str(port), "HOST": "127.0.0.1", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)})
    log = open(log_path, "wb")  # noqa: SIM115 - the server writes to it for its whole life
    process = subprocess.Popen([sys.executable, "-m", "bot", "serve"], cwd=ROOT, env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"serve exited with {process.returncode}; see {log_path}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=0.5) as response:
                if response.status == 200:
                    return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"serve did not become healthy; see {log_path}")


class Client:
    """One keep-alive connection per sender thread."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.local = threading.local()

    def post(self, body: str, headers: dict[str, str]) -> int:
        for attempt in range(2):
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            try:
                conn.request("POST", "/slack/events", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                return response.status
            except (OSError, http.client.HTTPException):
                conn.close()
                self.local.conn = None
                if attempt:
                    raise
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=50.0, help="requests per second (default 50)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of sending (default 30)")
    parser.add_argument("--repeat-share", type=float, default=0.1,
                        help="share of requests that repeat an earlier event (retries/duplicates; default 0.1)")
    parser.add_argument("--settle", type=float, default=20.0, help="max seconds to wait for answers afterwards")
    parser.add_argument("--senders", type=int, default=16, help="sender threads (keep-alive connections)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not 0 < args.rate <= MAX_RATE or not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--rate must be in (0, {MAX_RATE}] and --duration in (0, {MAX_DURATION}]")
    random.seed(args.seed)

    total = int(args.rate * args.duration)
    fake = FakeSlack(bot_token=TOKEN).start()
    port = free_port()
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"gpu-advisor-load-{port}.log"
    server = start_server(fake, port, log_path)
    client = Client(port)
    events: list[dict[str, Any]] = []
    acks: list[float] = []
    lags: list[float] = []
    statuses: Counter[int] = Counter()
    sent_at: dict[str, float] = {}
    lock = threading.Lock()
    repeats = Counter[str]()

    def send(index: int, scheduled: float) -> None:
        repeat = events and random.random() < args.repeat_share
        if repeat:
            with lock:
                payload = random.choice(events)
            retry = random.choice([None, 1, 2, 3])
            kind = "retry" if retry else "duplicate"
        else:
            payload = p.mention(QUESTIONS[index % len(QUESTIONS)], channel="C0LOAD", user=f"ULOAD{index:06d}")
            retry, kind = None, "new"
        body, headers = p.signed(SECRET, payload, retry_num=retry)
        started = time.perf_counter()
        try:
            status = client.post(body, headers)
        except Exception:
            status = 0
        finished = time.perf_counter()
        with lock:
            acks.append(finished - started)
            lags.append(finished - scheduled)
            statuses[status] += 1
            repeats[kind] += 1
            if kind == "new":
                events.append(payload)
                sent_at[payload["event"]["ts"]] = started

    print(f"serve on 127.0.0.1:{port} (log {log_path}); sending {total} mentions at {args.rate:g}/s "
          f"for {args.duration:g} s, {args.repeat_share:.0%} repeats …", flush=True)
    begin = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.senders) as pool:
        for index in range(total):
            scheduled = begin + index / args.rate
            delay = scheduled - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(send, index, scheduled)
    sending_s = time.perf_counter() - begin

    expected = {payload["event"]["ts"] for payload in events}
    deadline = time.monotonic() + args.settle
    while time.monotonic() < deadline:
        answered = {c.args.get("thread_ts") for c in fake.calls_to("chat.postMessage")}
        if expected <= answered:
            break
        time.sleep(0.2)
    fake.wait_quiet(1.0, timeout=5)
    posts = fake.calls_to("chat.postMessage")
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
    fake.stop()

    per_thread = Counter(c.args.get("thread_ts") for c in posts)
    lost = len(expected - set(per_thread))
    duplicated = sum(n - 1 for ts, n in per_thread.items() if ts in expected and n > 1)
    stray = sum(n for ts, n in per_thread.items() if ts not in expected)
    answer_latency = [c.at - sent_at[c.args["thread_ts"]] for c in posts if c.args.get("thread_ts") in sent_at]
    # FakeSlack's Call.at is time.monotonic(); sent_at is perf_counter(): both CLOCK_MONOTONIC on Linux.
    ms = [a * 1000 for a in acks]
    print(f"requests sent      {len(acks)} in {sending_s:.1f} s ({len(acks) / sending_s:.1f}/s): "
          f"{repeats['new']} new events, {repeats['retry']} retries, {repeats['duplicate']} duplicates")
    print(f"HTTP statuses      {dict(sorted(statuses.items()))}")
    print(f"ack latency ms     p50 {percentile(ms, 0.5):.1f}  p90 {percentile(ms, 0.9):.1f}  "
          f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  mean {statistics.fmean(ms):.1f}")
    print(f"ack from schedule  p99 {percentile([x * 1000 for x in lags], 0.99):.1f} ms (includes sender lag)")
    print(f"answer latency ms  p50 {percentile([a * 1000 for a in answer_latency], 0.5):.0f}  "
          f"p99 {percentile([a * 1000 for a in answer_latency], 0.99):.0f}")
    print(f"replies posted     {len(posts)}   lost {lost}   duplicated {duplicated}   stray {stray}")
    ok = lost == 0 and duplicated == 0 and stray == 0 and percentile(ms, 0.99) < 100 and set(statuses) == {200}
    print("goal (p99 ack < 100 ms, zero lost, zero duplicated):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
