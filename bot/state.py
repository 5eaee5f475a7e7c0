"""Conversation state: the last `Question` of each thread, de-duplication of deliveries, rate limits and
each user's recent questions (for the Slack Home tab).

Two stores implement `StateStore`:

- `MemoryStore` — in process, thread-safe, every table bounded (TTL + LRU eviction). One replica only.
- `RedisStore` — shared by every replica when `REDIS_URL` is set. Keys are prefixed ``gpu-advisor:``,
  Questions are stored as JSON, TTLs are Redis TTLs, de-duplication is ``SET NX PX`` (atomic across
  replicas) and the rate limit an atomic Lua script.

Rate limit: a *sliding-window log* in both stores — a request is allowed when fewer than `limit` requests
were allowed for that user in the last `window_s` seconds; refused requests are not counted, so a user who
keeps trying is let through again as soon as the oldest allowed request leaves the window. (Redis uses the
Redis server's clock, so replicas with skewed clocks agree.)

Degradation: if Redis goes away (refused, timeout, auth, …) the bot keeps answering, with less state:

- `get_question` → None: a follow-up is answered as a fresh question (loses thread context);
- `put_question`, `push_recent` → dropped; `recent` → [];
- `allow` → True: no rate limit while Redis is down;
- `first_delivery` → True for anything *this process* has not seen: de-duplication falls back to process
  memory, so a retry that reaches the same replica is still caught, but one that reaches another replica
  is answered twice. That is the trade-off chosen: a duplicate answer is better than a lost message.

One warning is logged on ``gpu_advisor.state`` when Redis goes away and one info when it is back (no
traceback per message). While it is down, calls do not touch the network until a back-off has passed
(doubling from `backoff_s` up to `max_backoff_s`); the first call after that tries again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from typing import Generic, Protocol, TypeVar

import pydantic
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.understand.question import Question

log = logging.getLogger("gpu_advisor.state")

THREAD_TTL_S = 24 * 3600.0
"""How long a thread's last Question is kept after it was last stored."""
DEDUP_TTL_S = 3600.0
"""How long a delivery id (event_id, command trigger, action id) is remembered (Slack retries: minutes)."""
RECENT_TTL_S = 30 * 24 * 3600.0
"""How long a user's recent questions are kept after their last question."""
RECENT_N = 5
"""Recent questions kept per user."""
RECENT_MAX_CHARS = 300
"""Recent questions are cut to this many characters (they are shown as one line on the Home tab)."""
MAX_THREADS = 10_000
MAX_DELIVERIES = 100_000
MAX_USERS = 10_000
KEY_PREFIX = "gpu-advisor:"
REDIS_SOCKET_TIMEOUT_S = 0.2


class StateStore(Protocol):
    def get_question(self, thread_key: str) -> Question | None:
        """The last Question stored for the thread, or None (none, expired, or store unavailable)."""
        ...

    def put_question(self, thread_key: str, question: Question) -> None:
        """Remember the thread's last Question for THREAD_TTL_S (refreshed on every put)."""
        ...

    def first_delivery(self, delivery_id: str) -> bool:
        """True the first time `delivery_id` is seen (within DEDUP_TTL_S), False for a retry/duplicate."""
        ...

    def allow(self, user_id: str, limit: int = 20, window_s: float = 60) -> bool:
        """Sliding-window rate limit: True when fewer than `limit` requests were allowed in `window_s`."""
        ...

    def push_recent(self, user_id: str, text: str) -> None:
        """Record a question of the user (most recent first, an identical earlier entry is moved up)."""
        ...

    def recent(self, user_id: str) -> list[str]:
        """The user's last RECENT_N questions, most recent first."""
        ...


def thread_key(channel: str, thread_ts: str | None) -> str:
    """``"channel:thread_ts"``. Without a thread (a DM or a slash command outside a thread) the context is
    the channel itself: ``"channel:-"``."""
    return f"{channel}:{thread_ts or '-'}"


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= RECENT_MAX_CHARS else text[: RECENT_MAX_CHARS - 1] + "…"


# --------------------------------------------------------------------------------------------- memory

V = TypeVar("V")


class _TTLCache(Generic[V]):
    """An LRU-ordered dict with a per-entry expiry and a size bound. Not locked: the owner locks."""

    def __init__(self, max_size: int) -> None:
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self.max_size = max_size
        self._data: OrderedDict[str, tuple[float, V]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: str, now: float) -> V | None:
        item = self._data.get(key)
        if item is None:
            return None
        expires_at, value = item
        if expires_at <= now:
            del self._data[key]
            return None
        self._data.move_to_end(key)
        return value

    def set(self, key: str, value: V, now: float, ttl: float) -> None:
        self._data[key] = (now + ttl, value)
        self._data.move_to_end(key)
        while len(self._data) > self.max_size:
            self._data.popitem(last=False)


