"""The board every rule set shares (docs/rules.md "The board"): corners, track, safe squares.

A token's position is its **progress** from its own start square: -1 in the yard, 0..50 on the shared
track, 51..55 in its own home column, 56 home. Which square of the shared track a progress is depends
only on the corner the colour plays from, so the tables below are indexed by corner and built once at
import: the rule sets look squares up instead of doing modular arithmetic in their hot loops.

>>> square_of(CORNER["green"], 0), square_of(2, 8), is_safe_square(21)
(13, 34, True)
>>> progress_on_square(1, 0)  # green reaches square 0 after 39 steps
39
"""

from __future__ import annotations

from .state import HOME, LAST_TRACK, YARD

COLOURS = ("red", "green", "yellow", "blue")
# A colour's own corner (classic, places, twodice); duel moves blue to corner 2, see duel.py.
CORNER = {"red": 0, "green": 1, "yellow": 2, "blue": 3}

TRACK_SQUARES = 52
SQUARES_PER_CORNER = 13  # corner k starts on square 13k
STAR_OFFSET = 8  # and its star is 8 squares further on
FIRST_COLUMN = LAST_TRACK + 1  # 51..55: the colour's own home column
EXIT_ROLL = 6  # the number that brings a token out of the yard (one-die rule sets)

SAFE_SQUARES = frozenset(
    square
    for k in range(4)
    for square in (SQUARES_PER_CORNER * k, SQUARES_PER_CORNER * k + STAR_OFFSET)
)

# The square a corner's token never visits (the one before its start: it turns into its column at
# 50). `progress_on_square` answers this for such squares, a number no token ever has, so that
# `tokens.count(NOT_ON_PATH)` is 0 without a branch.
NOT_ON_PATH = -99


def start_square(corner: int) -> int:
    """Square number of corner `corner`'s start square (where its tokens come out).

    >>> [start_square(k) for k in range(4)]
    [0, 13, 26, 39]
    """
    return SQUARES_PER_CORNER * corner


def star_square(corner: int) -> int:
    """Square number of corner `corner`'s star.

    >>> [star_square(k) for k in range(4)]
    [8, 21, 34, 47]
    """
    return SQUARES_PER_CORNER * corner + STAR_OFFSET


def square_of(corner: int, progress: int) -> int:
    """The shared-track square of a token of `corner` at track progress 0..50.

    >>> square_of(3, 13)  # blue, 13 steps on, is on red's start square
    0
    """
    if not 0 <= progress <= LAST_TRACK:
        raise ValueError(f"progress {progress} is not on the shared track (0..{LAST_TRACK})")
    return (SQUARES_PER_CORNER * corner + progress) % TRACK_SQUARES


def is_safe_square(square: int) -> bool:
    """Whether nobody can be captured on `square` (one-die rule sets; twodice has no safe squares)."""
    return square in SAFE_SQUARES


def on_track(progress: int) -> bool:
    """Whether a token at `progress` is on the shared track (where it can meet other colours)."""
    return 0 <= progress <= LAST_TRACK


def progress_on_square(corner: int, square: int) -> int:
    """The progress at which a token of `corner` stands on `square`, or NOT_ON_PATH if it never does.

    >>> progress_on_square(0, 51)  # red turns into its column before square 51
    -99
    """
    return PROGRESS_ON_SQUARE[corner][square]


def cell_of(corner: int, progress: int) -> int | None:
    """A number naming the place a token stands, equal for two tokens exactly when they share it.

    Shared-track squares are 0..51, home-column squares 52.. (one set per corner), the yard and home
    are not places (None): tokens there never meet.

    >>> cell_of(0, 13) == cell_of(1, 0), cell_of(0, 51), cell_of(0, 51) == cell_of(1, 51)
    (True, 52, False)
    """
    if 0 <= progress <= LAST_TRACK:
        return (SQUARES_PER_CORNER * corner + progress) % TRACK_SQUARES
    if FIRST_COLUMN <= progress < HOME:
        return TRACK_SQUARES + 5 * corner + (progress - FIRST_COLUMN)
    return None


# SQUARE[corner][progress] for progress 0..56: the track square, or -1 off the track (column, home).
SQUARE: tuple[tuple[int, ...], ...] = tuple(
    tuple(square_of(k, p) if p <= LAST_TRACK else -1 for p in range(HOME + 1)) for k in range(4)
)

# PROGRESS_ON_SQUARE[corner][square]: inverse of SQUARE on the track.
PROGRESS_ON_SQUARE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        p if (p := (square - SQUARES_PER_CORNER * k) % TRACK_SQUARES) <= LAST_TRACK else NOT_ON_PATH
        for square in range(TRACK_SQUARES)
    )
    for k in range(4)
)

# SAFE_PROGRESS[corner][progress] for 0..56: True on a safe track square. Home-column squares are
# False here; no rival can reach them anyway.
SAFE_PROGRESS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(SQUARE[k][p] >= 0 and SQUARE[k][p] in SAFE_SQUARES for p in range(HOME + 1))
    for k in range(4)
)

__all__ = [
    "COLOURS",
    "CORNER",
    "EXIT_ROLL",
    "FIRST_COLUMN",
    "HOME",
    "LAST_TRACK",
    "NOT_ON_PATH",
    "PROGRESS_ON_SQUARE",
    "SAFE_PROGRESS",
    "SAFE_SQUARES",
    "SQUARE",
    "SQUARES_PER_CORNER",
    "STAR_OFFSET",
    "TRACK_SQUARES",
    "YARD",
    "cell_of",
    "is_safe_square",
    "on_track",
    "progress_on_square",
    "square_of",
    "star_square",
    "start_square",
]
