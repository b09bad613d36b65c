"""Where blocking work runs under ASGI: a request's middleware and view in one thread, and the sockets'
database and Redis work side by side (not queued in one shared thread behind each other's round trips).
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import SyncToAsync

from ludopat.worker_threads import db_call


async def test_two_sockets_blocking_work_runs_side_by_side():
    # Each call waits for the other: queued in one thread, the first would wait out the timeout.
    both_here = threading.Barrier(2, timeout=5)

    def work() -> int:
        both_here.wait()
        return threading.get_ident()

    first, second = await asyncio.gather(db_call(work)(), db_call(work)())
    assert first != second


@pytest.mark.django_db(transaction=True)
async def test_a_request_hops_into_a_thread_once_for_its_middleware_and_once_for_its_view(
    async_client, monkeypatch
):
    """The whole middleware chain is sync, entered with one hop: no middleware's request or response
    hook makes hops of its own between threads (each costs CPU and latency on every action). Django's
    own hops around the chain (signals, view middleware, the view, closing) stay."""
    hops = []
    real_call = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real_call(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    response = await async_client.get("/")
    assert response.status_code == 200
    assert hops.count("convert_exception_to_response.<locals>.inner") == 1, hops
    hooks = [h for h in hops if h.endswith((".process_request", ".process_response", ".__acall__"))]
    assert hooks == [], hops


def _connections_lent(pool) -> int:
    stats = pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


@pytest.mark.django_db(transaction=True)
async def test_a_sockets_database_work_hands_its_connection_back_to_the_pool():
    """Each socket event's database work returns its PostgreSQL connection to the process's pool when
    it ends. Channels' closing around a call (outside the call's context) did not reach the connection
    a consumer's call had opened, so each worker thread of an event loop kept one: a daphne process
    tied up as many of its pool's connections as its loop has threads, and the test suite, with a new
    loop per test, ran the pool dry (every later test waited for a connection and failed)."""
    from django.db import connection

    from tests.games.test_consumers import connect

    pool = getattr(connection, "pool", None)
    if pool is None:
        pytest.skip("the connection pool is PostgreSQL's (DATABASE_URL); CI runs this")
    lent_before = _connections_lent(pool)
    for _ in range(3):
        await connect("not-a-game-id", expect=False)
    assert _connections_lent(pool) == lent_before
