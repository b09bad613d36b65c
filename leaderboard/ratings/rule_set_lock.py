"""One lock per rule set between the round ends that rate in it and a replay's catch-up.

A round's end that moves ratings shares it (`rating_in`) from before it takes its players' rating rows
until it commits; round ends never wait for each other on it. A replay takes it alone (`no_one_rating`)
twice, for moments: to learn up to which result id everything rated has committed, and for its short
catch-up with the rounds that ended while it computed (leaderboard.ratings.rating_replay). Taken after the
game, tournament and wallet rows, before the rating rows (docs/architecture.md's lock order).

A transaction's advisory lock on PostgreSQL; SQLite's write lock already serialises every writer.
"""

from __future__ import annotations

import zlib

from django.db import connection

SPACE = 0x1D1  # advisory locks' first key: this lock's (quick match's queue lock is 0x1D0)


def _take(ruleset: str, sql: str) -> None:
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"ratings:{ruleset}".encode()) & 0x7FFFFFFF  # the same in every process
    with connection.cursor() as cursor:
        cursor.execute(sql, [SPACE, key])


def rating_in(ruleset: str) -> None:
    """A round's end is about to rate in `ruleset` (shared with every other round's end)."""
    _take(ruleset, "SELECT pg_advisory_xact_lock_shared(%s, %s)")


def no_one_rating(ruleset: str) -> None:
    """Until this transaction ends, no round's end rates in `ruleset` (each waits, and those already
    rating are waited for)."""
    _take(ruleset, "SELECT pg_advisory_xact_lock(%s, %s)")
