"""Is this process ready to serve? What the load balancer's probe asks (`/health/ready`).

Only PostgreSQL decides: it holds every game, so without it nothing can be served. Redis and Celery are
reported, never refused for: without Redis play goes on by POSTs (docs/operations.md, "When something
goes away"), and without a worker games between people go on and the timers catch up. Every check is
bounded by a short timeout, so a server that doesn't answer costs the probe about a second, not a hang.

Celery is judged by a heartbeat, not by a round trip to the workers: each deadline sweep (beat queues
one every 2 s, a worker runs it) writes the time into Redis, and the check reads it back. One GET, where
`app.control.ping` would broadcast to every worker and wait out its whole timeout for their replies on
every probe; and a fresh heartbeat says both that a worker runs tasks and that beat schedules them,
which is what the timers need.
"""

from __future__ import annotations

import logging
import time
from functools import cache

import redis
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

TIMEOUT = 1.0  # seconds, for each of PostgreSQL's connect and Redis' connect and reply
SWEEP_KEY = "ludopat:health:sweep"  # the time of the last deadline sweep
# Five sweeps missed (beat's period is 2 s): a busy worker may be late by one or two.
SWEEP_STALE_AFTER = 10.0


def database() -> str:
    """'ok' if the default database answers a query on a new connection, else 'down'.

    A connection of its own rather than the pool's: the pool would wait its full timeout (30 s) for a
    connection while PostgreSQL is away, and a pooled connection answers for the pool, not for
    whether PostgreSQL can be reached now."""
    main = connections["default"]
    params = {**main.settings_dict, "OPTIONS": {**main.settings_dict.get("OPTIONS", {})}}
    params["OPTIONS"].pop("pool", None)
    if main.vendor == "postgresql":
        params["OPTIONS"]["connect_timeout"] = max(1, round(TIMEOUT))  # whole seconds for libpq
    probe = type(main)(params, alias="health")
    try:
        with probe.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return "ok"
    except Exception as error:  # any failure to connect or answer is "down"; which is logged
        log.warning("health: the database is unreachable (%s)", error)
        return "down"
    finally:
        probe.close()


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)


def client() -> redis.Redis:
    return _client(settings.REDIS_URL)


def redis_and_celery() -> tuple[str, str]:
    """Redis ('ok' or 'down') and Celery ('ok', 'no sweep' when no deadline sweep ran for
    SWEEP_STALE_AFTER seconds: no worker, or no beat; 'unknown' while Redis is down)."""
    try:
        connection = client()
        connection.ping()
        last = connection.get(SWEEP_KEY)
    except redis.RedisError as error:
        log.warning("health: Redis is unreachable (%s)", error)
        return "down", "unknown"
    if last is None or time.time() - float(last) > SWEEP_STALE_AFTER:
        return "ok", "no sweep"
    return "ok", "ok"


def swept() -> None:
    """A deadline sweep ran (games.tasks.sweep_deadlines): the heartbeat `redis_and_celery` reads."""
    try:
        client().set(SWEEP_KEY, repr(time.time()), ex=int(SWEEP_STALE_AFTER * 6))
    except redis.RedisError as error:  # the sweep's own work is done; only the heartbeat is lost
        log.warning("health: could not record the sweep's heartbeat (%s)", error)


def readiness() -> tuple[int, dict[str, object]]:
    """The probe's HTTP status and JSON: 503 only with the database down; 'degraded' with Redis or
    Celery not ok."""
    checks = {"database": database()}
    checks["redis"], checks["celery"] = redis_and_celery()
    if checks["database"] != "ok":
        return 503, {"status": "down", "checks": checks}
    degraded = any(value != "ok" for value in checks.values())
    return 200, {"status": "degraded" if degraded else "ok", "checks": checks}
