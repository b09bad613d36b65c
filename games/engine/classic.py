"""`classic` (RULES.md section 3): the family game. Safe stars, pairs can't be captured, a bonus roll
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
from .state import Event, Move, State

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


def check_players(players: tuple[tuple[str, ...], ...]) -> None:
    onedie.check_one_colour_each(NAME, players)


def start(options: tuple[tuple[str, Any], ...], players: tuple[tuple[str, ...], ...]) -> State:
    return onedie.start(VARIANT, options, players)


def legal_moves(state: State) -> tuple[Move, ...]:
    return onedie.legal_moves(VARIANT, state)


def roll(state: State, dice: tuple[int, ...]) -> tuple[State, list[Event]]:
    return onedie.roll(VARIANT, state, dice)


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    return onedie.apply(VARIANT, state, move)
