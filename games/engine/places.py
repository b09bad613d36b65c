"""`places` (docs/rules.md "Places"): play on until every place is decided; three 6s undo all three.
Options `pairs` (UP Way: pairs move together by half an even roll, block and capture pairs) and `hold`
(numbers go into a hand, owed rolls can wait), which may be combined.

>>> from games import engine
>>> s = engine.new_game("places", [["red"], ["yellow"]], {"hold": True})
>>> s, _ = engine.roll(s, [6])
>>> s.awaiting, s.dice, s.rolls
('move', (6,), 1)
"""

from __future__ import annotations

from typing import Any

from . import onedie
from .board import CORNER

NAME = "places"
DICE = 1
OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "hold": (False, (False, True)),
    "pairs": (False, (False, True)),
}

VARIANT = onedie.Variant(
    name=NAME,
    corners=CORNER,
    protect_pairs=False,  # without `pairs` two tokens on a square are just two singles
    bonus_for_capture_and_home=True,
    undo_three_sixes=True,
    play_for_every_place=True,
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
