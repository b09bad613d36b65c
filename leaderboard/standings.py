"""Standings: indexed reads of the `Standing` sums (never a scan of results).

A window is a period and its first day: this week (ISO week from Monday 00:00 UTC), this month (UTC),
all time, and last week's and last month's final standings. Ties rank by points, then wins, then who
reached the score first (then the older account, so every row has one rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games.models import RULESETS

from .models import ALL_RULESETS, Board, Period, Standing
from .periods import ALL_TIME_START, utc_day

ORDER = ("-points", "-wins", "reached_at", "user_id")


@dataclass(frozen=True)
class Window:
    slug: str
    label: str
    period: str
    start: date


def windows(now: datetime | None = None) -> dict[str, Window]:
    """The leaderboard's windows, by the slug the page's `period` parameter names them with."""
    today = utc_day(now or timezone.now())
    week = today - timedelta(days=today.weekday())
    month = today.replace(day=1)
    last_month = (month - timedelta(days=1)).replace(day=1)
    found = [
        Window("week", "This week", Period.WEEK, week),
        Window("month", "This month", Period.MONTH, month),
        Window("all", "All time", Period.ALL, ALL_TIME_START),
        Window("last-week", "Last week", Period.WEEK, week - timedelta(days=7)),
        Window("last-month", "Last month", Period.MONTH, last_month),
    ]
    return {w.slug: w for w in found}


RULESET_CHOICES = [(ALL_RULESETS, "All rule sets"), *RULESETS]
BOARD_CHOICES = [(Board.PEOPLE.value, "Against people"), (Board.ALL.value, "All games")]


def standings(
    window: Window,
    ruleset: str = ALL_RULESETS,
    board: str = Board.PEOPLE,
    banned: list[int] | None = None,
) -> QuerySet:
    """Everyone's sums in the window, best first: a range of the `standing_order` index read in its
    own order (no join, no sort: a page costs its offset plus 25 rows, whatever the table's size).
    The page's accounts come in one more query. `banned`: banned_ids(), if the caller has it."""
    rows = Standing.objects.filter(
        ruleset=ruleset, board=board, period=window.period, start=window.start
    )
    banned = banned_ids() if banned is None else banned
    if banned:  # a banned player leaves the standings
        rows = rows.exclude(user_id__in=banned)
    return rows.prefetch_related("user").order_by(*ORDER)


def banned_ids() -> list[int]:
    """Accounts out of the standings (few: a short list the index can skip)."""
    return list(get_user_model().objects.filter(is_active=False).values_list("pk", flat=True))


# A search naming at most this many accounts reads their rows by account; a broader one walks the board.
FEW_NAMES = 500


def named_like(rows: QuerySet, term: str) -> QuerySet:
    """`rows` of the players whose name holds `term` (any case).

    The names are looked up first (the trigram index) and, when they are few, the rows are read by
    account. Left to itself, PostgreSQL misjudged how many names a term finds (269 for 10) and walked
    the board's order to the 25th row found: 25,000 rows and 100 ms for some terms, 2 ms for others.
    """
    names = get_user_model().objects.filter(username__icontains=term)
    ids = list(names.values_list("pk", flat=True)[: FEW_NAMES + 1])
    if len(ids) <= FEW_NAMES:
        return rows.filter(user_id__in=ids)
    return rows.filter(user__username__icontains=term)


def with_ranks(
    rows: QuerySet, banned: list[int] | None = None, *, more_points: bool = True
) -> QuerySet:
    """`rows` with `.rank` annotated, in the same query: 1 + the rows of the same table ranked ahead.

    Counted in parts so the big one stays cheap at any size: everyone with more points (one range of
    the `standing_order` index, counted from the index alone) and the ties on points decided by wins,
    then who got there first (a small range), less the banned players among those ahead.

    Without `more_points` the first part is left out, for `add_more_points` to add to the rows
    wanted: several rows of one table then count it in one read instead of a range each.
    """
    points, wins, reached = OuterRef("points"), OuterRef("wins"), OuterRef("reached_at")
    table = Standing.objects.filter(
        ruleset=OuterRef("ruleset"),
        board=OuterRef("board"),
        period=OuterRef("period"),
        start=OuterRef("start"),
    )
    tie_ahead = (
        Q(wins__gt=wins)
        | Q(wins=wins, reached_at__lt=reached)
        | Q(wins=wins, reached_at=reached, user_id__lt=OuterRef("user_id"))
    )
    tied_ahead = table.filter(Q(points=points) & tie_ahead)
    rank = 1 + _count(tied_ahead)
    if more_points:
        rank += _count(table.filter(points__gt=points))
    banned = banned_ids() if banned is None else banned
    if banned:
        ahead = Q(points__gt=points) | (Q(points=points) & tie_ahead)
        rank -= _count(table.filter(user_id__in=banned).filter(ahead))
    return rows.annotate(rank=rank)


def add_more_points(rows: Sequence[Standing]) -> None:
    """Add to each row's `.rank` (from `with_ranks(..., more_points=False)`) the rows of its table with
    more points. `rows` are of one table: its points above the lowest of theirs are counted in one
    read of the `standing_points` index, grouped by points, and summed from the top down."""
    if not rows:
        return
    first = rows[0]
    counts = (
        Standing.objects.filter(
            ruleset=first.ruleset,
            board=first.board,
            period=first.period,
            start=first.start,
            points__gt=min(row.points for row in rows),
        )
        .values_list("points")
        .annotate(n=Count("*"))
        .order_by("-points")
    )
    wanted = sorted({row.points for row in rows}, reverse=True)
    ahead, more = {}, 0
    for points, n in counts:
        while wanted and points <= wanted[0]:
            ahead[wanted.pop(0)] = more
        more += n
    ahead.update(dict.fromkeys(wanted, more))  # the lowest points: everyone counted is above
    for row in rows:
        row.rank += ahead[row.points]  # type: ignore[attr-defined]  # annotated by with_ranks


def _count(rows: QuerySet) -> Coalesce:
    """COUNT(*) of `rows` as a subquery expression (0 when there are none)."""
    counted = rows.order_by().values("start").annotate(n=Count("*")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def standing_of(
    user: User | AnonymousUser,
    window: Window,
    ruleset: str,
    board: str,
    banned: list[int] | None = None,
    *,
    more_points: bool = True,
) -> Standing | None:
    """The user's row in this table, with its `.rank`, or None. Without `more_points` the rank lacks
    the rows with more points, for `add_more_points` to add with a search's rows in one read."""
    if not user.is_authenticated:
        return None
    return with_ranks(
        Standing.objects.filter(
            user=user, ruleset=ruleset, board=board, period=window.period, start=window.start
        ),
        banned,
        more_points=more_points,
    ).first()


def week_top(count: int = 5) -> list[Standing]:
    """This week's leaders against people over every rule set (the home page's top 5)."""
    return list(standings(windows()["week"])[:count])
