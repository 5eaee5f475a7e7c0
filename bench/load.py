"""Bounded load and fault scenarios on loopback against a real `serve`: acks over 3 s, lost and duplicated.

Starts the fake Slack Web API (tests/bot/slack/fake_slack.py) in this process and `python -m bot serve` as a
subprocess pointed at it (with a private `redis-server` on a free loopback port for the scenarios that need
one), then sends signed requests at a fixed rate for a fixed time over keep-alive connections. A share of
requests repeat an earlier event (Slack-style retries and plain duplicates), which must not produce a second
answer. Each event comes from its own user and, except in the one-channel burst, its own channel.

    .venv/bin/python bench/load.py                         # every scenario (about 3 minutes)
    .venv/bin/python bench/load.py --only baseline,post-429
    .venv/bin/python bench/load.py --list

Per scenario it prints: events, acks over 3 s (Slack's deadline, after which it retries), lost (an
acknowledged request never answered), duplicated (answered more than once), error lines shown to users, and
the p99 ack. Goal (issue 11): 0 / 0 / 0 in every scenario. Traffic goes only to 127.0.0.1; every scenario is
bounded in count and time.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._load_harness import SECRET, TOKEN, Client, Proxy, Redis, Server, SlowClients, percentile  # noqa: E402
from tests.bot.slack import payloads as p  # noqa: E402
from tests.bot.slack.fake_slack import FakeSlack  # noqa: E402

QUESTIONS = (
    "what GPU for ChatGLM-6B inference",
    "两张3090能跑Baichuan2-13B吗",
    "Qwen-7B LoRA fine-tuning, which GPU?",
    "can a 4090 serve Llama-2-13B in int4?",
    "cheapest GPU for Mistral-7B inference with 8k context",
)
DIGIT_RUNS = ("1" * 3990, "1," * 1995, "9." * 2000, "一二三四五六七八九十百千" * 333)
ERROR_WORDS = ("went wrong", "出了点问题", "出了點問題")
ACK_DEADLINE_S = 3.0
REDELIVER_AFTER_S = 8.0
"""The worker-killed scenario claims a dead worker's events after this (the default, 60 s, would make the
run long); every answer in the scenario takes well under it."""


@dataclass
class Run:
    """What one scenario sent and what came back."""

    acks: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    expected: dict[str, str] = field(default_factory=dict)
    """answer key (thread ts or response_url path) → the event it answers."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def send_all(client: Client, run: Run, requests: list[tuple[dict[str, Any], int | None, str | None]],
             rate: float, senders: int = 16, during: Callable[[float], None] | None = None) -> None:
    """POST `requests` (payload, retry number, answer key of a new event) at `rate` per second; `during(t)`
    is called from the scheduler with the seconds elapsed (to inject faults at given moments)."""

    def one(payload: dict[str, Any], retry: int | None, key: str | None) -> None:
        body, headers = p.signed(SECRET, payload, retry_num=retry)
        started = time.perf_counter()
        try:
            status = client.post(body, headers)
        except Exception:
            status = 0
        with run.lock:
            run.acks.append(time.perf_counter() - started)
            run.statuses[status] += 1
            if key is not None and status == 200:
                run.expected[key] = str(payload.get("event_id") or payload.get("trigger_id"))

    begin = time.perf_counter()
    with ThreadPoolExecutor(max_workers=senders) as pool:
        for index, (payload, retry, key) in enumerate(requests):
            scheduled = begin + index / rate
            while (delay := scheduled - time.perf_counter()) > 0:
                if during is not None:
                    during(time.perf_counter() - begin)
                time.sleep(min(delay, 0.05))
            pool.submit(one, payload, retry, key)
        if during is not None:
            during(time.perf_counter() - begin)


