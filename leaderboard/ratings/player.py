"""A player's ratings on their page: the number per rule set, and a chart of it over time drawn as
leaderboard/charts.py draws points (a table whose cells carry a bar; the number is written beside it).

The chart has one row per week the player was rated in (the rating at that week's last rated round),
or per month for a longer history, newest MAX_ROWS rows; a bar's length runs from the lowest to the
highest rating shown, so the change reads at a glance.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, timedelta
from typing import Any

from django.db.models import Max
from django.db.models.functions import TruncDate

from accounts.models import User
from games.models import RULESET_NAMES

from ..charts import MAX_ROWS
from ..models import Rating, Result
from .replay import recalculating
from .scale import is_provisional, shown


@dataclass(frozen=True)
class RatingPoint:
    label: str
    start: date
    value: int
    percent: str  # the bar's length, between the lowest and highest value shown


def rating_chart(points: list[tuple[date, float]]) -> dict[str, Any]:
    """`points`: (day, mu after a rated round), oldest first. Rows newest first."""
    if not points:
        return {"unit": "week", "rows": []}
    weekly = (points[-1][0] - points[0][0]).days < 7 * MAX_ROWS
    last: dict[date, float] = {}
    for day, mu in points:
        key = day - timedelta(days=day.weekday()) if weekly else day.replace(day=1)
        last[key] = mu  # the period's last rated round
    newest = sorted(last, reverse=True)[:MAX_ROWS]
    values = {k: shown(last[k]) for k in newest}
    low, high = min(values.values()), max(values.values())
    rows = [
        RatingPoint(
            f"{k.day} {k:%b %Y}" if weekly else f"{k:%b %Y}",
            k,
            values[k],
            # A sliver for the lowest, the full bar for the highest.
            f"{5 + 95 * (values[k] - low) / (high - low):.1f}" if high > low else "100",
        )
        for k in newest
    ]
    return {"unit": "week" if weekly else "month", "rows": rows}


def rated_days(player: User) -> dict[str, list[tuple[date, float]]]:
    """(day, mu after the day's last rated round) per rule set, oldest first, for `rating_chart`
    (which keeps each period's last). The database groups the player's rated results by day from the
    `result_player_rated` index and sends the last of each day: a busy player's thousands of rounds
    are neither read from the table nor sent."""
    last_of_day = (
        Result.objects.filter(user=player, rating_mu__isnull=False)
        .annotate(day=TruncDate("finished_at", tzinfo=UTC))
        .values("ruleset", "day")
        .annotate(last=Max("pk"))
        .values_list("last", flat=True)
    )
    history: dict[str, list[tuple[date, float]]] = {}
    rows = (
        Result.objects.filter(pk__in=list(last_of_day))
        .order_by("pk")
        .values_list("ruleset", "finished_at", "rating_mu")
    )
    for ruleset, when, mu in rows:
        if mu is not None:
            history.setdefault(ruleset, []).append((when.date(), mu))
    return history


def player_ratings(player: User) -> list[dict[str, Any]]:
    """The player's rating per rule set they were rated in, each with its chart."""
    pending = recalculating()
    history = rated_days(player)
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
                "chart": rating_chart(history.get(rating.ruleset, [])),
            }
        )
    return out
