"""The `Standing` sums a counted result adds to: one row per rule set (and all of them), board, period
and start; added in the database by an upsert, so concurrent rounds never lose a sum."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db.models import Model

from .models import ALL_RULESETS, Board, Result
from .periods import period_starts
from .upsert import upsert


def standing_keys(row: Result) -> list[tuple[int | None, str, str, str, date]]:
    """Every Standing a counted result adds to: its rule set and all rule sets, on the all-games board
    (and the against-people one), in its week, month and all time."""
    boards = [Board.ALL, Board.PEOPLE] if row.against_people else [Board.ALL]
    return [
        (row.user_id, ruleset, board, period, start)
        for ruleset in (row.ruleset, ALL_RULESETS)
        for board in boards
        for period, start in period_starts(row.finished_at)
    ]


def add_to_standings(rows: list[Result], standing_model: type[Model]) -> None:
    """Add counted results to their Standing rows: one INSERT ... ON CONFLICT DO UPDATE per chunk
    that adds to the sums in the database (rows in key order, so concurrent rounds lock in one order
    and never deadlock; no read-modify-write, so nothing is lost between two transactions)."""
    if not rows:
        return
    sums: dict[tuple, list] = defaultdict(lambda: [0, 0, 0, 0, None, None])
    for row in rows:
        for key in standing_keys(row):
            total = sums[key]
            total[0] += row.points
            total[1] += 1
            total[2] += row.place == 1
            total[3] += row.coins
            total[4] = total[4] or row.finished_at  # first seen
            if row.points:
                total[5] = row.finished_at  # reached a new score
    values = [
        (*key, points, games, wins, coins, reached or first)
        for key, (points, games, wins, coins, first, reached) in sorted(sums.items())
    ]
    upsert(
        standing_model,
        ["user_id", "ruleset", "board", "period", "start"],
        ["points", "games", "wins", "coins", "reached_at"],
        values,
        "{points} = {table}.{points} + excluded.{points}, "
        "{games} = {table}.{games} + excluded.{games}, "
        "{wins} = {table}.{wins} + excluded.{wins}, "
        "{coins} = {table}.{coins} + excluded.{coins}, "
        "{reached_at} = CASE WHEN excluded.{points} > 0 THEN excluded.{reached_at} "
        "ELSE {table}.{reached_at} END",
    )
