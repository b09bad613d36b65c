"""The "Rating" board of /leaderboard/, one rule set at a time (docs/ratings.md).

Sorted by the shown number, among players with rated rounds who are not banned: established players
(sigma at or under the provisional threshold) are ranked; provisional ones are listed apart, and so are
players with no rated round in the last 90 days. Each list is one indexed range of `Rating`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from ..models import Rating
from .replay import recalculating
from .scale import PROVISIONAL_SIGMA

INACTIVE_AFTER = timedelta(days=90)
LISTED = 25  # ranked players shown; the provisional and inactive lists show as many


@dataclass(frozen=True)
class RatingRow:
    rank: int | None  # ranked players only
    username: str
    user_id: int
    value: int
    games: int
    provisional: bool


@dataclass(frozen=True)
class RatingBoard:
    ruleset: str
    ranked: list[RatingRow]
    provisional: list[RatingRow]
    inactive: list[RatingRow]
    recalculating: bool  # a removed round's replay is pending: the numbers are about to change


def _rated(ruleset: str) -> QuerySet[Rating]:
    return Rating.objects.filter(ruleset=ruleset, games__gt=0, user__is_active=True).order_by(
        "-value", "user_id"
    )


# Only the columns a row shows: every leaderboard page draws this board, and building 75 full Rating
# and User rows cost three times what the three index ranges do.
SHOWN = ("user__username", "user_id", "value", "games", "sigma")


def _rows(rows: QuerySet[Rating], ranked: bool) -> list[RatingRow]:
    return [
        RatingRow(
            n + 1 if ranked else None, username, user_id, value, games, sigma > PROVISIONAL_SIGMA
        )
        for n, (username, user_id, value, games, sigma) in enumerate(
            rows.values_list(*SHOWN)[:LISTED]
        )
    ]


def rating_board(ruleset: str, now: datetime | None = None) -> RatingBoard:
    since = (now or timezone.now()) - INACTIVE_AFTER
    active = _rated(ruleset).filter(last_played__gte=since)
    return RatingBoard(
        ruleset,
        ranked=_rows(active.filter(sigma__lte=PROVISIONAL_SIGMA), ranked=True),
        provisional=_rows(active.filter(sigma__gt=PROVISIONAL_SIGMA), ranked=False),
        inactive=_rows(_rated(ruleset).filter(last_played__lt=since), ranked=False),
        recalculating=ruleset in recalculating(),
    )