class MemoryStore:
    """In-process state for a single replica. Thread-safe; each table is bounded by TTL and LRU size."""

    def __init__(
        self,
        *,
        thread_ttl_s: float = THREAD_TTL_S,
        dedup_ttl_s: float = DEDUP_TTL_S,
        recent_ttl_s: float = RECENT_TTL_S,
        recent_n: int = RECENT_N,
        max_threads: int = MAX_THREADS,
        max_deliveries: int = MAX_DELIVERIES,
        max_users: int = MAX_USERS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.thread_ttl_s = thread_ttl_s
        self.dedup_ttl_s = dedup_ttl_s
        self.recent_ttl_s = recent_ttl_s
        self.recent_n = recent_n
        self._clock = clock
        self._lock = threading.Lock()
        # Questions are kept as JSON, like Redis does, so a caller mutating a Question it got back (or
        # stored) cannot change what the store holds.
        self._threads: _TTLCache[str] = _TTLCache(max_threads)
        self._deliveries: _TTLCache[bool] = _TTLCache(max_deliveries)
        self._recent: _TTLCache[list[str]] = _TTLCache(max_users)
        self._rates: OrderedDict[str, deque[float]] = OrderedDict()
        self._max_users = max_users

    def get_question(self, thread_key: str) -> Question | None:
        with self._lock:
            raw = self._threads.get(thread_key, self._clock())
        return None if raw is None else Question.model_validate_json(raw)

    def put_question(self, thread_key: str, question: Question) -> None:
        raw = question.model_dump_json()
        with self._lock:
            self._threads.set(thread_key, raw, self._clock(), self.thread_ttl_s)

    def first_delivery(self, delivery_id: str) -> bool:
        with self._lock:
            now = self._clock()
            if self._deliveries.get(delivery_id, now) is not None:
                return False
            self._deliveries.set(delivery_id, True, now, self.dedup_ttl_s)
            return True

    def allow(self, user_id: str, limit: int = 20, window_s: float = 60) -> bool:
        if limit <= 0:
            return False
        with self._lock:
            now = self._clock()
            log_ = self._rates.get(user_id)
            if log_ is None:
                log_ = self._rates[user_id] = deque()
            self._rates.move_to_end(user_id)
            while log_ and log_[0] <= now - window_s:
                log_.popleft()
            allowed = len(log_) < limit
            if allowed:
                log_.append(now)
            while len(log_) > limit:  # the limit was lowered since the last call
                log_.popleft()
            while len(self._rates) > self._max_users:
                self._rates.popitem(last=False)
            return allowed

    def push_recent(self, user_id: str, text: str) -> None:
        text = _clip(text)
        if not text:
            return
        with self._lock:
            now = self._clock()
            items = [t for t in (self._recent.get(user_id, now) or []) if t != text]
            self._recent.set(user_id, [text, *items][: self.recent_n], now, self.recent_ttl_s)

    def recent(self, user_id: str) -> list[str]:
        with self._lock:
            return list(self._recent.get(user_id, self._clock()) or [])


# ---------------------------------------------------------------------------------------------- redis

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
        backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
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
        self._lock = threading.Lock()
        self._down = False
        self._retry_at = 0.0
        self._backoff = backoff_s
        # De-duplication while Redis is down: this process's memory (catches retries to this replica).
        self._local = MemoryStore(dedup_ttl_s=dedup_ttl_s, max_threads=1, max_users=1)

    # -- availability

    @property
    def available(self) -> bool:
        """False while Redis is considered down (after a failed call, until a call succeeds again)."""
        return not self._down

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
        log.info("Redis at %s is reachable again; shared state restored", self._where())

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}{kind}:{name}"

    # -- StateStore

    def get_question(self, thread_key: str) -> Question | None:
        raw = self._call(lambda: self._r.get(self._key("thread", thread_key)), None)
        if raw is None:
            return None
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
        key = self._key("delivery", delivery_id)
        result = self._call(lambda: bool(self._r.set(key, "1", nx=True, px=_ms(self.dedup_ttl_s))), None)
        if result is None:  # Redis down: answer rather than lose the message; dedupe within this process
            return self._local.first_delivery(delivery_id)
        return result

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

    def close(self) -> None:
        self._r.close()


def store_from_env(environ: Mapping[str, str] = os.environ) -> StateStore:
    """A RedisStore when REDIS_URL is set (shared across replicas), else a MemoryStore.

    Does not connect: an unreachable Redis is logged on first use, not at start-up. A malformed URL raises
    ValueError here."""
    url = (environ.get("REDIS_URL") or "").strip()
    if url:
        store = RedisStore(url)
        log.info("conversation state in Redis at %s", store._where())
        return store
    log.info("conversation state in process memory (set REDIS_URL to share it across replicas)")
    return MemoryStore()
