"""bot/state.py: the same behaviour from MemoryStore and RedisStore (against a real redis-server), plus
Redis-only checks: shared across replicas, key layout, and the bot going on when Redis goes away."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from bot.state import MemoryStore, RedisStore, StateStore, store_from_env, thread_key
from bot.understand.question import Question

StoreFactory = Callable[..., StateStore]
LOGGER = "gpu_advisor.state"


@pytest.fixture(params=["memory", "redis"])
def make_store(request: pytest.FixtureRequest) -> Iterator[StoreFactory]:
    made: list[RedisStore] = []

    def factory(**kwargs: Any) -> StateStore:
        if request.param == "memory":
            kwargs.pop("backoff_s", None)
            return MemoryStore(**kwargs)
        server = request.getfixturevalue("redis_server")
        store = RedisStore(server.url, **kwargs)
        made.append(store)
        return store

    yield factory
    for store in made:
        store.close()


def q(**kwargs: Any) -> Question:
    return Question(text="what GPU for llama 8b", model="llama-3.1-8b", task="lora", **kwargs)


def wait_until(predicate: Callable[[], bool], timeout_s: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def state_records(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and r.levelno == level]


# ------------------------------------------------------------------------------------------ thread_key


def test_thread_key() -> None:
    assert thread_key("C123", "1700000000.000100") == "C123:1700000000.000100"
    assert thread_key("D42", None) == "D42:-"
    assert thread_key("D42", "") == "D42:-"


# ------------------------------------------------------------------------------------ both stores


def test_question_round_trip(make_store: StoreFactory) -> None:
    store = make_store()
    assert store.get_question("C1:1") is None
    question = q(context=8192, gpu="rtx-4090", stated=["model", "task"])
    store.put_question("C1:1", question)
    assert store.get_question("C1:1") == question
    assert store.get_question("C1:2") is None
    store.put_question("C1:1", q(precision="int4"))
    got = store.get_question("C1:1")
    assert got is not None and got.precision == "int4" and got.context is None


def test_stored_question_is_a_copy(make_store: StoreFactory) -> None:
    store = make_store()
    question = q()
    store.put_question("t", question)
    question.task = "train"
    got = store.get_question("t")
    assert got is not None and got.task == "lora"
    got.task = "inference"
    again = store.get_question("t")
    assert again is not None and again.task == "lora"


def test_question_expires(make_store: StoreFactory) -> None:
    store = make_store(thread_ttl_s=0.15)
    store.put_question("t", q())
    assert store.get_question("t") is not None
    assert wait_until(lambda: store.get_question("t") is None)


def test_put_refreshes_ttl(make_store: StoreFactory) -> None:
    store = make_store(thread_ttl_s=0.3)
    store.put_question("t", q())
    time.sleep(0.2)
    store.put_question("t", q(precision="int4"))
    time.sleep(0.2)  # 0.4 s after the first put, 0.2 s after the second
    got = store.get_question("t")
    assert got is not None and got.precision == "int4"


def test_first_delivery(make_store: StoreFactory) -> None:
    store = make_store()
    assert store.first_delivery("Ev1") is True
    assert store.first_delivery("Ev1") is False
    assert store.first_delivery("Ev1") is False
    assert store.first_delivery("Ev2") is True


def test_first_delivery_expires(make_store: StoreFactory) -> None:
    store = make_store(dedup_ttl_s=0.15)
    assert store.first_delivery("Ev1") is True
    assert store.first_delivery("Ev1") is False
    assert wait_until(lambda: store.first_delivery("Ev1"))


def test_first_delivery_is_atomic_across_threads(make_store: StoreFactory) -> None:
    store = make_store()
    results: list[bool] = []
    barrier = threading.Barrier(16)

    def worker() -> None:
        barrier.wait()
        results.append(store.first_delivery("Ev-race"))

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 15 + [True]


def test_rate_limit(make_store: StoreFactory) -> None:
    store = make_store()
    assert [store.allow("U1", limit=3, window_s=60) for _ in range(5)] == [True, True, True, False, False]
    assert store.allow("U2", limit=3, window_s=60) is True
    assert store.allow("U1", limit=0) is False


def test_rate_limit_window_slides_and_refusals_do_not_count(make_store: StoreFactory) -> None:
    store = make_store()
    assert store.allow("U1", limit=2, window_s=0.3)
    time.sleep(0.15)
    assert store.allow("U1", limit=2, window_s=0.3)
    assert not store.allow("U1", limit=2, window_s=0.3)
    # The first request leaves the window ~0.3 s after it was made; the second is still in it.
    assert wait_until(lambda: store.allow("U1", limit=2, window_s=0.3), timeout_s=1.0)
    assert not store.allow("U1", limit=2, window_s=0.3)


def test_recent(make_store: StoreFactory) -> None:
    store = make_store()
    assert store.recent("U1") == []
    for i in range(7):
        store.push_recent("U1", f"question {i}")
    assert store.recent("U1") == [f"question {i}" for i in (6, 5, 4, 3, 2)]
    store.push_recent("U1", "question 4")  # asked again: moves to the top, no duplicate
    assert store.recent("U1") == ["question 4", "question 6", "question 5", "question 3", "question 2"]
    store.push_recent("U1", "   ")
    assert len(store.recent("U1")) == 5
    assert store.recent("U2") == []


def test_recent_is_one_clipped_line(make_store: StoreFactory) -> None:
    store = make_store()
    store.push_recent("U1", "70B 训练\n需要 多少 显存？  " + "x" * 1000)
    (line,) = store.recent("U1")
    assert "\n" not in line and line.startswith("70B 训练 需要 多少 显存？ x")
    assert len(line) == 300 and line.endswith("…")


def test_recent_expires(make_store: StoreFactory) -> None:
    store = make_store(recent_ttl_s=0.15)
    store.push_recent("U1", "hello")
    assert store.recent("U1") == ["hello"]
    assert wait_until(lambda: store.recent("U1") == [])


def test_concurrent_use(make_store: StoreFactory) -> None:
    store = make_store()
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(50):
                key = f"C:{n}:{i % 5}"
                store.put_question(key, q(batch=i + 1))
                assert store.get_question(key) is not None
                store.push_recent(f"U{n}", f"q{i}")
                store.allow(f"U{n}")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.recent("U3") == ["q49", "q48", "q47", "q46", "q45"]


# --------------------------------------------------------------------------------- memory bounds


def test_memory_thread_bound_is_lru() -> None:
    store = MemoryStore(max_threads=3)
    for i in range(3):
        store.put_question(f"t{i}", q(batch=i + 1))
    assert store.get_question("t0") is not None  # t0 used: t1 is now the least recently used
    store.put_question("t3", q())
    assert store.get_question("t1") is None
    assert all(store.get_question(k) is not None for k in ("t0", "t2", "t3"))
    assert len(store._threads) == 3


def test_memory_other_tables_are_bounded() -> None:
    store = MemoryStore(max_deliveries=10, max_users=4)
    for i in range(100):
        assert store.first_delivery(f"Ev{i}")
        store.allow(f"U{i}")
        store.push_recent(f"U{i}", "hi")
    assert len(store._deliveries) == 10 and len(store._rates) == 4 and len(store._recent) == 4
    assert store.first_delivery("Ev99") is False
    assert store.recent("U99") == ["hi"] and store.recent("U0") == []


def test_memory_fake_clock() -> None:
    now = [1000.0]
    store = MemoryStore(thread_ttl_s=10, dedup_ttl_s=5, clock=lambda: now[0])
    store.put_question("t", q())
    assert store.first_delivery("Ev")
    now[0] += 5
    assert store.first_delivery("Ev")  # exactly at expiry: gone
    assert store.get_question("t") is not None
    now[0] += 5
    assert store.get_question("t") is None


# ------------------------------------------------------------------------------------- redis only


@pytest.fixture
def rclient(redis_server: Any) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    yield client
    client.close()


def test_redis_two_replicas_share_state(redis_server: Any) -> None:
    a, b = RedisStore(redis_server.url), RedisStore(redis_server.url)
    assert a.first_delivery("Ev1") is True
    assert b.first_delivery("Ev1") is False
    assert b.first_delivery("Ev2") is True
    assert a.first_delivery("Ev2") is False
    a.put_question("C:1", q())
    assert b.get_question("C:1") == q()
    a.push_recent("U1", "one")
    b.push_recent("U1", "two")
    assert a.recent("U1") == ["two", "one"]
    assert [a.allow("U1", limit=3), b.allow("U1", limit=3), a.allow("U1", limit=3)] == [True] * 3
    assert b.allow("U1", limit=3) is False


def test_redis_two_replicas_race_for_one_delivery(redis_server: Any) -> None:
    stores = [RedisStore(redis_server.url) for _ in range(4)]
    results: list[bool] = []
    barrier = threading.Barrier(len(stores) * 4)

    def worker(store: RedisStore) -> None:
        barrier.wait()
        results.append(store.first_delivery("Ev-shared"))

    threads = [threading.Thread(target=worker, args=(s,)) for s in stores for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1 and len(results) == 16


def test_redis_key_layout(redis_server: Any, rclient: redis.Redis) -> None:
    store = RedisStore(redis_server.url, thread_ttl_s=100, dedup_ttl_s=50)
    question = q(context=4096)
    store.put_question("C1:17.5", question)
    store.first_delivery("Ev9")
    store.allow("U1")
    store.push_recent("U1", "hello")
    assert sorted(rclient.keys("*")) == [
        "gpu-advisor:delivery:Ev9",
        "gpu-advisor:epoch:marker",
        "gpu-advisor:rate:U1",
        "gpu-advisor:recent:U1",
        "gpu-advisor:thread:C1:17.5",
    ]
    assert json.loads(rclient.get("gpu-advisor:thread:C1:17.5")) == question.model_dump(mode="json")
    assert 99_000 < rclient.pttl("gpu-advisor:thread:C1:17.5") <= 100_000
    assert 49_000 < rclient.pttl("gpu-advisor:delivery:Ev9") <= 50_000
    assert 0 < rclient.pttl("gpu-advisor:rate:U1") <= 60_000
    assert rclient.pttl("gpu-advisor:recent:U1") > 0
    assert rclient.pttl("gpu-advisor:epoch:marker") == -1  # no expiry: its absence means Redis lost its data


def test_redis_unreadable_question_is_no_context(redis_server: Any, rclient: redis.Redis) -> None:
    store = RedisStore(redis_server.url)
    rclient.set("gpu-advisor:thread:t", '{"text": "x", "a_field_from_a_newer_version": 1}')
    assert store.get_question("t") is None
    rclient.set("gpu-advisor:thread:t", "not json")
    assert store.get_question("t") is None


def test_redis_killed_mid_run(redis_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    now = [0.0]
    store = RedisStore(redis_server.url, backoff_s=1.0, max_backoff_s=4.0, clock=lambda: now[0])
    store.put_question("t", q())
    assert store.first_delivery("Ev0") and store.allow("U1", limit=1)
    assert not store.allow("U1", limit=1)
    assert store.available and state_records(caplog, logging.WARNING) == []

    redis_server.stop()
    started = time.monotonic()
    for i in range(20):  # the bot goes on answering, degraded
        assert store.get_question("t") is None
        assert store.first_delivery(f"Ev{i + 1}") is True
        assert store.allow("U1", limit=1) is True
        store.put_question("t", q())
        store.push_recent("U1", "hi")
        assert store.recent("U1") == []
        now[0] += 0.1  # 2 s of (fake) time: a few retries after back-off
    assert time.monotonic() - started < 2.0
    assert not store.available
    # While down, de-duplication still holds within this process.
    assert store.first_delivery("Ev1") is False

    warnings = state_records(caplog, logging.WARNING)
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert f"127.0.0.1:{redis_server.port}" in message and "unavailable" in message
    assert all(r.exc_info is None for r in caplog.records)
    assert state_records(caplog, logging.INFO) == []

    redis_server.start()  # back, empty (no persistence)
    assert store.get_question("t") is None  # still inside the back-off: not retried yet
    assert store.available is False
    now[0] += 5.0
    store.put_question("t", q(precision="int4"))
    got = store.get_question("t")
    assert got is not None and got.precision == "int4"
    assert store.available
    assert store.first_delivery("Ev-new") is True and store.first_delivery("Ev-new") is False
    infos = state_records(caplog, logging.INFO)
    assert len(infos) == 1 and "reachable again" in infos[0].getMessage()
    warnings = state_records(caplog, logging.WARNING)
    assert len(warnings) == 2 and "lost its data" in warnings[1].getMessage()  # noticed once, at the first claim


def test_redis_back_off_skips_the_network(redis_server: Any) -> None:
    now = [0.0]
    store = RedisStore(redis_server.url, backoff_s=1.0, max_backoff_s=4.0, clock=lambda: now[0])
    redis_server.stop()
    calls: list[tuple[Any, ...]] = []
    real = store._r.execute_command

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    store._r.execute_command = counting  # type: ignore[method-assign]
    for _ in range(50):
        store.get_question("t")
    assert len(calls) == 1  # one failed attempt, then the back-off
    now[0] += 1.01
    store.get_question("t")
    assert len(calls) == 2  # retried once; the back-off doubles to 2 s
    now[0] += 1.5
    store.get_question("t")
    assert len(calls) == 2
    now[0] += 0.6
    store.get_question("t")
    assert len(calls) == 3


def test_redis_down_from_the_start(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    with socket.socket() as s:  # a port with nothing listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = store_from_env({"REDIS_URL": f"redis://:secret@127.0.0.1:{port}/0"})
    assert isinstance(store, RedisStore)
    for i in range(5):
        assert store.get_question("t") is None
        assert store.first_delivery(f"Ev{i}") is True
        assert store.allow("U1") is True
    warnings = state_records(caplog, logging.WARNING)
    assert len(warnings) == 1
    assert "secret" not in caplog.text


def test_redis_that_hangs_times_out_fast(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    with socket.socket() as listener:  # accepts connections, never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port = listener.getsockname()[1]
        store = RedisStore(f"redis://127.0.0.1:{port}/0", socket_timeout_s=0.2)
        started = time.monotonic()
        assert store.first_delivery("Ev1") is True
        assert store.get_question("t") is None
        assert store.allow("U1") is True
        assert time.monotonic() - started < 1.0
    assert len(state_records(caplog, logging.WARNING)) == 1
    assert "Timeout" in state_records(caplog, logging.WARNING)[0].getMessage()


# ------------------------------------------------------------------------------------ store_from_env


def test_store_from_env() -> None:
    assert isinstance(store_from_env({}), MemoryStore)
    assert isinstance(store_from_env({"REDIS_URL": "  "}), MemoryStore)
    store = store_from_env({"REDIS_URL": "redis://127.0.0.1:1/0"})  # does not connect yet
    assert isinstance(store, RedisStore)
    with pytest.raises(ValueError):
        store_from_env({"REDIS_URL": "http://example.com"})


# ------------------------------------------------------------------------------- outages (issue 11)


def test_redis_back_off_is_capped_near_a_second() -> None:
    from bot.state_redis import RedisStore as Store

    store = Store("redis://127.0.0.1:1/0")
    assert store.backoff_s <= 0.5 and store.max_backoff_s <= 2.0


def test_retry_seen_before_redis_restarted_empty_is_not_answered_again(redis_server: Any) -> None:
    store = RedisStore(redis_server.url)
    assert store.first_delivery("event:Ev-before") is True
    redis_server.stop()
    redis_server.start()  # back, empty (no persistence): Redis no longer knows Ev-before
    assert wait_until(lambda: store.first_delivery("event:probe") is True and store.available, 3.0)
    assert store.first_delivery("event:Ev-before") is False


def test_retry_seen_before_an_outage_is_caught_while_redis_is_down(redis_server: Any) -> None:
    store = RedisStore(redis_server.url)
    assert store.first_delivery("event:Ev-up") is True
    redis_server.stop()
    assert store.first_delivery("event:Ev-up") is False


def test_shared_state_is_back_within_two_seconds_of_redis(redis_server: Any) -> None:
    store = RedisStore(redis_server.url)
    redis_server.stop()
    for _ in range(30):  # a long outage: the back-off has grown as far as it goes
        store.get_question("t")
        time.sleep(0.05)
    redis_server.start()
    started = time.monotonic()
    assert wait_until(lambda: (store.put_question("t", q()), store.get_question("t"))[1] is not None, 5.0)
    assert time.monotonic() - started < 2.0


def test_journal_entries_are_claimed_once_after_their_timeout(redis_server: Any) -> None:
    a, b = RedisStore(redis_server.url), RedisStore(redis_server.url)
    a.journal_add("Ev-j1", '{"x": 1}', {"x-slack-signature": "v0=1"})
    a.journal_add("Ev-j2", '{"x": 2}', {})
    a.journal_done("Ev-j2")
    assert b.journal_claim_stale(60.0) == []  # not stale yet
    claims = [b.journal_claim_stale(0.0), a.journal_claim_stale(0.0)]
    assert claims[0] == [("Ev-j1", '{"x": 1}', {"x-slack-signature": "v0=1"})] and claims[1] == []


def test_memory_is_doubted_after_redis_restarted_empty(redis_server: Any) -> None:
    now = [1000.0]
    store = RedisStore(redis_server.url, doubt_s=300, clock=lambda: now[0])
    assert store.first_delivery("event:Ev-a") is True and store.reliable
    redis_server.stop()
    redis_server.start()  # back, empty, and this replica made no call while it was away
    assert store.first_delivery("event:Ev-b") is True
    assert not store.reliable  # the epoch key was gone: "never seen" from Redis proves nothing for a while
    now[0] += 299
    assert not store.reliable
    now[0] += 2
    assert store.reliable


def test_memory_is_doubted_after_an_outage(redis_server: Any) -> None:
    now = [1000.0]
    store = RedisStore(redis_server.url, backoff_s=1.0, doubt_s=300, clock=lambda: now[0])
    redis_server.stop()
    assert store.first_delivery("event:Ev-down") is True
    assert not store.available and not store.reliable
    redis_server.start()
    now[0] += 2
    assert store.first_delivery("event:Ev-up") is True and store.available
    assert not store.reliable  # copies claimed during the outage only in some replica's memory
    now[0] += 301
    assert store.reliable


def test_a_fresh_redis_is_trusted_from_the_start(redis_server: Any) -> None:
    store = RedisStore(redis_server.url)
    assert store.first_delivery("event:Ev-first") is True
    assert store.reliable
    assert RedisStore(redis_server.url).first_delivery("event:Ev-first") is False
