"""Where a WebSocket consumer's blocking work runs: the event loop's thread pool, several at a time.

Django runs each HTTP request's sync code in a thread of its own (a ThreadSensitiveContext per request).
Channels' consumers have no such context, so with asgiref's default (`thread_sensitive=True`) every
socket's database reads, board renders and Redis calls in a process queued in one shared thread, each
waiting out the others' PostgreSQL and Redis round trips: under load that one thread, not the CPU, set
how fast a move reached the boards. Nothing a consumer does depends on the thread it runs in: each call
is self-contained, and Django gives each thread its own database connection (from the pool).
"""

from __future__ import annotations

from channels.db import database_sync_to_async


def db_call(func):
    """`func` as an awaitable run in a pool thread, with Channels' closing of old database connections
    around it (so a thread's connection goes back to the pool, even where a Redis call that failed fell
    back to the database)."""
    return database_sync_to_async(func, thread_sensitive=False)
