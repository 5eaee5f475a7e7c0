"""`RedisStore`: the conversation state shared by every replica through Redis (see bot/state.py for what each
call does and how it degrades). Its own module so that redis is imported only when REDIS_URL is set."""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import TypeVar

import pydantic
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.state import (
    DEDUP_DOUBT_S,
    DEDUP_TTL_S,
    KEY_PREFIX,
    RECENT_N,
    RECENT_TTL_S,
    REDIS_BACKOFF_S,
    REDIS_MAX_BACKOFF_S,
    REDIS_SOCKET_TIMEOUT_S,
    THREAD_TTL_S,
    MemoryStore,
    _clip,
    carried_question,
)
from bot.understand.question import Question

log = logging.getLogger("gpu_advisor.state")


_RATE_LIMIT_LUA = """
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window_ms)
if redis.call('ZCARD', key) < limit then
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, window_ms)
  return 1
end
return 0
"""

_CLAIM_LUA = """
local lost = 0
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], ARGV[2])
  lost = 2
end
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', tonumber(ARGV[1])) then
  if #KEYS > 2 then
    redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
    redis.call('ZADD', KEYS[4], tonumber(ARGV[5]), ARGV[3])
  end
  return 1 + lost
end
return lost
"""
"""Claim a delivery id (SET NX), optionally journaling the event in the same step; and notice when the epoch
key, set by every replica at start, is gone — Redis lost its data, so its "never seen" is not to be trusted.
Returns claimed (1) + lost (2)."""

T = TypeVar("T")

