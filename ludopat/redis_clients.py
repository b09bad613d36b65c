"""The process's clients of Redis, for what the site keeps there itself (who is present in a game,
who is online, the sweeper's marks, the readiness probe's checks); the channel layer, the cache and
Celery's broker make their own from the same settings.

A synchronous client is made once per process for each URL and timeout and shared by its threads
(redis-py's connection pool is thread-safe), with short timeouts: an unreachable Redis must cost a
page a moment, not a hung worker. An asyncio client belongs to the event loop that uses it, so each
consumer makes its own.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

import redis
import redis.asyncio as aioredis
from django.conf import settings

CONNECT_TIMEOUT = 1.0  # seconds
TIMEOUT = 2.0  # seconds, for each reply


def redis_client(url: str | None = None, *, timeout: float = TIMEOUT) -> redis.Redis:
    """The process's client of the Redis at `url` (the site's own, REDIS_URL, by default)."""
    return _client(url or settings.REDIS_URL, min(CONNECT_TIMEOUT, timeout), timeout)


def async_redis_client(url: str | None = None) -> aioredis.Redis:
    """A new asyncio client of the Redis at `url` (REDIS_URL by default), for one consumer."""
    return aioredis.Redis.from_url(
        url or settings.REDIS_URL, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=TIMEOUT
    )


@cache
def _client(url: str, connect_timeout: float, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=connect_timeout, socket_timeout=timeout)


class Rider(Protocol):
    """Commands that ride in another's round trip to the site's Redis (a pipeline the other sends
    anyway, e.g. the rate limit's counters): a read made once for a whole request costs no round trip
    of its own."""

    def queue(self, pipe: redis.client.Pipeline) -> None:
        """Add the commands to `pipe` (after the other's own)."""

    def take(self, replies: list[Any] | None) -> None:
        """Their replies, in order; None if Redis could not be reached."""
