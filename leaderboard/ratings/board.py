"""The "Rating" board of /leaderboard/, one rule set at a time (docs/ratings.md).

Sorted by the shown number, among players with rated rounds who are not banned: established players
(sigma at or under the provisional threshold) are ranked; provisional ones are ranked apart, in a list
of their own with their uncertainty, and players with no rated round in the last 90 days are listed
apart. Each list is one indexed range of `Rating`.

Every leaderboard page draws this board, and it changes only when ratings are written: it is kept in
the cache under the rule set's token (board_version), replaced after each commit that writes ratings.
What is kept leaves nobody out, and its names are not shown: each page reads the names of the
accounts on it and leaves the banned ones out, so a rename or a ban (neither writes a rating) shows
at once. KEPT_SECONDS bounds what only time changes (the 90-day line) and what a token lost to a
cache failure could leave behind.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import QuerySet
from django.utils import timezone
from redis.exceptions import RedisError

from accounts.models import User
from ludopat.read_replica import reading_primary

from ..models import Rating
from .board_version import board_token
from .rating_replay import recalculating
from .scale import PROVISIONAL_SIGMA, spread

log = logging.getLogger(__name__)

INACTIVE_AFTER = timedelta(days=90)
LISTED = 25  # ranked players shown; the provisional and inactive lists show as many
SPARE = 25  # rows kept beyond LISTED, for the banned accounts a page leaves out
KEPT_SECONDS = 300


@dataclass(frozen=True)
class RatingRow:
    rank: int | None  # in the ranked and the provisional lists
    username: str
    user_id: int
    value: int
    games: int
    provisional: bool
    spread: int  # the number's uncertainty (±), scale.spread


@dataclass(frozen=True)
class RatingBoard:
    ruleset: str
    ranked: list[RatingRow]
    provisional: list[RatingRow]
    inactive: list[RatingRow]
    recalculating: bool  # a removed round's replay is pending: the numbers are about to change


def _rated(ruleset: str, banned_too: bool) -> QuerySet[Rating]:
    rows = Rating.objects.filter(ruleset=ruleset, games__gt=0)
    if not banned_too:
        rows = rows.filter(user__is_active=True)
    return rows.order_by("-value", "user_id")


# Only the columns a row shows: building 75 full Rating and User rows cost three times what the three
# index ranges do.
SHOWN = ("user__username", "user_id", "value", "games", "sigma")


def _rows(rows: QuerySet[Rating], ranked: bool, count: int) -> list[RatingRow]:
    return [
        RatingRow(
            n + 1 if ranked else None,
            username,
            user_id,
            value,
            games,
            sigma > PROVISIONAL_SIGMA,
            spread(sigma),
        )
        for n, (username, user_id, value, games, sigma) in enumerate(
            rows.values_list(*SHOWN)[:count]
        )
    ]


def read_board(
    ruleset: str, *, count: int | None = None, banned_too: bool = False, now: datetime | None = None
) -> RatingBoard:
    """The board from the database: `count` rows a list (LISTED), banned accounts left out unless
    `banned_too`."""
    count = LISTED if count is None else count
    since = (now or timezone.now()) - INACTIVE_AFTER
    active = _rated(ruleset, banned_too).filter(last_played__gte=since)
    return RatingBoard(
        ruleset,
        ranked=_rows(active.filter(sigma__lte=PROVISIONAL_SIGMA), True, count),
        provisional=_rows(active.filter(sigma__gt=PROVISIONAL_SIGMA), True, count),
        inactive=_rows(_rated(ruleset, banned_too).filter(last_played__lt=since), False, count),
        recalculating=ruleset in recalculating(),
    )


def _kept_board(ruleset: str) -> RatingBoard:
    """The board with nobody left out and SPARE rows more a list: from the cache, or read and kept."""
    try:
        key = f"leaderboard:rating-board:2:{board_token(ruleset)}"  # 2: rows with their spread
        kept = cache.get(key)
    except RedisError:
        log.warning("the cache is down: the rating board is read from the database")
        return read_board(ruleset, count=LISTED + SPARE, banned_too=True)
    if isinstance(kept, RatingBoard):
        return kept
    with reading_primary():  # kept for every page until the next commit: not a lagging replica's
        board = read_board(ruleset, count=LISTED + SPARE, banned_too=True)
    with contextlib.suppress(RedisError):  # not kept: the next page reads it again
        cache.set(key, board, KEPT_SECONDS)
    return board


def _listed(rows: list[RatingRow], names: dict[int, str], ranked: bool) -> list[RatingRow]:
    shown = [replace(row, username=names[row.user_id]) for row in rows if row.user_id in names]
    return [replace(row, rank=n + 1 if ranked else None) for n, row in enumerate(shown[:LISTED])]


def rating_board(ruleset: str) -> RatingBoard:
    """The board a page shows. Its accounts' names and bans are read with it (one query): a rename
    or a ban, which writes no rating, shows at once."""
    kept = _kept_board(ruleset)
    lists = (kept.ranked, kept.provisional, kept.inactive)
    ids = {row.user_id for rows in lists for row in rows}
    names = dict(User.objects.filter(pk__in=ids, is_active=True).values_list("pk", "username"))
    if any(
        len(rows) == LISTED + SPARE and sum(row.user_id in names for row in rows) < LISTED
        for rows in lists
    ):  # more banned accounts among the kept rows than there are spare ones: read past them
        return read_board(ruleset)
    return replace(
        kept,
        ranked=_listed(kept.ranked, names, ranked=True),
        provisional=_listed(kept.provisional, names, ranked=True),
        inactive=_listed(kept.inactive, names, ranked=False),
    )
