"""Is this process ready to serve? What the load balancer's probe asks (`/health/ready`).

Only PostgreSQL decides: it holds every game, so without it nothing can be served. Redis, the channel
layer's shards and Celery are reported, never refused for: without Redis play goes on by POSTs
(docs/operations.md, "When something goes away"), a lost shard silences only some games' pushes, and
without a worker games between people go on and the timers catch up.

The probe answers within BUDGET, whatever hangs: a server can accept the connection and the login and
then never answer (a pooler in front of a stuck PostgreSQL), where a connect timeout does nothing. So
every check runs at once in a thread of its own, and a check still waiting when the budget is spent
counts as down. None is left to wait for ever: the database's connection is hung up on (its socket
shut down, which wakes the wait in the driver), and each Redis call has its own timeout.

Celery is judged by a heartbeat, not by a round trip to the workers: each deadline sweep (beat queues
one every 2 s, a worker runs it) writes the time into Redis, and the check reads it back. One GET, where
`app.control.ping` would broadcast to every worker and wait out its whole timeout for their replies on
every probe; and a fresh heartbeat says both that a worker runs tasks and that beat schedules them,
which is what the timers need.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import cast

import redis
from django.conf import settings
from django.db import connections

from .redis_clients import redis_client

log = logging.getLogger(__name__)

BUDGET = 1.0  # seconds: the whole probe answers within about this, whatever hangs
# Each Redis connect and reply: it bounds how long a check the probe stopped waiting for lives on.
TIMEOUT = 1.0
# libpq's least (it takes whole seconds, and 2 for anything less); the probe waits only BUDGET.
CONNECT_TIMEOUT = 2
SWEEP_KEY = "ludopat:health:sweep"  # the time of the last deadline sweep
# Five sweeps missed (beat's period is 2 s): a busy worker may be late by one or two.
SWEEP_STALE_AFTER = 10.0


class _Line:
    """The probe's database connection, for the probe to hang up on once its budget is spent.

    It holds a duplicate of the connection's socket: shutting that down wakes the driver's wait
    (libpq and psycopg wait on the socket with poll), which then fails as a lost connection. Closing
    a duplicate never touches another socket that reuses the driver's file number after it closed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._cut = False

    def hold(self, fileno: int) -> None:
        with self._lock:
            if self._cut:
                raise TimeoutError("the probe stopped waiting while the connection was made")
            self._socket = socket.socket(fileno=os.dup(fileno))

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            if self._socket is not None:
                with contextlib.suppress(OSError):
                    self._socket.shutdown(socket.SHUT_RDWR)

    def release(self) -> None:
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None


def database(line: _Line | None = None) -> str:
    """'ok' if the default database answers a query on a new connection, else 'down'.

    A connection of its own rather than the pool's: the pool would wait its full timeout (30 s) for a
    connection while PostgreSQL is away, and a pooled connection answers for the pool, not for
    whether PostgreSQL can be reached now. `line`, if given, lets the caller hang up on it."""
    main = connections["default"]
    params = {**main.settings_dict, "OPTIONS": {**main.settings_dict.get("OPTIONS", {})}}
    params["OPTIONS"].pop("pool", None)
    if main.vendor == "postgresql":
        params["OPTIONS"]["connect_timeout"] = CONNECT_TIMEOUT
    probe = type(main)(params, alias="health")
    raw = None
    try:
        # The driver's own connection, without Django's set-up queries (time zone, role): the
        # socket must be in `line` before anything is asked that could wait for ever.
        raw = probe.get_new_connection(probe.get_connection_params())
        if line is not None and hasattr(raw, "fileno"):  # SQLite's is a file: it can't go silent
            line.hold(raw.fileno())
        cursor = raw.cursor()
        cursor.execute("SELECT 1")
        cursor.fetchone()
        return "ok"
    except Exception as error:  # any failure to connect or answer is "down"; which is logged
        log.warning("health: the database is unreachable (%s)", error)
        return "down"
    finally:
        if raw is not None:
            with contextlib.suppress(Exception):  # a connection hung up on may fail to close
                raw.close()
        if line is not None:
            line.release()


def _client(url: str | None = None) -> redis.Redis:
    return redis_client(url, timeout=TIMEOUT)


