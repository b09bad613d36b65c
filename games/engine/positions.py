"""Build an arbitrary one-die position from a token dict: for tests, puzzles and bot experiments.

>>> from games.engine import legal_moves
>>> s = position("classic", {"red": [5, -1, -1, -1], "yellow": [-1] * 4}, dice=(3,))
>>> s.awaiting, [m.to for m in legal_moves(s)]
('move', [8])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import game
from .onedie import NO_SIXES
from .state import MOVE, ROLL, State


def position(
    ruleset: str,
    tokens: Mapping[str, Sequence[int]],
    *,
    turn: int = 0,
    dice: Sequence[int] = (),
    rolls: int = 0,
    awaiting: str | None = None,
    options: Mapping[str, Any] | None = None,
    places: Sequence[int] = (),
    memo: Any = NO_SIXES,
) -> State:
    """A position of `ruleset` with the given progress per colour (players in the dict's order).

    `awaiting` defaults to "move" when `dice` are given, else "roll". `memo` is the rule set's private
    memory (for one-die rule sets: `(sixes rolled in a row, undo)`, see onedie.py).
    """
    players = [[colour] for colour in tokens]
    start = game.new_game(ruleset, players, options)
    return State(
        start.ruleset,
        start.options,
        start.players,
        start.colours,
        tuple(tuple(tokens[c]) for c in start.colours),
        turn=turn,
        awaiting=awaiting or (MOVE if dice else ROLL),
        dice=tuple(dice),
        rolls=rolls,
        places=tuple(places),
        memo=memo,
    )


__all__ = ["position"]
