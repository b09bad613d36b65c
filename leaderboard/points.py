"""Points for a game's places (docs/rules.md "Places and points"): last place scores 0; two players
10 / 0; three 10 / 6 / 0; four 10 / 6 / 3 / 0.
"""

from __future__ import annotations

POINTS = {2: (10, 0), 3: (10, 6, 0), 4: (10, 6, 3, 0)}


def points_for(place: int, players: int) -> int:
    """Points for finishing in `place` (1 is first) among `players`.

    >>> [points_for(p, 4) for p in (1, 2, 3, 4)], [points_for(p, 3) for p in (1, 2, 3)]
    ([10, 6, 3, 0], [10, 6, 0])
    """
    table = POINTS[players]
    if not 1 <= place <= len(table):
        raise ValueError(f"place {place} does not exist among {players} players")
    return table[place - 1]
