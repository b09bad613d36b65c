"""What a visitor wrote in the last WINDOW seconds that the read replica may not have replayed yet.

A visitor reads the primary for WINDOW seconds after they wrote, or less: until the replica has
replayed the primary's WAL past that write. Each write is remembered as the primary's WAL position
(`pg_current_wal_lsn()`) just after its commit, and `read_replica` compares it with the replica's
`pg_last_wal_replay_lsn()`. Two kinds of write count:

- any request of this browser with an unsafe method (POST, ...) that succeeded (status below 400: a
  refusal writes nothing, docs/architecture.md): a signed cookie, valid WINDOW seconds, holds the
  position (no session write on every move);
- a round that finished for an account, however it finished (a POST, a WebSocket frame, a timer's
  Celery task, another player's resignation): the leaderboard's writer calls `note_round_for`, which
  keeps the position under the account in the cache for WINDOW seconds, so each of that player's
  browsers sees their own finished round at once.

After WINDOW seconds the replica is read again even if it still lags (see docs/operations.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import MiddlewareNotUsed
from django.db import DatabaseError, connections, transaction
from django.http import HttpRequest, HttpResponse
from redis.exceptions import RedisError

REPLICA = "replica"
WINDOW = 10  # seconds
COOKIE = "ludopat_wrote"
SALT = "ludopat.recent_writes"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# A write whose position could not be read: no replica reaches it, so the window is read on the primary.
UNKNOWN = "FFFFFFFF/FFFFFFFF"

log = logging.getLogger(__name__)


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def primary_position() -> str:
    """The primary's WAL position now: past every transaction committed before this call."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            return str(cursor.fetchone()[0])
    except DatabaseError:
        log.warning("primary's WAL position unreadable", exc_info=True)
        return UNKNOWN


class RememberWrites:
    """A successful unsafe request leaves its write's position in a signed cookie (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not replica_configured():
            raise MiddlewareNotUsed  # no replica: Django leaves this middleware out
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method not in SAFE_METHODS and response.status_code < 400:
            response.set_signed_cookie(
                COOKIE,
                primary_position(),  # after the view's transactions committed
                salt=SALT,
                max_age=WINDOW,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def note_round_for(*, user_ids: Iterable[int]) -> None:
    """These accounts' round finished in the current transaction: they read the primary until the
    replica has it (at most WINDOW seconds)."""
    ids = sorted(set(user_ids))
    if ids and replica_configured():
        transaction.on_commit(lambda: _remember(ids))


def _remember(user_ids: list[int]) -> None:
    position = primary_position()
    try:
        cache.set_many({_key(user_id): position for user_id in user_ids}, timeout=WINDOW)
    except RedisError:  # the player may see the replica's older page for a few seconds
        log.warning("finished round not remembered: cache unreachable", exc_info=True)


def unseen_write(request: HttpRequest, *, user_id: int | None) -> str | None:
    """The newest position of this visitor's writes of the last WINDOW seconds (the browser's and,
    signed in, the account's), or None: nothing that the replica may lack."""
    # None when there is none, or it expired, or it is not ours.
    found = [request.get_signed_cookie(COOKIE, default=None, salt=SALT, max_age=WINDOW)]
    if user_id is not None:
        try:
            found.append(cache.get(_key(user_id)))
        except RedisError:  # can't tell: take the safe side
            found.append(UNKNOWN)
    positions = [p for p in found if isinstance(p, str)]
    return max(positions, key=_order, default=None)


def _order(position: str) -> int:
    """A WAL position's place in the log: "16/B374D848" is 0x16 << 32 | 0xB374D848."""
    high, low = position.split("/")
    return int(high, 16) << 32 | int(low, 16)


def _key(user_id: int) -> str:
    return f"recent_writes:user:{user_id}"