def mentions(count: int, *, repeat_share: float = 0.1, texts: tuple[str, ...] = QUESTIONS, channel: str | None = None,
             seed: int = 7) -> list[tuple[dict[str, Any], int | None, str | None]]:
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], int | None, str | None]] = []
    new: list[dict[str, Any]] = []
    for index in range(count):
        if new and rng.random() < repeat_share:
            out.append((rng.choice(new), rng.choice([None, 1, 2, 3]), None))
            continue
        payload = p.mention(texts[index % len(texts)], channel=channel or f"C{index:06d}", user=f"U{index:06d}")
        new.append(payload)
        out.append((payload, None, payload["event"]["ts"]))
    return out


def commands(fake: FakeSlack, count: int, name: str) -> list[tuple[dict[str, Any], int | None, str | None]]:
    out: list[tuple[dict[str, Any], int | None, str | None]] = []
    for index in range(count):
        url = fake.response_url(f"{name}-{index}")
        payload = p.command(QUESTIONS[index % len(QUESTIONS)], response_url=url, user=f"U{index:06d}",
                            channel=f"C{index:06d}")
        out.append((payload, None, "/" + url.split("/", 3)[3]))
    return out


def outcome(fake: FakeSlack, run: Run, settle_s: float) -> dict[str, Any]:
    """Wait (bounded) for every expected answer, then count."""

    def answers() -> Counter[str]:
        found: Counter[str] = Counter()
        for call in fake.calls_to("chat.postMessage", "response_url"):
            if any(word in call.everything() for word in ERROR_WORDS):
                continue
            key = call.args.get("thread_ts") if call.method == "chat.postMessage" else call.path
            if key in run.expected:
                found[str(key)] += 1
        return found

    deadline = time.monotonic() + settle_s
    while time.monotonic() < deadline and set(run.expected) - set(answers()):
        time.sleep(0.2)
    fake.wait_quiet(1.0, timeout=5)
    found = answers()
    if os.environ.get("BENCH_SHOW_LOST"):
        print("lost:", [run.expected[key] for key in set(run.expected) - set(found)], file=sys.stderr)
    errors = sum(1 for call in fake.answers() if any(word in call.everything() for word in ERROR_WORDS))
    return {"events": len(run.expected), "requests": len(run.acks),
            "acks_over_3s": sum(1 for a in run.acks if a > ACK_DEADLINE_S),
            "lost": len(set(run.expected) - set(found)), "duplicated": sum(n - 1 for n in found.values()),
            "error_lines": errors, "p99_ack_ms": percentile([a * 1000 for a in run.acks], 0.99),
            "not_200": sum(n for status, n in run.statuses.items() if status != 200)}


# --- scenarios ----------------------------------------------------------------------------------------


@dataclass
class Context:
    fake: FakeSlack
    log_dir: Path
    redis: Redis | None = None

    def server(self, name: str, **env: str) -> Server:
        return Server(self.fake, self.log_dir / f"gpu-advisor-load-{name}.log", **env)


Scenario = Callable[[Context], dict[str, Any]]


def _mentions_scenario(ctx: Context, name: str, requests: list[Any], rate: float, settle: float = 30.0,
                       during: Callable[[float], None] | None = None, **env: str) -> dict[str, Any]:
    server = ctx.server(name, **env)
    run = Run()
    try:
        send_all(Client(server.port), run, requests, rate, during=during)
        return outcome(ctx.fake, run, settle)
    finally:
        server.stop()


def baseline(ctx: Context) -> dict[str, Any]:
    return _mentions_scenario(ctx, "baseline", mentions(150), rate=30)


def digit_runs(ctx: Context) -> dict[str, Any]:
    texts = (*QUESTIONS, *DIGIT_RUNS, *QUESTIONS)
    return _mentions_scenario(ctx, "digit-runs", mentions(120, texts=texts), rate=20)


