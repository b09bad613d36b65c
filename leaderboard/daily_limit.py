"""The 5-a-day rule: between the same two accounts at most 5 rounds a UTC day count (docs/rules.md).

The tallies are `PairDay` rows, locked in key order by an upsert that also reads them.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from itertools import combinations

from django.db.models import Model

from games.core.round_ends import RANKED

from .finished_rounds import FinishedRound
from .periods import utc_day
from .upsert import upsert

DAILY_PAIR_LIMIT = 5


def apply_daily_limit(rounds: list[FinishedRound], pair_model: type[Model]) -> list[set[int]]:
    """For each round, the seat indexes whose account may still score: a round counts for an account
    unless it already played 5 counted rounds that UTC day with another account at the table."""
    wanted = sorted(
        {
            (low, high, utc_day(played.when))
            for played in rounds
            if played.how in RANKED and played.rated
            for low, high in pairs_of(played)
        }
    )
    # Create the missing tallies and lock them all (an upsert that changes nothing still locks its
    # row), reading the counts in the same statement.
    found = upsert(
        pair_model,
        ["low_id", "high_id", "day"],
        ["rounds"],
        [(*key, 0) for key in wanted],
        "{rounds} = {table}.{rounds}",
        returning=["low_id", "high_id", "day", "rounds"],
    )
    tallies = {(low, high, _as_date(day)): n for low, high, day, n in found}
    out = []
    added: dict[tuple, int] = defaultdict(int)
    for played in rounds:
        day = utc_day(played.when)
        # An unrated room's round takes none of the pair's allowance.
        pairs = pairs_of(played) if played.how in RANKED and played.rated else []
        full = [pair for pair in pairs if tallies[(*pair, day)] >= DAILY_PAIR_LIMIT]
        allowed = {
            user for user in played.accounts.values() if not any(user in pair for pair in full)
        }
        for low, high in pairs:
            if low in allowed and high in allowed:
                tallies[(low, high, day)] += 1
                added[(low, high, day)] += 1
        out.append({i for i, user in played.accounts.items() if user in allowed})
    upsert(
        pair_model,
        ["low_id", "high_id", "day"],
        ["rounds"],
        [(*key, n) for key, n in sorted(added.items())],
        "{rounds} = {table}.{rounds} + excluded.{rounds}",
    )
    return out


def _as_date(value: str | date) -> date:
    return date.fromisoformat(value) if isinstance(value, str) else value


def pairs_of(played: FinishedRound) -> list[tuple[int, int]]:
    users = sorted(set(played.accounts.values()))
    return list(combinations(users, 2))
