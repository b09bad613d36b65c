"""Computer players for every rule set and option: `random`, `greedy` and `strong`.

Bots are pure functions of the position and a `random.Random` (no I/O, no clock), so the site can let a
bot play a timed-out seat in any process, and tests and benchmarks replay them exactly.

>>> import random
>>> from games import engine
>>> from games.engine.bots import choose_action
>>> s = engine.new_game("classic", [["red"], ["yellow"]])
>>> choose_action(s, "strong", random.Random(1))
'roll'
>>> s, _ = engine.roll(s, [6])
>>> choose_action(s, "greedy", random.Random(1)).to
0
"""

from __future__ import annotations

import random

from ..game import can_roll, legal_moves
from ..state import MOVE, IllegalMoveError, Move, State
from .simple import greedy_move, random_move
from .strong import strong_move, wants_to_play_first

LEVELS = ("random", "greedy", "strong")
ROLL_ACTION = "roll"


def _rng_for(state: State, rng: random.Random | None) -> random.Random:
    # Without a generator, seed one from the position (ints only, so the hash is stable across runs).
    return rng if rng is not None else random.Random(hash((state.tokens, state.dice, state.turn)))


def choose_move(state: State, level: str, rng: random.Random | None = None) -> Move:
    """The move `level` plays in `state`, which must be awaiting a move that can be made.

    Raises ValueError for an unknown level and IllegalMoveError when there is no move to choose.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    moves = legal_moves(state)
    if not moves:
        raise IllegalMoveError("there is no move to choose: a roll is awaited or the game is over")
    if level == "random":
        return random_move(moves, _rng_for(state, rng))
    if level == "greedy":
        return greedy_move(state, moves)
    return strong_move(state, moves)


def choose_action(state: State, level: str, rng: random.Random | None = None) -> str | Move:
    """What `level` does next: "roll", or a Move. Works in every rule set; it matters with `hold`.

    With `hold` a player owed a roll may roll or use a number of the hand first. `random` picks uniformly
    among rolling and every legal move; `greedy` always rolls first (more numbers, more choice); `strong`
    rolls first unless a run of three 6s could wipe the hand (see `strong.wants_to_play_first`).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    if state.finished:
        raise IllegalMoveError("the game is over")
    moves = legal_moves(state) if state.awaiting == MOVE else ()
    if not moves:
        return ROLL_ACTION
    if can_roll(state):
        if level == "random":
            generator = _rng_for(state, rng)
            pick = generator.randrange(len(moves) + 1)
            return ROLL_ACTION if pick == len(moves) else moves[pick]
        if level == "greedy" or not wants_to_play_first(state):
            return ROLL_ACTION
    return choose_move(state, level, rng)


__all__ = ["LEVELS", "ROLL_ACTION", "choose_action", "choose_move"]
