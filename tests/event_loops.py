"""Playwright's sync API (the browser tests) marks its event loop as running in the test thread between
its calls, for the rest of the session. An async test that a worker runs after a browser test then
fails in pytest-asyncio ("Runner.run() cannot be called from a running event loop"): under
pytest-xdist a worker may be dealt an async test after a browser one. tests/conftest.py sets that
loop aside around every test that is not a browser test; Playwright is idle meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def loop_set_aside() -> Iterator[None]:
    """No loop marked running in this thread inside the block; whatever was, is again after it."""
    running = asyncio._get_running_loop()
    if running is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(running)
