"""`classic` (docs/rules.md "Classic"): family Ludo. Safe stars, pairs can't be captured, bonus roll
for a 6, a capture or a token home, and the first player home wins.

>>> from games import engine
>>> s = engine.new_game("classic", [["red"], ["yellow"]], {"tokens": 2})
>>> s, _ = engine.roll(s, [6])
>>> [m.to for m in engine.legal_moves(s)]
[0, 0]
"""

from __future__ import annotations

from typing import Any

from . import onedie
from .board import CORNER

NAME = "classic"
DICE = 1
OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {"tokens": (4, (4, 2))}

VARIANT = onedie.Variant(
    name=NAME,
    corners=CORNER,
    protect_pairs=True,
    bonus_for_capture_and_home=True,
    undo_three_sixes=False,  # the third 6 is cancelled; the moves of the first two stand
    play_for_every_place=False,
)


# Each colour plays from its own corner; 2 to 4 seats, coloured as docs/rules.md "Classic" says.
CORNERS = CORNER
SEAT_COUNTS = onedie.SEAT_COUNTS
FIRST_TURN_PASSES = True
seat_colours = onedie.default_players


def check_players(players: tuple[tuple[str, ...], ...]) -> None:
    onedie.check_one_colour_each(NAME, players)


# start, legal_moves, roll and apply are the one-die engine's, set to this variant.
start, legal_moves, roll, apply = onedie.bind(VARIANT)
