"""Conversation state: the last `Question` of each thread, de-duplication of deliveries, rate limits and
each user's recent questions (for the Slack Home tab).

Two stores implement `StateStore`:

- `MemoryStore` — in process, thread-safe, every table bounded (TTL + LRU eviction). One replica only.
- `RedisStore` (bot/state_redis.py, imported only when `REDIS_URL` is set, so `ask` and the console never
  load redis) — shared by every replica when `REDIS_URL` is set. Keys are prefixed ``gpu-advisor:``,
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
- `first_delivery` → True for anything *this process* has not seen. Every process remembers the deliveries
  it claimed, also while Redis is up, so a retry of an event seen before the outage (or before Redis
  restarted empty) is still caught when it reaches the same replica. For one that reaches another replica,
  the Slack front end looks for the event id its own reply carries in the thread (bot/slack/dedupe.py).
  It does so for every delivery, not only Slack's retries, while `reliable` is False: while Redis is down,
  for `DEDUP_DOUBT_S` after it is back, and after Redis is found to have lost its data (an epoch key that
  every replica sets at start disappears), because a copy of an event claimed meanwhile only in another
  replica's memory, or in the lost data, looks new to Redis.

One warning is logged on ``gpu_advisor.state`` when Redis goes away and one info when it is back (no
traceback per message). While it is down, calls do not touch the network until a back-off has passed
(doubling from `backoff_s` up to `max_backoff_s`, 1 s: shared state is back within a second of Redis); the
first call after that tries again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Generic, Protocol, TypeVar

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
REDIS_BACKOFF_S = 0.25
REDIS_MAX_BACKOFF_S = 1.0
"""A cap of 30 s kept workers on local state 20-38 s after Redis was back (issue 11)."""
DEDUP_DOUBT_S = 330.0
"""After Redis was unreachable or lost its data, how long its memory of deliveries is not trusted alone (the
Slack front end then also looks for its own answer in the conversation): deliveries claimed only in one
process's memory meanwhile are unknown to Redis, and Slack's last retry comes about 5 minutes after the
event."""


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


CARRIED_FIELDS = frozenset({
    "intent", "lang", "model", "params_b", "task", "precision", "quant", "engine", "context", "batch", "gen_tokens",
    "zero_stage", "gradient_checkpointing", "lora_rank", "optimizer", "gpu", "gpu_count", "compare_gpus", "memory_gb",
    "compare_models", "cloud", "budget", "stated",
})
"""What a button carries of its question (the slots that decide the answer), so it works without the store."""

_CARRIED: ContextVar[dict[str, Question]] = ContextVar("gpu_advisor_carried")


def carry(question: Question) -> dict[str, object]:
    """The essential slots of `question`, compact, for a button's value."""
    return question.model_dump(include=set(CARRIED_FIELDS), exclude_none=True, exclude_defaults=True)


@contextmanager
def carried(thread_key: str, slots: object) -> Iterator[None]:
    """While inside, a store that has no question for `thread_key` (expired, Redis restarted or down) answers
    with the one a button carried in its value. Invalid slots are ignored (the value is signed by Slack's
    request signature, but may come from an older version of the bot)."""
    question: Question | None = None
    if isinstance(slots, dict) and slots:
        try:
            question = Question.model_validate({k: v for k, v in slots.items() if k in CARRIED_FIELDS})
        except ValueError:
            question = None
    if question is None:
        yield
        return
    token = _CARRIED.set({**_CARRIED.get({}), thread_key: question})
    try:
        yield
    finally:
        _CARRIED.reset(token)


def carried_question(thread_key: str) -> Question | None:
    """The question a button carried for `thread_key` in the current request, if any."""
    found = _CARRIED.get({}).get(thread_key)
    return None if found is None else found.model_copy(deep=True)


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

    @property
    def reliable(self) -> bool:
        """One process's memory is the whole store: what it claimed it knows (a restart forgets it, and
        then only Slack's retries are checked against the conversation)."""
        return True

    def get_question(self, thread_key: str) -> Question | None:
        with self._lock:
            raw = self._threads.get(thread_key, self._clock())
        return carried_question(thread_key) if raw is None else Question.model_validate_json(raw)

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


def store_from_env(environ: Mapping[str, str] = os.environ) -> StateStore:
    """A RedisStore when REDIS_URL is set (shared across replicas), else a MemoryStore.

    Does not connect: an unreachable Redis is logged on first use, not at start-up. A malformed URL raises
    ValueError here."""
    url = (environ.get("REDIS_URL") or "").strip()
    if url:
        from bot.state_redis import RedisStore

        store = RedisStore(url)
        log.info("conversation state in Redis at %s", store._where())
        return store
    log.info("conversation state in process memory (set REDIS_URL to share it across replicas)")
    return MemoryStore()


def __getattr__(name: str) -> Any:
    """`bot.state.RedisStore` still works, importing redis only when asked for."""
    if name == "RedisStore":
        from bot.state_redis import RedisStore

        return RedisStore
    raise AttributeError(name)
