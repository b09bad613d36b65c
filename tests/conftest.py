from __future__ import annotations

import os
import warnings

import pytest
import redis
from django.conf import settings

from tests import fast_flush, fast_hashing
from tests.event_loops import loop_set_aside

# Transactional tests end by emptying the tables with DELETE instead of Django's flush (seconds each
# on PostgreSQL): tests/fast_flush.py.
fast_flush.install()


def pytest_configure(config: pytest.Config) -> None:
    """Passwords hashed at test speed (tests/fast_hashing.py); the stacks tests start do the same."""
    settings.PASSWORD_HASHERS = fast_hashing.PASSWORD_HASHERS


@pytest.fixture(autouse=True)
def database_pool_not_run_dry(request):
    """After each test on PostgreSQL: if connections of this process's pool are still lent beyond the
    test thread's own (a thread or an async context that never handed its connection back), the pool is
    replaced, so the next test's threads get connections at once instead of waiting for the pool's
    timeout; a warning names the test. (A test that ran a pool dry used to fail the tests that came
    after it in the same process, in whatever order xdist handed them out.)"""
    yield
    from django.db import connections

    wrapper = connections["default"]
    pool = getattr(type(wrapper), "_connection_pools", {}).get(wrapper.alias)
    if pool is None:
        return
    stats = pool.get_stats()
    lent = stats.get("pool_size", 0) - stats.get("pool_available", 0)
    own = 1 if wrapper.connection is not None else 0
    if lent > own:
        warnings.warn(
            f"{request.node.nodeid} left {lent - own} database connection(s) lent from the pool; "
            "the pool was replaced",
            stacklevel=1,
        )
        wrapper.close()
        wrapper.close_pool()


@pytest.fixture(autouse=True)
def rating_boards_forgotten():
    """Each test starts with no rating board kept (leaderboard.ratings.board_version): a test's
    rolled-back rows, or rows it writes without the site's code, are replaced by no commit."""
    from games.models import RULESETS
    from leaderboard.ratings.board_version import forget_board

    for ruleset, _ in RULESETS:
        forget_board(ruleset)


@pytest.fixture
def fixed_seeds(settings):
    """The server's dice seed fixed (tests.games.webplay.SEED), so a game's rolls are the same on every
    run; a test module asks for it with `pytest.mark.usefixtures("fixed_seeds")`."""
    from tests.games.webplay import SEED

    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


@pytest.fixture
def redis_client():
    """The Redis the site uses, emptied before the test so counts start from nothing."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def redis_down(settings):
    """The site's Redis unreachable for the cache, presence and the channel layer (pointed at a port
    nothing listens on). Celery's broker is left alone: the fault test stops a Redis of its own."""
    from ludopat.embedded_redis import free_port
    from ludopat.settings import redis_settings

    url = f"redis://127.0.0.1:{free_port()}/0"
    for name, value in redis_settings(url).items():
        if name != "CELERY_BROKER_URL":
            setattr(settings, name, value)
    return url  # the process's Redis clients are kept per URL (ludopat.redis_clients)


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Under pytest-xdist the longest tests are handed out first, then the other slow ones, so the
    short ones fill in around them and no worker is left finishing a long test alone at the end of the
    run. CI uses `--dist load` (pytest-xdist 3), which first sends each worker a run of consecutive
    tests, a quarter of its share (the first worker gets the front of this order: all the longest
    tests, with two workers), then more as each runs low: the tests dealt later even the workers out
    only while the first worker's run stays under half of the whole. (A simulation of that dealing
    with CI's durations found both parts even today; marking the first part's longest tests
    `longest` too, the hostile-input walks, the narrator's and the staked game's, put 388 s on one
    worker against 346 s.)"""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        long = ("browser", "integration", "races", "slow")
        items.sort(  # stable: file order within each kind
            key=lambda item: (
                not item.get_closest_marker("longest"),
                not any(item.get_closest_marker(m) for m in long),
            )
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """Every test but a browser test runs with no event loop marked running in its thread: a browser
    test earlier on the same worker leaves Playwright's so (tests/event_loops.py)."""
    if item.get_closest_marker("browser"):
        yield
        return
    with loop_set_aside():
        yield
