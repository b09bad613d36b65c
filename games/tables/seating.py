"""Whom Play now seats together, pure functions of ratings and times (no database).

Everyone's range is rated quick match's (games/staking/pairing.py: ±100 at the press, widening by 20 a
second to ±400, anyone after 30 s), counted from when the entry is `ready` (a leaver's entry is held a
while first, escalation.py); players sit together only when each is within every other's range, and
`may_sit` (no block between them, never two accounts of one browser) holds for every two of them.

A table is built around the entry waiting longest: the others closest to its rating first, each taken
if it fits everyone already at the table, until the table is full. Entries that ticked "fill with
computers" and have waited COMPUTERS_AFTER seconds are seated with each other, whatever they number,
and computers take the seats left.

>>> a, b, c, d = (Waiting(i, i, 1500 + 10 * i, 0.0) for i in range(4))
>>> [[w.entry_id for w in table] for table in full_tables([a, b, c, d], 4, now=1.0)]
[[0, 1, 2, 3]]
>>> far = Waiting(9, 9, 2100, 0.0)
>>> full_tables([a, b, c, far], 4, now=1.0), len(full_tables([a, b, c, far], 4, now=30.0))
([], 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..staking.pairing import may_meet
from .kinds import COMPUTERS_AFTER


@dataclass(frozen=True)
class Waiting:
    """A waiting entry as the seating sees it: its id, its player, the player's shown rating in the
    table's rule set, when it became ready (seconds, any clock the caller uses for `now`), and whether
    it ticked "fill empty seats with computers"."""

    entry_id: int
    user_id: int
    rating: int
    ready: float
    computers: bool = False


SitTogether = Callable[[Waiting, Waiting], bool]


def _fits(table: list[Waiting], other: Waiting, now: float, may_sit: SitTogether) -> bool:
    return all(
        may_meet(w.rating, now - w.ready, other.rating, now - other.ready) and may_sit(w, other)
        for w in table
    )


def _build(
    anchor: Waiting, others: list[Waiting], seats: int, now: float, may_sit: SitTogether
) -> list[Waiting]:
    table = [anchor]
    for other in sorted(others, key=lambda w: (abs(w.rating - anchor.rating), w.ready, w.entry_id)):
        if len(table) == seats:
            break
        if _fits(table, other, now, may_sit):
            table.append(other)
    return table


def full_tables(
    entries: Iterable[Waiting],
    seats: int,
    now: float,
    may_sit: SitTogether = lambda a, b: True,
) -> list[list[Waiting]]:
    """The full tables of `seats` people that can be seated at `now`, each entry at one at most."""
    ready = sorted((w for w in entries if w.ready <= now), key=lambda w: (w.ready, w.entry_id))
    taken: set[int] = set()
    tables = []
    for anchor in ready:
        if anchor.entry_id in taken:
            continue
        others = [w for w in ready if w.entry_id not in taken and w.entry_id != anchor.entry_id]
        table = _build(anchor, others, seats, now, may_sit)
        if len(table) == seats:
            tables.append(table)
            taken.update(w.entry_id for w in table)
    return tables


def computer_tables(
    entries: Iterable[Waiting],
    seats: int,
    now: float,
    may_sit: SitTogether = lambda a, b: True,
) -> list[list[Waiting]]:
    """Tables for the entries that asked for computers and have waited long enough (after the full
    tables are seated): the people seated together, fewer than `seats`; computers take the rest.

    >>> a, b = Waiting(1, 1, 1500, 0.0, computers=True), Waiting(2, 2, 1900, 5.0, computers=True)
    >>> [[w.entry_id for w in t] for t in computer_tables([a, b], 4, now=31.0)]
    [[1]]
    >>> [[w.entry_id for w in t] for t in computer_tables([a, b], 4, now=35.0)]
    [[1, 2]]
    """
    due = sorted(
        (w for w in entries if w.computers and now - w.ready >= COMPUTERS_AFTER),
        key=lambda w: (w.ready, w.entry_id),
    )
    taken: set[int] = set()
    tables = []
    for anchor in due:
        if anchor.entry_id in taken:
            continue
        others = [w for w in due if w.entry_id not in taken and w.entry_id != anchor.entry_id]
        table = _build(anchor, others, seats - 1, now, may_sit)
        tables.append(table)
        taken.update(w.entry_id for w in table)
    return tables
