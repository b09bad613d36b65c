"""The read replica (DATABASE_REPLICA_URL): which reads go there, and when they don't.

The design: a page that may read the replica says so with `@reads_from_replica` on its view (the
leaderboard, a player's page, a public replay). While such a view runs, `ReplicaRouter` sends every
read to the `replica` connection; writes, and every read anywhere else (game pages, POSTs, sockets,
Celery tasks, the admin), stay on `default`. A flag in a context variable rather than `.using()` in
the selectors: those pages read through several layers (standings, results, rounds, the games' records,
the templates' lazy relations), and one `.using()` forgotten anywhere would read the primary or, worse,
join a replica's row to a primary's; the router covers every query of the view and nothing else.

Before the view runs, on the primary: the session and the account are loaded (so a log-in never looks
missing because the replica lags), and `recent_writes` says whether this visitor wrote something the
replica may not have yet. They read the primary until it has: see `recent_writes`.

A replica that can't be reached (refused, timed out, dropped mid-page) is left alone for
`DOWN_FOR` seconds by this process and the page is read again from the primary, so a dead replica
costs one page per process and period up to the pool's 2 s timeout (settings.py), never an error page. A page that finds nothing on the replica
(404: a replay or a player too new for it) is asked again of the primary.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import wraps
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.db.models import Model
from django.http import HttpRequest, HttpResponse

from . import recent_writes
from .recent_writes import REPLICA, replica_configured

DOWN_FOR = 30.0  # seconds a process reads the primary after the replica failed it
# Sessions are read and written by the middleware, on the primary, around the view; one read from a
# replica that lags would look like a log-out.
PRIMARY_ONLY_APPS = frozenset({"sessions"})

log = logging.getLogger(__name__)
_reading = ContextVar("reads_from_replica", default=False)
_down_until = 0.0  # time.monotonic() until which this process skips the replica


class ReplicaRouter:
    """Reads inside a `@reads_from_replica` view go to the replica; all else Django's default."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        if _reading.get() and model._meta.app_label not in PRIMARY_ONLY_APPS:
            return REPLICA
        return None

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        return "default"  # an instance read from the replica is saved on the primary

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # the same rows on both: a replica's user is the primary's user

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return db == "default"  # the replica replays the primary's migrations


@contextlib.contextmanager
def reading_replica() -> Iterator[None]:
    token = _reading.set(True)
    try:
        yield
    finally:
        _reading.reset(token)


@contextlib.contextmanager
def reading_primary() -> Iterator[None]:
    """Reads on the primary inside a replica-reading view: for what is worked out once and kept for
    every later page (a replica that lags would have it kept stale)."""
    token = _reading.set(False)
    try:
        yield
    finally:
        _reading.reset(token)


def reads_from_replica(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """Serve this read-only GET view from the replica when it is up and has this visitor's writes."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if (
            not replica_configured()
            or request.method not in ("GET", "HEAD")
            or not _use_replica(request)
        ):
            return view(request, *args, **kwargs)
        try:
            with reading_replica():
                response = view(request, *args, **kwargs)
        except (OperationalError, InterfaceError):
            # The connection's failures (refused, timed out, dropped, a query cancelled by the
            # replay), not a query's mistakes. Were it the primary's, the page fails there too.
            _give_up_replica()
            return view(request, *args, **kwargs)
        if response.status_code == 404:
            return view(request, *args, **kwargs)  # maybe too new for the replica
        return response

    return wrapped


def _use_replica(request: HttpRequest) -> bool:
    if time.monotonic() < _down_until:
        return False
    user = getattr(request, "user", None)
    # Loads the session and the account now, on the primary (the router leaves sessions there, and
    # the account is then cached on the request for the view).
    user_id = user.pk if user is not None and user.is_authenticated else None
    needed = recent_writes.unseen_write(request, user_id=user_id)
    if needed is None:
        return True
    try:
        return replayed_past(needed)
    except DatabaseError:
        _give_up_replica()
        return False


def replayed_past(lsn: str) -> bool:
    """Whether the replica has replayed the primary's WAL up to `lsn` (so it holds that write)."""
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT coalesce(pg_last_wal_replay_lsn() >= %s::pg_lsn, false)", [lsn])
        return bool(cursor.fetchone()[0])


def _give_up_replica() -> None:
    global _down_until
    _down_until = time.monotonic() + DOWN_FOR
    log.warning("read replica unreachable: reading the primary for %.0f s", DOWN_FOR)
    with contextlib.suppress(DatabaseError):
        connections[REPLICA].close()
