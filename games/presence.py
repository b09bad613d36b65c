"""Which seats of a game have a live WebSocket now: one Redis sorted set per game, any process.

A member is "<seat id>\\n<channel name>" scored by the time it last showed life (connect or heartbeat);
a connection whose process died drops out after STALE_SECONDS, so a crash never leaves a ghost player.
"""

from __future__ import annotations

import time
from functools import cache

import redis
from django.conf import settings

STALE_SECONDS = 75


def _key(game_id: str) -> str:
    return f"ludopat:game:{game_id}:seats"


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def client() -> redis.Redis:
    return _client(settings.REDIS_URL)


def touch(game_id: str, seat_ids, channel: str) -> None:
    if not seat_ids:
        return
    now = time.time()
    pipe = client().pipeline()
    pipe.zadd(_key(game_id), {f"{sid}\n{channel}": now for sid in seat_ids})
    pipe.zremrangebyscore(_key(game_id), "-inf", now - STALE_SECONDS)
    pipe.expire(_key(game_id), 24 * 3600)
    pipe.execute()


def drop(game_id: str, seat_ids, channel: str) -> set[int]:
    """Forget a connection; the seats it was the last connection of (now absent)."""
    if not seat_ids:
        return set()
    client().zrem(_key(game_id), *[f"{sid}\n{channel}" for sid in seat_ids])
    here = connected_seats(game_id)
    return {sid for sid in seat_ids if sid not in here}


def connected_seats(game_id: str) -> set[int]:
    try:
        members = client().zrangebyscore(_key(game_id), time.time() - STALE_SECONDS, "+inf")
    except redis.RedisError:
        return set()
    return {int(m.decode().split("\n", 1)[0]) for m in members}
