"""Which rating board is current: a token per rule set, replaced after every commit that writes ratings.

The rating board (leaderboard.ratings.board) is the same for every page until a rating is written, so
it is kept in the cache under its rule set's token. Whatever writes ratings, or marks a rule set as
recalculating, calls `ratings_written` in its transaction; the token is replaced once that commits.
A board computed from rows read before the commit is stored under the old token, which nobody reads
any more, so a page never shows a board older than the last commit that finished before it asked.

The token is random, not a counter: a token lost from the cache (evicted, flushed) is replaced by one
no stored board can have. The key names the database too, so sites (or test workers) sharing a Redis
never read each other's boards.
"""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import connection, transaction
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


def _key(ruleset: str) -> str:
    return f"leaderboard:rating-board:{connection.settings_dict['NAME']}:{ruleset}"


def ratings_written(ruleset: str) -> None:
    """In the transaction that writes `ruleset`'s ratings: its board is stale once that commits."""
    transaction.on_commit(lambda: forget_board(ruleset))


def forget_board(ruleset: str) -> None:
    try:
        cache.set(_key(ruleset), uuid.uuid4().hex, None)
    except RedisError:  # the boards stored lapse by themselves (board.KEPT_SECONDS)
        log.warning("the cache is down: the %s rating board may lag for a few minutes", ruleset)


def board_token(ruleset: str) -> str:
    """The current board's token (one is made if the cache has none). Raises RedisError."""
    token = cache.get(_key(ruleset))
    if token is None:
        cache.add(_key(ruleset), uuid.uuid4().hex, None)
        token = cache.get(_key(ruleset))
    return str(token) if token is not None else uuid.uuid4().hex  # evicted at once: this page only
