"""Where a WebSocket consumer's blocking work runs: the event loop's thread pool, several at a time.

Django runs each HTTP request's sync code in a thread of its own (a ThreadSensitiveContext per request).
Channels' consumers have no such context, so with asgiref's default (`thread_sensitive=True`) every
socket's database reads, board renders and Redis calls in a process queued in one shared thread, each
waiting out the others' PostgreSQL and Redis round trips: under load that one thread, not the CPU, set
how fast a move reached the boards. Nothing a consumer does depends on the thread it runs in: each call
is self-contained, and Django gives each thread its own database connection (from the pool).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")


def db_call(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`func` as an awaitable run in a pool thread, its database connection handed back to the pool
    when it returns. The closing runs inside the call, where the connection was opened: Channels'
    `database_sync_to_async` closes around the call, outside it, and there it missed a consumer's
    connection, which then stayed with the thread (tests/ludopat/test_threads.py)."""

    @functools.wraps(func)
    def closing(*args: P.args, **kwargs: P.kwargs) -> R:
        close_old_connections()
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(closing, thread_sensitive=False)
