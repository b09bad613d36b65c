"""Who is online: one Redis sorted set of live WebSocket connections, shared by every daphne process.

A member is "<who>\\n<channel name>" scored by the time it last showed life; a connection that stops
sending heartbeats (its process died) drops out after STALE_SECONDS, so a crash never leaves ghosts.
People, not tabs, are counted: two tabs of one account are one player online.

Accounts are also kept by themselves (USERS_KEY: "user:<id>" scored by its last sign of life), so the
Friends page asks about the few accounts it lists (`online_among`, one ZMSCORE) without reading every
connection on the site. An account leaves it when its last connection closes, or goes stale with it.
"""

from __future__ import annotations

import time
from typing import cast

import redis

from ludopat.redis_clients import async_redis_client, redis_client

KEY = "ludopat:online"
USERS_KEY = "ludopat:online:users"
STALE_SECONDS = 90
GROUP = "online"


def _member(who: str, channel: str) -> str:
    return f"{who}\n{channel}"


def _distinct(members: list[bytes]) -> int:
    return len({m.decode().split("\n", 1)[0] for m in members})


def online_count() -> int:
    """Players online now (0 if Redis is unreachable: the home page must render anyway)."""
    try:
        # cast: redis-py types every reply as "maybe awaitable"; this client is the synchronous one.
        members = redis_client().zrangebyscore(KEY, time.time() - STALE_SECONDS, "+inf")
        return _distinct(cast("list[bytes]", members))
    except redis.RedisError:
        return 0


def online_among(user_ids: list[int]) -> set[int]:
    """Which of these accounts have a live connection now (none if Redis is unreachable: a page that
    lists people must render anyway)."""
    if not user_ids:
        return set()
    try:
        scores = cast(
            "list[float | None]", redis_client().zmscore(USERS_KEY, [f"user:{i}" for i in user_ids])
        )
    except redis.RedisError:
        return set()
    fresh = time.time() - STALE_SECONDS
    return {
        i for i, score in zip(user_ids, scores, strict=True) if score is not None and score >= fresh
    }


class Presence:
    """Async side, used by the consumer; one client per consumer instance keeps it loop-safe."""

    def __init__(self) -> None:
        self.client = async_redis_client()

    async def seen(self, who: str, channel: str) -> int:
        now = time.time()
        pipe = self.client.pipeline()
        pipe.zadd(KEY, {_member(who, channel): now})
        pipe.zremrangebyscore(KEY, "-inf", now - STALE_SECONDS)
        if who.startswith("user:"):
            pipe.zadd(USERS_KEY, {who: now})
            pipe.zremrangebyscore(USERS_KEY, "-inf", now - STALE_SECONDS)
        pipe.zrange(KEY, 0, -1)
        *_, members = await pipe.execute()
        return _distinct(members)

    async def touch(self, who: str, channel: str) -> None:
        """A heartbeat: this connection (and its account) is still alive. One round trip, no read of the set (counting is
        done when someone arrives or leaves, not on every frame)."""
        now = time.time()
        pipe = self.client.pipeline()
        pipe.zadd(KEY, {_member(who, channel): now})
        if who.startswith("user:"):
            pipe.zadd(USERS_KEY, {who: now})
        await pipe.execute()

    async def gone(self, who: str, channel: str) -> int:
        pipe = self.client.pipeline()
        pipe.zrem(KEY, _member(who, channel))
        pipe.zrangebyscore(KEY, time.time() - STALE_SECONDS, "+inf")
        _, members = await pipe.execute()
        if who.startswith("user:") and not any(m.decode().startswith(f"{who}\n") for m in members):
            await self.client.zrem(USERS_KEY, who)  # their last connection: offline now
        return _distinct(members)

    async def close(self) -> None:
        await self.client.aclose()