def redis_and_celery(url: str | None = None) -> tuple[str, str]:
    """Redis ('ok' or 'down') and Celery ('ok', 'no sweep' when no deadline sweep ran for
    SWEEP_STALE_AFTER seconds: no worker, or no beat; 'unknown' while Redis is down). One GET: its
    answer says Redis answers too."""
    try:
        # cast: redis-py types every reply as "maybe awaitable"; this client is the synchronous one.
        last = cast("bytes | None", _client(url).get(SWEEP_KEY))
    except redis.RedisError as error:
        log.warning("health: Redis is unreachable (%s)", error)
        return "down", "unknown"
    if last is None or time.time() - float(last) > SWEEP_STALE_AFTER:
        return "ok", "no sweep"
    return "ok", "ok"


def answers(url: str) -> str:
    """'ok' if the Redis at `url` answers a PING, else 'down'."""
    try:
        _client(url).ping()
        return "ok"
    except redis.RedisError as error:
        log.warning("health: a channel layer shard is unreachable (%s)", error)
        return "down"


def shards(states: list[str]) -> str:
    """The channel layer's shards in one word: 'ok', or which are down by their place in
    CHANNEL_LAYER_REDIS_URLS (never their URLs, which may hold a password)."""
    down = [str(i) for i, state in enumerate(states, 1) if state != "ok"]
    if not down:
        return "ok"
    if len(states) == 1:
        return "down"
    which = "shard" if len(down) == 1 else "shards"
    return f"down: {which} {', '.join(down)} of {len(states)}"


def _within(budget: float, checks: dict[str, Callable[[], object]]) -> dict[str, object]:
    """Every check run at once, each in a thread of its own: the results of those that ended within
    `budget` seconds. A late one is left to end by itself (its own timeouts end it), unreported."""
    results: dict[str, object] = {}
    lock = threading.Lock()

    def run(name: str, check: Callable[[], object]) -> None:
        result = check()
        with lock:
            results[name] = result

    threads = [
        threading.Thread(target=run, args=item, name=f"health {item[0]}", daemon=True)
        for item in checks.items()
    ]
    deadline = time.monotonic() + budget
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with lock:
        return dict(results)


def swept() -> None:
    """A deadline sweep ran (games.tasks.sweep_deadlines): the heartbeat `redis_and_celery` reads."""
    try:
        _client().set(SWEEP_KEY, repr(time.time()), ex=int(SWEEP_STALE_AFTER * 6))
    except redis.RedisError as error:  # the sweep's own work is done; only the heartbeat is lost
        log.warning("health: could not record the sweep's heartbeat (%s)", error)


def readiness() -> tuple[int, dict[str, object]]:
    """The probe's HTTP status and JSON, within about BUDGET seconds: 503 only with the database down;
    'degraded' with Redis, a channel layer shard or Celery not ok."""
    main = settings.REDIS_URL
    layer = list(settings.CHANNEL_LAYER_REDIS_URLS)
    # Each server once: a shard that is REDIS_URL (the default layer is) has the Redis check's answer.
    own: dict[str, str] = {}
    for place, url in enumerate(layer, 1):
        if url != main:
            own.setdefault(url, f"shard {place}")
    line = _Line()
    checks: dict[str, Callable[[], object]] = {
        "database": lambda: database(line),
        "redis": lambda: redis_and_celery(main),
    }
    checks.update({name: partial(answers, url) for url, name in own.items()})
    results = _within(BUDGET, checks)
    if "database" not in results:
        line.cut()
    for name in checks.keys() - results.keys():
        log.warning("health: %s did not answer within %s s", name, BUDGET)
    redis_state, celery = cast(tuple[str, str], results.get("redis", ("down", "unknown")))
    states = {
        main: redis_state,
        **{url: str(results.get(name, "down")) for url, name in own.items()},
    }
    report = {
        "database": str(results.get("database", "down")),
        "redis": redis_state,
        "celery": celery,
        "channel_layer": shards([states[url] for url in layer]),
    }
    if report["database"] != "ok":
        return 503, {"status": "down", "checks": report}
    degraded = any(value != "ok" for value in report.values())
    return 200, {"status": "degraded" if degraded else "ok", "checks": report}
