"""Where things sit on the 15 x 15 board picture: grid cells for track squares, home columns and yards.

Pure geometry for drawing (the rules live in games.engine). Row 0 is the top, column 0 the left. Corner 0
(top left) is red's; every other corner is the same picture turned a quarter clockwise.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

SIZE = 15
COLOURS = ("red", "green", "yellow", "blue")  # by corner, clockwise from the top left
SAFE_SQUARES = frozenset({0, 8, 13, 21, 26, 34, 39, 47})

# Corner 0's quarter of the loop, squares 0..12, as (row, col).
_QUARTER = [(6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (5, 6), (4, 6), (3, 6), (2, 6), (1, 6), (0, 6),
            (0, 7), (0, 8)]  # fmt: skip
_HOME_COLUMN = [(7, 1), (7, 2), (7, 3), (7, 4), (7, 5)]  # progress 51..55 of corner 0
_YARD = [(1.5, 1.5), (1.5, 3.5), (3.5, 1.5), (3.5, 3.5)]  # token spots, centres of 2x2 squares


Coordinate = TypeVar("Coordinate", int, float)  # whole cells, or spots inside them


def _turn(cell: tuple[Coordinate, Coordinate], quarters: int) -> tuple[Coordinate, Coordinate]:
    row, col = cell
    for _ in range(quarters % 4):
        row, col = col, SIZE - 1 - row
    return row, col


@cache
def track_cell(square: int) -> tuple[int, int]:
    """Cell of shared-track square 0..51 (square 13k is corner k's start)."""
    corner, offset = divmod(square % 52, 13)
    return _turn(_QUARTER[offset], corner)


def token_cell(corner: int, index: int, progress: int) -> tuple[float, float]:
    """Cell a token of `corner` is drawn in, from its progress (-1 yard, 0..50 track, 51..55, 56)."""
    if progress < 0:
        return _turn(_YARD[index], corner)
    if progress <= 50:
        return track_cell(13 * corner + progress)
    if progress <= 55:
        return _turn(_HOME_COLUMN[progress - 51], corner)
    return _turn((7, 6.2), corner)  # home: the corner's side of the centre triangle


def home_column_cells(corner: int) -> list[tuple[int, int]]:
    return [_turn(c, corner) for c in _HOME_COLUMN]


def yard_origin(corner: int) -> tuple[int, int]:
    """Top-left cell of the corner's 6 x 6 yard."""
    return [(0, 0), (0, 9), (9, 9), (9, 0)][corner]


@cache
def board_cells() -> list[dict]:
    """Every track and home-column cell with what it is, for the SVG partial."""
    cells = []
    for square in range(52):
        row, col = track_cell(square)
        corner, offset = divmod(square, 13)
        kind = "start" if offset == 0 else "star" if offset == 8 else "track"
        cells.append(
            {"row": row, "col": col, "x": col * 40, "y": row * 40, "kind": kind,
             "colour": COLOURS[corner] if kind == "start" else "", "square": square}
        )  # fmt: skip
    for corner, colour in enumerate(COLOURS):
        for step, (row, col) in enumerate(home_column_cells(corner)):
            cells.append(
                {"row": row, "col": col, "x": col * 40, "y": row * 40, "kind": "column",
                 "colour": colour, "square": None, "progress": 51 + step}
            )  # fmt: skip
    return cells


def yards() -> list[dict]:
    out = []
    for corner, colour in enumerate(COLOURS):
        row, col = yard_origin(corner)
        spots = [_turn(s, corner) for s in _YARD]
        out.append(
            {"colour": colour, "x": col * 40, "y": row * 40,
             "spots": [{"cx": c * 40 + 20, "cy": r * 40 + 20} for r, c in spots]}
        )  # fmt: skip
    return out
