"""Ludopat's rules engine: the four rule sets of docs/rules.md in pure Python (no Django import).

>>> from games import engine
>>> s = engine.new_game("classic", [["red"], ["yellow"]])
>>> s, events = engine.roll(s, [6])
>>> [m.to_json() for m in engine.legal_moves(s)][0]
{'token': ['red', 0], 'die': 6, 'pair': False, 'to': 0}
"""

from .game import (
    apply_move,
    can_roll,
    corners,
    find_move,
    legal_moves,
    move,
    new_game,
    next_round_players,
    roll,
    ruleset,
    seat_colours,
    seat_counts,
)
from .state import (
    FINISHED,
    HOME,
    LAST_TRACK,
    MOVE,
    PLAYING,
    ROLL,
    YARD,
    EngineError,
    Event,
    IllegalMoveError,
    MalformedError,
    Move,
    State,
)

__all__ = [
    "FINISHED",
    "HOME",
    "LAST_TRACK",
    "MOVE",
    "PLAYING",
    "ROLL",
    "YARD",
    "EngineError",
    "Event",
    "IllegalMoveError",
    "MalformedError",
    "Move",
    "State",
    "apply_move",
    "can_roll",
    "corners",
    "find_move",
    "legal_moves",
    "move",
    "new_game",
    "next_round_players",
    "roll",
    "ruleset",
    "seat_colours",
    "seat_counts",
]
