"""`duel` (docs/rules.md "Duel"): Red v Blue from opposite corners. A capture sends every rival
pawn on the square home, and only a 6 earns another roll.

>>> from games import engine
>>> s = engine.new_game("duel", [["red"], ["blue"]])
>>> s, _ = engine.roll(s, [3])  # nothing can move: the turn passes to blue
>>> s.turn, s.awaiting
(1, 'roll')
"""

from __future__ import annotations

from typing import Any

from . import onedie
from .state import MalformedError

NAME = "duel"
DICE = 1
OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {}

# Duel seats blue opposite red, on corner 2 (its start is square 26), not on blue's usual corner 3.
CORNERS = {"red": 0, "blue": 2}
PLAYERS = (("red",), ("blue",))
SEAT_COUNTS: tuple[int, ...] = (2,)
FIRST_TURN_PASSES = False  # red starts every round (docs/rules.md "Duel")

VARIANT = onedie.Variant(
    name=NAME,
    corners=CORNERS,
    protect_pairs=False,
    bonus_for_capture_and_home=False,
    undo_three_sixes=False,
    play_for_every_place=False,
)


def seat_colours(count: int) -> tuple[tuple[str, ...], ...]:
    if count != 2:
        raise MalformedError(f"duel is played by 2 players, not {count}")
    return PLAYERS


def check_players(players: tuple[tuple[str, ...], ...]) -> None:
    if players != PLAYERS:
        raise MalformedError('duel is played by exactly [["red"], ["blue"]]')


# start, legal_moves, roll and apply are the one-die engine's, set to this variant.
start, legal_moves, roll, apply = onedie.bind(VARIANT)
