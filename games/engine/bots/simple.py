"""The two simple levels: `random` (any legal move, uniformly) and `greedy` (a fixed order of wishes)."""

from __future__ import annotations

import random

from ..game import apply_move
from ..state import HOME, YARD, Move, State
from .geometry import corners, is_safe

CAPTURE_EVENTS = frozenset({"captured", "killed"})


def random_move(moves: tuple[Move, ...], rng: random.Random) -> Move:
    return moves[rng.randrange(len(moves))]


def greedy_rank(state: State, move: Move, corner: int) -> tuple[int, int]:
    """How much greedy wants `move`: (wish, progress of the moving token); higher is better.

    Wishes, strongest first: capture (or `twodice` kill), bring a token home, leave the yard, land on a
    square where it can't be captured (safe square or own home column), anything else. Within one wish
    the token furthest ahead moves, so "anything else" means "the token furthest ahead".
    """
    frm = state.tokens[state.colours.index(move.colour)][move.index]
    _, events = apply_move(state, move)
    if any(e.kind in CAPTURE_EVENTS for e in events):
        wish = 4
    elif move.to == HOME:
        wish = 3
    elif frm == YARD:
        wish = 2
    elif is_safe(state, corner, move.to):
        wish = 1
    else:
        wish = 0
    return wish, frm


def greedy_move(state: State, moves: tuple[Move, ...]) -> Move:
    """The first legal move with the best `greedy_rank` (legal order breaks the remaining ties)."""
    corner_of = dict(zip(state.colours, corners(state), strict=True))
    return max(moves, key=lambda m: greedy_rank(state, m, corner_of[m.colour]))