_UNAVAILABLE: tuple[type[BaseException], ...] = (redis.RedisError, OSError)


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class RedisStore:
    """State shared by every replica through Redis. Never raises because Redis is unavailable (see the
    module docstring for what each call does then)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        client: redis.Redis | None = None,
        prefix: str = KEY_PREFIX,
        thread_ttl_s: float = THREAD_TTL_S,
        dedup_ttl_s: float = DEDUP_TTL_S,
        recent_ttl_s: float = RECENT_TTL_S,
        recent_n: int = RECENT_N,
        socket_timeout_s: float = REDIS_SOCKET_TIMEOUT_S,
        backoff_s: float = REDIS_BACKOFF_S,
        max_backoff_s: float = REDIS_MAX_BACKOFF_S,
        doubt_s: float = DEDUP_DOUBT_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if client is None:
            if not url:
                raise ValueError("RedisStore needs a url or a client")
            client = redis.Redis.from_url(
                url,
                socket_timeout=socket_timeout_s,
                socket_connect_timeout=socket_timeout_s,
                retry=Retry(NoBackoff(), 0),
                decode_responses=True,
                health_check_interval=5,
            )
        self._r = client
        self.prefix = prefix
        self.thread_ttl_s = thread_ttl_s
        self.dedup_ttl_s = dedup_ttl_s
        self.recent_ttl_s = recent_ttl_s
        self.recent_n = recent_n
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self._clock = clock
        self._rate_script = self._r.register_script(_RATE_LIMIT_LUA)
        self._claim_script = self._r.register_script(_CLAIM_LUA)
        self.doubt_s = doubt_s
        self._doubt_until = 0.0
        self._lock = threading.Lock()
        self._down = False
        self._retry_at = 0.0
        self._backoff = backoff_s
        # De-duplication while Redis is down: this process's memory (catches retries to this replica).
        self._local = MemoryStore(dedup_ttl_s=dedup_ttl_s, max_threads=1, max_users=1)
        self._call(lambda: self._r.set(self._key("epoch", "marker"), uuid.uuid4().hex, nx=True), None)

    # -- availability

    @property
    def available(self) -> bool:
        """False while Redis is considered down (after a failed call, until a call succeeds again)."""
        return not self._down

    @property
    def reliable(self) -> bool:
        """False while Redis is down, for `doubt_s` after it came back, and for `doubt_s` after it was found
        to have lost its data: Redis's "never seen" may then be wrong (bot/state.py, Degradation)."""
        return not self._down and self._clock() >= self._doubt_until

    def _doubt(self) -> None:
        with self._lock:
            self._doubt_until = self._clock() + self.doubt_s

    def _where(self) -> str:
        kw = self._r.connection_pool.connection_kwargs
        if "path" in kw:
            return f"unix:{kw['path']}"
        return f"{kw.get('host', '?')}:{kw.get('port', '?')}/{kw.get('db', 0)}"  # never the password

    def _call(self, fn: Callable[[], T], fallback: T) -> T:
        with self._lock:
            if self._down and self._clock() < self._retry_at:
                return fallback
        try:
            result = fn()
        except _UNAVAILABLE as exc:
            self._went_down(exc)
            return fallback
        if self._down:
            self._came_back()
        return result

    def _went_down(self, exc: BaseException) -> None:
        with self._lock:
            if self._down:
                self._backoff = min(self._backoff * 2, self.max_backoff_s)
            else:
                self._down = True
                self._backoff = self.backoff_s
                log.warning(
                    "Redis at %s is unavailable (%s: %s); answering without shared state "
                    "(no thread context, no rate limit, de-duplication per process) until it is back",
                    self._where(),
                    type(exc).__name__,
                    exc,
                )
            self._retry_at = self._clock() + self._backoff

    def _came_back(self) -> None:
        with self._lock:
            if not self._down:
                return
            self._down = False
            self._backoff = self.backoff_s
            self._doubt_until = self._clock() + self.doubt_s
        log.info("Redis at %s is reachable again; shared state restored", self._where())

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}{kind}:{name}"

    # -- StateStore

    def get_question(self, thread_key: str) -> Question | None:
        raw = self._call(lambda: self._r.get(self._key("thread", thread_key)), None)
        if raw is None:
            return carried_question(thread_key)
        try:
            return Question.model_validate_json(raw)
        except pydantic.ValidationError:
            # Stored by another version of the bot (rolling deploy): answer without context.
            log.info("ignoring an unreadable stored question for %s", thread_key)
            return None

    def put_question(self, thread_key: str, question: Question) -> None:
        raw = question.model_dump_json()
        key = self._key("thread", thread_key)
        self._call(lambda: self._r.set(key, raw, px=_ms(self.thread_ttl_s)), None)

    def first_delivery(self, delivery_id: str) -> bool:
        return self._claim(delivery_id, [], [])

    def _claim(self, delivery_id: str, journal_keys: list[str], journal_args: list[str | int | float]) -> bool:
        keys = [self._key("delivery", delivery_id), self._key("epoch", "marker"), *journal_keys]
        args: list[str | int | float] = [_ms(self.dedup_ttl_s), uuid.uuid4().hex, *journal_args]
        result = self._call(lambda: int(self._claim_script(keys=keys, args=args)), None)
        if result is not None and result >= 2:
            log.warning("Redis lost its data (restarted empty?); de-duplication also checks the conversation "
                        "for %.0f s", self.doubt_s)
            self._doubt()
        # This process remembers what it claimed whatever Redis says, so an event seen before an outage (or
        # before Redis restarted empty) is not answered again by this replica.
        # Only claims are recorded here (a copy Redis refused is not), so two threads racing on one id never
        # both lose.
        if result is not None and result % 2 == 0:
            return False
        return self._local.first_delivery(delivery_id)  # Redis down (None): answer rather than lose it

    def allow(self, user_id: str, limit: int = 20, window_s: float = 60) -> bool:
        if limit <= 0:
            return False
        key = self._key("rate", user_id)
        args: list[str | int] = [limit, _ms(window_s), uuid.uuid4().hex]
        return self._call(lambda: bool(self._rate_script(keys=[key], args=args)), True)

    def push_recent(self, user_id: str, text: str) -> None:
        text = _clip(text)
        if not text:
            return
        key = self._key("recent", user_id)

        def push() -> None:
            pipe = self._r.pipeline(transaction=True)
            pipe.lrem(key, 0, text)
            pipe.lpush(key, text)
            pipe.ltrim(key, 0, self.recent_n - 1)
            pipe.pexpire(key, _ms(self.recent_ttl_s))
            pipe.execute()

        self._call(push, None)

    def recent(self, user_id: str) -> list[str]:
        key = self._key("recent", user_id)
        items: list[bytes | str] = self._call(lambda: list(self._r.lrange(key, 0, self.recent_n - 1)), [])
        return [i.decode() if isinstance(i, bytes) else i for i in items]

    # -- the journal of acknowledged events (at-least-once answering across worker deaths)

    def journal_add(self, event_id: str, raw_body: str, headers: dict[str, str]) -> None:
        """Record an acknowledged event until `journal_done`: if the worker answering it dies, another one
        claims it after a timeout (`journal_claim_stale`) and answers it."""
        entry = json.dumps({"body": raw_body, "headers": headers})
        when = time.time()

        def add() -> None:
            pipe = self._r.pipeline(transaction=True)
            pipe.hset(self._key("journal", "data"), event_id, entry)
            pipe.zadd(self._key("journal", "due"), {event_id: when})
            pipe.execute()

        self._call(add, None)

    def first_delivery_journaled(self, delivery_id: str, event_id: str, raw_body: str,
                                 headers: dict[str, str]) -> bool:
        """`first_delivery` and `journal_add` in one atomic step: a worker killed between the two would leave
        the id claimed but no journal entry, and the event would be lost."""
        entry = json.dumps({"body": raw_body, "headers": headers})
        return self._claim(delivery_id, [self._key("journal", "data"), self._key("journal", "due")],
                           [event_id, entry, time.time()])

    def journal_done(self, event_id: str) -> None:
        def done() -> None:
            pipe = self._r.pipeline(transaction=True)
            pipe.zrem(self._key("journal", "due"), event_id)
            pipe.hdel(self._key("journal", "data"), event_id)
            pipe.execute()

        self._call(done, None)

    def journal_claim_stale(self, older_than_s: float, limit: int = 20) -> list[tuple[str, str, dict[str, str]]]:
        """Events acknowledged more than `older_than_s` ago and still not answered, each claimed by exactly
        one caller (ZREM decides): (event id, raw body, headers)."""
        due = self._key("journal", "due")

        def claim() -> list[tuple[str, str, dict[str, str]]]:
            claimed: list[tuple[str, str, dict[str, str]]] = []
            stale = self._r.zrangebyscore(due, "-inf", time.time() - older_than_s, start=0, num=limit)
            for event_id in (str(item) for item in stale):
                if not self._r.zrem(due, event_id):
                    continue  # another worker claimed it
                raw = self._r.hget(self._key("journal", "data"), event_id)
                self._r.hdel(self._key("journal", "data"), event_id)
                try:
                    entry = json.loads(raw or "")
                    claimed.append((event_id, str(entry["body"]), dict(entry["headers"])))
                except (ValueError, KeyError, TypeError):
                    continue
            return claimed

        return self._call(claim, [])

    def close(self) -> None:
        self._r.close()
