"""The players' histories: each account's results numbered in finish order (`PlayerHistory`, whose row
makes the account's writers take turns) and its places tallied per rule set (`PlaceTally`)."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from django.db import connections, router
from django.db.models import Model

from .models import PlaceTally, PlayerHistory, Result
from .upsert import upsert


def number_results(rows: list[Result]) -> set[int]:
    """Number each account's new results after its last one and add them to its `PlayerHistory`
    (whose row, locked first, makes the account's writers take turns). Returns the accounts whose
    numbering must be worked out again: a result that finished before one already written (a
    backfill of old rounds, or two of the account's rounds ending in the same instant and written
    in the other order), or two at the same moment, which number by insertion order."""
    mine: defaultdict[int, list[Result]] = defaultdict(list)
    for row in rows:  # oldest first: the rounds are sorted
        if row.user_id is not None:
            mine[row.user_id].append(row)
    if not mine:
        return set()
    users = sorted(mine)
    # Create the missing rows and lock them all (an upsert that changes nothing still locks its row).
    upsert(
        PlayerHistory,
        ["user_id"],
        ["rounds"],
        [(u, 0) for u in users],
        "{rounds} = {table}.{rounds}",
    )
    known = {
        user: (rounds, latest)
        for user, rounds, latest in PlayerHistory.objects.filter(user_id__in=users).values_list(
            "user_id", "rounds", "latest"
        )
    }
    late = set()
    updated = []
    for user in users:
        rounds, latest = known[user]
        whens = [row.finished_at for row in mine[user]]
        in_order = all(a < b for a, b in pairwise(whens))
        if not in_order or (latest is not None and whens[0] <= latest):
            late.add(user)
        for n, row in enumerate(mine[user], start=rounds + 1):
            row.number = n  # provisional for a late account: renumber_results decides
        newest = max(whens) if latest is None else max(latest, *whens)
        updated.append((user, rounds + len(whens), newest))
    upsert(
        PlayerHistory,
        ["user_id"],
        ["rounds", "latest"],
        updated,
        "{rounds} = excluded.{rounds}, {latest} = excluded.{latest}",
    )
    return late


def renumber_results(result_model: type[Model], user_ids: list[int] | None = None) -> None:
    """Number the accounts' results (all accounts' if `user_ids` is None) 1, 2, ... in finish order,
    of two at the same moment the later written first, so the newest first is the highest number
    (the player page's order: newest, then the earlier written). The rare path of `write_rounds`
    (it touches the account's whole history) and the migration that added the numbers."""
    connection = connections[router.db_for_write(result_model)]
    quote = connection.ops.quote_name
    table = quote(result_model._meta.db_table)
    which, params = "", []
    if user_ids is not None:
        which = f" AND {quote('user_id')} IN ({', '.join(['%s'] * len(user_ids))})"
        params = list(user_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {quote('number')} = numbered.n FROM ("  # noqa: S608  quoted names only; ids are parameters
            f"SELECT {quote('id')} AS id, ROW_NUMBER() OVER (PARTITION BY {quote('user_id')} "
            f"ORDER BY {quote('finished_at')}, {quote('id')} DESC) AS n FROM {table} "
            f"WHERE {quote('user_id')} IS NOT NULL{which}) AS numbered "
            f"WHERE {table}.{quote('id')} = numbered.id",
            params,
        )


def add_to_place_tallies(rows: list[Result]) -> None:
    """Add counted results to their accounts' `PlaceTally` rows, in key order."""
    added: defaultdict[tuple[int, str, int], int] = defaultdict(int)
    for row in rows:
        if row.user_id is not None:
            added[(row.user_id, row.ruleset, row.place)] += 1
    upsert(
        PlaceTally,
        ["user_id", "ruleset", "place"],
        ["rounds"],
        [(*key, n) for key, n in sorted(added.items())],
        "{rounds} = {table}.{rounds} + excluded.{rounds}",
    )