def _storm(method: str, share: float, status: int | None, retry_after: int | None = None,
           stall_s: float = 0.0) -> Scenario:
    def scenario(ctx: Context) -> dict[str, Any]:
        ctx.fake.storm(method, share, status, retry_after=retry_after, stall_s=stall_s)
        try:
            if method == "response_url":
                server = ctx.server(f"{method}-{status}")
                run = Run()
                try:
                    send_all(Client(server.port), run, commands(ctx.fake, 60, f"storm{status}"), rate=15)
                    return outcome(ctx.fake, run, 40.0)
                finally:
                    server.stop()
            return _mentions_scenario(ctx, f"{method}-{status}", mentions(80), rate=20, settle=40.0)
        finally:
            ctx.fake.storm(method, 0)

    return scenario


def _one_channel_burst(workers: int) -> Scenario:
    """20 mentions at once into one channel, where the fake Web API (like Slack) allows one post a second;
    with `workers` > 1 the workers share Redis and must share the channel's pace too."""

    def scenario(ctx: Context) -> dict[str, Any]:
        env: dict[str, str] = {}
        if workers > 1:
            if ctx.redis is None:
                return {"skipped": "redis-server not installed"}
            env = {"REDIS_URL": ctx.redis.url, "WEB_CONCURRENCY": str(workers)}
        ctx.fake.channel_interval_s = 1.0
        try:
            return _mentions_scenario(ctx, f"burst-{workers}w", mentions(20, repeat_share=0, channel="C0BURST"),
                                      rate=40, settle=60.0, **env)
        finally:
            ctx.fake.channel_interval_s = 0.0

    return scenario


SLOW_CLIENTS = 40


def _slow_clients(part: str, behind_proxy: bool) -> Scenario:
    """40 connections trickling their headers (or, after whole headers, their body) one byte every 0.5 s, each
    reconnecting when dropped, while Slack's requests arrive at the same address: nginx with deploy/nginx.conf
    in front of `serve` (the production arrangement), or gunicorn alone for reference."""

    def scenario(ctx: Context) -> dict[str, Any]:
        server = ctx.server(f"slow-{part}{'-proxy' if behind_proxy else ''}")
        proxy: Proxy | None = None
        if behind_proxy:
            try:
                proxy = Proxy(server.port, ctx.log_dir / f"gpu-advisor-load-nginx-{part}")
            except RuntimeError as error:
                server.stop()
                return {"skipped": str(error)}
        port = proxy.port if proxy is not None else server.port
        clients = SlowClients(port, part, SLOW_CLIENTS)
        time.sleep(1.0)
        run = Run()
        try:
            send_all(Client(port, timeout=5.0), run, mentions(80, repeat_share=0), rate=8)
            return outcome(ctx.fake, run, 15.0)
        finally:
            clients.stop()
            if proxy is not None:
                proxy.stop()
            server.stop()

    return scenario


def _redis_fault(kind: str) -> Scenario:
    def scenario(ctx: Context) -> dict[str, Any]:
        redis = ctx.redis
        if redis is None:
            return {"skipped": "redis-server not installed"}
        done: set[str] = set()

        def fault(t: float) -> None:
            if t >= 2.0 and "down" not in done:
                done.add("down")
                redis.kill() if kind == "killed" else redis.freeze(True)
            if t >= 5.0 and "up" not in done:
                done.add("up")
                redis.start() if kind == "killed" else redis.freeze(False)

        return _mentions_scenario(ctx, f"redis-{kind}", mentions(200, repeat_share=0.3), rate=25, during=fault,
                                  REDIS_URL=redis.url, WEB_CONCURRENCY="2")

    return scenario


