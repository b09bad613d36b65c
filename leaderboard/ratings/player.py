"""A player's ratings on their page: the number per rule set (provisional with its uncertainty), and a
chart of it over time: a line from the first rated round (leaderboard/charts.py: rating_line) over a
table of the same numbers, its text alternative.

The chart has one point per week the player was rated in (the rating at that week's last rated round),
per month for a history of MAX_ROWS weeks or more, per year for one of MAX_MONTHS months or more; the
periods without play between are gaps on the line and no row in the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date
from typing import Any

from django.db.models import DateField, Max, Min
from django.db.models.functions import TruncDate, TruncMonth, TruncWeek

from accounts.models import User
from games.models import RULESET_NAMES

from ..charts import MAX_ROWS, Line, LinePoint, rating_line
from ..models import Rating, Result
from .rating_replay import recalculating
from .scale import DEFAULT_SHOWN, is_provisional, shown, spread

MAX_MONTHS = 48  # a longer history is charted per year


@dataclass(frozen=True)
class RatingPoint:
    label: str
    start: date  # the period's first day
    value: int  # the rating at its last rated round
    change: (
        int  # since the period before it played in (the first: since the 1500 everyone starts at)
    )


@dataclass(frozen=True)
class RatedStretch:
    """A part of a player's rated results in one rule set, week and month (a week may straddle two
    months): its last result's id and its first and last day."""

    week: date
    month: date
    last: int
    first_day: date
    last_day: date


def rated_stretches(player: User) -> dict[str, list[RatedStretch]]:
    """The player's rated results per rule set, grouped by the database by week and month from the
    `result_player_rated` index: a few rows per month of play, however many rounds fill it."""
    rows = (
        Result.objects.filter(user=player, rating_mu__isnull=False)
        .annotate(
            week=TruncWeek("finished_at", output_field=DateField(), tzinfo=UTC),
            month=TruncMonth("finished_at", output_field=DateField(), tzinfo=UTC),
        )
        .values("ruleset", "week", "month")
        .annotate(
            last=Max("pk"),
            first_day=Min(TruncDate("finished_at", tzinfo=UTC)),
            last_day=Max(TruncDate("finished_at", tzinfo=UTC)),
        )
        .values_list("ruleset", "week", "month", "last", "first_day", "last_day")
    )
    stretches: dict[str, list[RatedStretch]] = {}
    for ruleset, *stretch in rows:
        stretches.setdefault(ruleset, []).append(RatedStretch(*stretch))
    return stretches


def chart_periods(stretches: list[RatedStretch]) -> tuple[str, dict[date, int]]:
    """(unit, {period's first day: the id of its last rated result}), oldest first: weeks for a
    history shorter than MAX_ROWS weeks, months for one shorter than MAX_MONTHS months, else years."""
    first = min(s.first_day for s in stretches)
    last_day = max(s.last_day for s in stretches)
    if (last_day - first).days < 7 * MAX_ROWS:
        unit = "week"
    elif (last_day.year - first.year) * 12 + last_day.month - first.month < MAX_MONTHS:
        unit = "month"
    else:
        unit = "year"
    last: dict[date, int] = {}
    for s in stretches:
        key = {"week": s.week, "month": s.month, "year": s.month.replace(month=1)}[unit]
        last[key] = max(last.get(key, 0), s.last)
    return unit, {key: last[key] for key in sorted(last)}


def _slot(unit: str, first: date, start: date) -> int:
    """How many periods `start`'s is after `first`'s."""
    if unit == "week":
        return (start - first).days // 7
    if unit == "month":
        return (start.year - first.year) * 12 + start.month - first.month
    return start.year - first.year


def _label(unit: str, start: date) -> str:
    if unit == "week":
        return f"{start.day} {start:%b %Y}"
    return f"{start:%b %Y}" if unit == "month" else str(start.year)


def rating_chart(unit: str, mus: dict[date, float]) -> dict[str, Any]:
    """The chart of {period's first day: mu after its last rated round}, oldest first: its table's
    rows, newest first, and its line, from the 1500 everyone starts at."""
    if not mus:
        return {"unit": unit, "rows": [], "line": None}
    rows, before = [], DEFAULT_SHOWN
    for start, mu in mus.items():
        value = shown(mu)
        rows.append(RatingPoint(_label(unit, start), start, value, value - before))
        before = value
    first = rows[0].start
    line: Line = rating_line(
        DEFAULT_SHOWN, [LinePoint(_slot(unit, first, row.start), row.value) for row in rows]
    )
    values = [DEFAULT_SHOWN, *(row.value for row in rows)]
    return {
        "unit": unit,
        "rows": rows[::-1],
        "line": line,
        "first": rows[0],
        "last": rows[-1],
        "high": max(values),
        "low": min(values),
    }


def rating_charts(player: User) -> dict[str, dict[str, Any]]:
    """Each rule set's rating chart: a point per week the player was rated in (the rating at its last
    rated round), or per month or year for a longer history. Two reads whatever the history: the
    stretches, then the ratings of the few results that end a period."""
    periods = {ruleset: chart_periods(s) for ruleset, s in rated_stretches(player).items()}
    ids = [pk for _, ends in periods.values() for pk in ends.values()]
    rated = Result.objects.filter(pk__in=ids, rating_mu__isnull=False)
    mus: dict[int, float] = dict(rated.values_list("pk", "rating_mu"))  # type: ignore[arg-type]
    return {
        ruleset: rating_chart(unit, {k: mus[pk] for k, pk in ends.items() if pk in mus})
        for ruleset, (unit, ends) in periods.items()
    }


def player_ratings(player: User) -> list[dict[str, Any]]:
    """The player's rating per rule set they were rated in, each with its uncertainty and chart."""
    pending = recalculating()
    charts = rating_charts(player)
    out = []
    for rating in Rating.objects.filter(user=player, games__gt=0).order_by("ruleset"):
        out.append(
            {
                "ruleset": rating.ruleset,
                "name": RULESET_NAMES.get(rating.ruleset, rating.ruleset),
                "value": rating.value,
                "games": rating.games,
                "provisional": is_provisional(rating.sigma),
                "spread": spread(rating.sigma),
                "recalculating": rating.ruleset in pending,
                "chart": charts.get(rating.ruleset) or rating_chart("week", {}),
            }
        )
    return out
