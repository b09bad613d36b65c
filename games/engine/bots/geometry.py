"""What the bots need to know about the board: corners, squares, safety and the chance of a hit.

The board itself (corners, safe squares) comes from `board.py`; the hit tables are the bots' own model
of the dice (docs/rules.md "Turns with one die", "Two dice").
"""

from __future__ import annotations

from ..board import CORNER as CORNERS
from ..board import SAFE_SQUARES, TRACK_SQUARES
from ..duel import CORNERS as DUEL_CORNERS
from ..state import HOME, LAST_TRACK, YARD, State

TRACK = TRACK_SQUARES


def corners(state: State) -> tuple[int, ...]:
    """The corner of every colour in play, parallel to `state.colours`."""
    table = DUEL_CORNERS if state.ruleset == "duel" else CORNERS
    return tuple(table[c] for c in state.colours)


def square(corner: int, progress: int) -> int:
    """The track square (0-51) of a token of `corner` at track progress 0..50."""
    return (13 * corner + progress) % TRACK


def on_track(progress: int) -> bool:
    return 0 <= progress <= LAST_TRACK


def in_column(progress: int) -> bool:
    """In its own home column: no rival can ever reach it."""
    return LAST_TRACK < progress < HOME


def has_safe_squares(state: State) -> bool:
    return state.ruleset != "twodice"


def is_safe(state: State, corner: int, progress: int) -> bool:
    """Whether a token standing at `progress` can't be captured there, whatever rivals roll."""
    if progress == YARD or progress >= HOME or in_column(progress):
        return True
    return has_safe_squares(state) and square(corner, progress) in SAFE_SQUARES


def _one_die_hits() -> tuple[float, ...]:
    """P(a rival's next turn lands exactly d squares ahead with one token), one die, d = 0..18.

    d 1-6 is one roll; 7-12 needs a 6 first (the bonus roll), 13-18 two 6s (a third 6 is never played).
    """
    table = [0.0] * 19
    for d in range(1, 19):
        sixes = (d - 1) // 6
        table[d] = (1 / 6) ** (sixes + 1)
    return tuple(table)


def _two_dice_hits() -> tuple[float, ...]:
    """P(one seed of a two-dice hand lands exactly d squares ahead), d = 0..12.

    A seed can land on either die alone or on their sum (first landing counts, docs/rules.md).
    Double-six continuations are rare (1/36) and ignored.
    """
    table = [0.0] * 13
    for d in range(1, 13):
        hits = sum(1 for a in range(1, 7) for b in range(1, 7) if d in (a, b, a + b))
        table[d] = hits / 36
    return tuple(table)


ONE_DIE_HITS = _one_die_hits()
TWO_DICE_HITS = _two_dice_hits()