def worker_killed(ctx: Context) -> dict[str, Any]:
    """SIGKILL one of two workers while it holds acknowledged events whose answers are still being posted
    (posts take 0.5 s here, so answers queue)."""
    if ctx.redis is None:
        return {"skipped": "redis-server not installed"}
    server = ctx.server("worker-killed", REDIS_URL=ctx.redis.url, WEB_CONCURRENCY="2",
                        GPU_ADVISOR_REDELIVER_AFTER_S=str(REDELIVER_AFTER_S))
    ctx.fake.delay_s["chat.postMessage"] = 0.5
    killed: list[int] = []

    def fault(t: float) -> None:
        if t >= 1.5 and not killed:
            workers = server.workers()
            if workers:
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])

    run = Run()
    try:
        send_all(Client(server.port), run, mentions(80, repeat_share=0), rate=40, during=fault)
        result = outcome(ctx.fake, run, 30.0)
    finally:
        ctx.fake.delay_s.pop("chat.postMessage", None)
        server.stop()
    return {**result, "killed_worker": killed[0] if killed else None}


REFERENCE_ONLY = frozenset({"slow-headers-direct"})
"""Printed for comparison, outside the goal: gunicorn exposed with nothing in front, which the README says not to
do (its threaded workers block on slow clients; the shipped nginx in front is what slow-headers/slow-bodies run)."""

SCENARIOS: dict[str, Scenario] = {
    "baseline": baseline,
    "digit-runs": digit_runs,
    "post-429": _storm("chat.postMessage", 0.2, 429, retry_after=1),
    "post-500": _storm("chat.postMessage", 0.2, 500),
    "post-stall": _storm("chat.postMessage", 0.1, None, stall_s=11.0),
    "response_url-429": _storm("response_url", 0.3, 429, retry_after=1),
    "response_url-500": _storm("response_url", 0.3, 500),
    "one-channel-burst": _one_channel_burst(1),
    "one-channel-burst-2w": _one_channel_burst(2),
    "slow-headers": _slow_clients("headers", behind_proxy=True),
    "slow-bodies": _slow_clients("body", behind_proxy=True),
    "slow-headers-direct": _slow_clients("headers", behind_proxy=False),
    "redis-killed": _redis_fault("killed"),
    "redis-frozen": _redis_fault("frozen"),
    "worker-killed": worker_killed,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated scenario names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    args = parser.parse_args()
    if args.list:
        print("\n".join(SCENARIOS))
        return 0
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(unknown)}")
    log_dir = Path(os.environ.get("TMPDIR", "/tmp"))
    fake = FakeSlack(bot_token=TOKEN).start()
    try:
        redis: Redis | None = Redis()
    except RuntimeError:
        redis = None
    ctx = Context(fake, log_dir, redis)
    results: dict[str, dict[str, Any]] = {}
    print(f"{'scenario':<20}{'events':>7}{'acks>3s':>9}{'lost':>6}{'dup':>5}{'errors':>8}{'p99 ack ms':>12}  seconds",
          flush=True)
    try:
        for name in names:
            fake.reset()
            started = time.monotonic()
            result = results[name] = SCENARIOS[name](ctx)
            seconds = time.monotonic() - started
            if "skipped" in result:
                print(f"{name:<20} skipped: {result['skipped']}", flush=True)
                continue
            print(f"{name:<20}{result['events']:>7}{result['acks_over_3s']:>9}{result['lost']:>6}"
                  f"{result['duplicated']:>5}{result['error_lines']:>8}{result['p99_ack_ms']:>12.1f}  {seconds:.0f}",
                  flush=True)
    finally:
        fake.stop()
        if redis is not None:
            redis.freeze(False)
            redis.kill()
    met = [n for n, r in results.items() if "skipped" not in r and n not in REFERENCE_ONLY
           and r["acks_over_3s"] == 0 and r["lost"] == 0 and r["duplicated"] == 0 and r["error_lines"] == 0]
    missed = [n for n, r in results.items() if "skipped" not in r and n not in met and n not in REFERENCE_ONLY]
    reference = [n for n in results if n in REFERENCE_ONLY]
    if reference:
        print(f"not in the goal (reference, unsupported deployment): {', '.join(reference)}")
    print(f"goal 0 acks over 3 s / 0 lost / 0 duplicated / 0 error lines: met in {len(met)}, "
          f"not met in {len(missed)}{': ' + ', '.join(missed) if missed else ''}")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
