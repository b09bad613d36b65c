"""Rated quick match's choices, pure functions of ratings and times (no database): how far from their
own rating a waiting player is searched an opponent, whether two entries may meet, and which entries
a sweep pairs, closest first.

A player's range is ±(100 + 20 · whole seconds waited), capped at ±400 (reached at 15 s); after 30 s
it is anyone. (Whole seconds: the waiting screen shows the range a sweep uses, not one a moment off.) Two players meet only when each is within the other's range: the one who just pressed is not
handed a far stronger or weaker opponent because that opponent has waited long.

>>> search_range(0), search_range(5.9), search_range(15), search_range(29.9), search_range(30)
(100, 200, 400, 400, None)
>>> may_meet(1500, 0, 1600, 0), may_meet(1500, 0, 1601, 60)
(True, False)
>>> may_meet(1000, 31, 2000, 40)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

RANGE_START = 100  # shown rating points either side, at the press
RANGE_GROWTH = 20  # more points per second waited
RANGE_CAP = 400  # the widest range before anyone
ANYONE_AFTER = 30  # seconds: then the range is unlimited


def search_range(waited_seconds: float) -> int | None:
    """How far either side of their rating a player who has waited this long is searched an
    opponent; None: anyone."""
    if waited_seconds >= ANYONE_AFTER:
        return None
    return min(RANGE_CAP, RANGE_START + RANGE_GROWTH * int(max(0.0, waited_seconds)))


def _covers(reach: int | None, gap: int) -> bool:
    return reach is None or gap <= reach


def may_meet(rating_a: int, waited_a: float, rating_b: int, waited_b: float) -> bool:
    """Whether each of two players is within the other's range."""
    gap = abs(rating_a - rating_b)
    return _covers(search_range(waited_a), gap) and _covers(search_range(waited_b), gap)


@dataclass(frozen=True)
class Waiting:
    """A quick-match entry as the pairing sees it: its game, its player, the player's shown rating
    in the entry's rule set, and when it was made (seconds, any clock the caller uses for `now`)."""

    game_id: str
    user_id: int
    rating: int
    since: float


def closest_first(
    entries: Iterable[Waiting],
    now: float,
    may_play: Callable[[Waiting, Waiting], bool] = lambda a, b: True,
) -> list[tuple[Waiting, Waiting]]:
    """The pairs a sweep makes at `now`: of every two entries within each other's ranges (and that
    `may_play`, e.g. not two accounts of one browser), the closest in rating first (then the one
    waiting longest), each entry once. Each pair is (earlier entry, later entry).

    >>> a, b, c = Waiting("a", 1, 1500, 0), Waiting("b", 2, 1700, 1), Waiting("c", 3, 1580, 2)
    >>> [(x.game_id, y.game_id) for x, y in closest_first([a, b, c], now=4)]
    [('a', 'c')]
    """
    ordered = sorted(entries, key=lambda e: (e.since, e.game_id))
    candidates = []
    for i, first in enumerate(ordered):
        for later in ordered[i + 1 :]:
            if may_meet(first.rating, now - first.since, later.rating, now - later.since) and (
                may_play(first, later)
            ):
                candidates.append((abs(first.rating - later.rating), first.since, i, first, later))
    pairs = []
    taken: set[str] = set()
    for _gap, _since, _i, first, later in sorted(candidates, key=lambda c: c[:3]):
        if first.game_id in taken or later.game_id in taken:
            continue
        taken.update((first.game_id, later.game_id))
        pairs.append((first, later))
    return pairs
