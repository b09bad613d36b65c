"""tests/event_loops.py: an async test can run after a browser test left its loop marked running."""

from __future__ import annotations

import asyncio

import pytest

from tests.event_loops import loop_set_aside


async def _answer() -> int:
    await asyncio.sleep(0)
    return 42


@pytest.fixture
def loop_left_running():
    """The thread's state after a browser test: Playwright's loop marked running, not running."""
    loop = asyncio.new_event_loop()
    asyncio._set_running_loop(loop)
    yield loop
    asyncio._set_running_loop(None)
    loop.close()


def test_an_async_run_fails_beside_a_loop_left_running(loop_left_running):
    coroutine = _answer()
    with pytest.raises(RuntimeError, match="running event loop"):
        asyncio.run(coroutine)
    coroutine.close()


def test_an_async_run_works_with_the_loop_set_aside_and_the_loop_comes_back(loop_left_running):
    with loop_set_aside():
        assert asyncio.run(_answer()) == 42
    assert asyncio._get_running_loop() is loop_left_running
