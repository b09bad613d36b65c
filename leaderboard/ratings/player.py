"""A player's ratings on their page: the number per rule set, and a chart of it over time drawn as
leaderboard/charts.py draws points (a table whose cells carry a bar; the number is written beside it).

The chart has one row per week the player was rated in (the rating at that week's last rated round),
or per month for a longer history, newest MAX_ROWS rows; a bar's length runs from the lowest to the
highest rating shown, so the change reads at a glance.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date
from typing import Any

from django.db.models import DateField, Max, Min
from django.db.models.functions import TruncDate, TruncMonth, TruncWeek

from accounts.models import User
from games.models import RULESET_NAMES

from ..charts import MAX_ROWS
from ..models import Rating, Result
from .rating_replay import recalculating
from .scale import is_provisional, shown


@dataclass(frozen=True)
class RatingPoint:
    label: str
    start: date
    value: int
    percent: str  # the bar's length, between the lowest and highest value shown


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


def chart_periods(stretches: list[RatedStretch]) -> tuple[bool, dict[date, int]]:
    """(weekly?, {period: the id of its last rated result}) of the newest MAX_ROWS periods: weeks for
    a history shorter than MAX_ROWS weeks, months for a longer one."""
    first = min(s.first_day for s in stretches)
    weekly = (max(s.last_day for s in stretches) - first).days < 7 * MAX_ROWS
    last: dict[date, int] = {}
    for s in stretches:
        key = s.week if weekly else s.month
        last[key] = max(last.get(key, 0), s.last)
    return weekly, {key: last[key] for key in sorted(last, reverse=True)[:MAX_ROWS]}


def rating_chart(weekly: bool, mus: dict[date, float]) -> dict[str, Any]:
    """{period: mu after its last rated round}, newest first: the chart's rows."""
    if not mus:
        return {"unit": "week", "rows": []}
    values = {k: shown(mu) for k, mu in mus.items()}
    low, high = min(values.values()), max(values.values())
    rows = [
        RatingPoint(
            f"{k.day} {k:%b %Y}" if weekly else f"{k:%b %Y}",
            k,
            value,
            # A sliver for the lowest, the full bar for the highest.
            f"{5 + 95 * (value - low) / (high - low):.1f}" if high > low else "100",
        )
        for k, value in values.items()
    ]
    return {"unit": "week" if weekly else "month", "rows": rows}


def rating_charts(player: User) -> dict[str, dict[str, Any]]:
    """Each rule set's rating chart: one row per week the player was rated in (the rating at its last
    rated round), or per month for a longer history, the newest MAX_ROWS. Two reads whatever the
    history: the stretches, then the ratings of the few results that end a period shown."""
    periods = {ruleset: chart_periods(s) for ruleset, s in rated_stretches(player).items()}
    ids = [pk for _, ends in periods.values() for pk in ends.values()]
    rated = Result.objects.filter(pk__in=ids, rating_mu__isnull=False)
    mus: dict[int, float] = dict(rated.values_list("pk", "rating_mu"))  # type: ignore[arg-type]
    return {
        ruleset: rating_chart(weekly, {k: mus[pk] for k, pk in ends.items() if pk in mus})
        for ruleset, (weekly, ends) in periods.items()
    }


def player_ratings(player: User) -> list[dict[str, Any]]:
    """The player's rating per rule set they were rated in, each with its chart."""
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
                "recalculating": rating.ruleset in pending,
                "chart": charts.get(rating.ruleset) or rating_chart(True, {}),
            }
        )
    return out
