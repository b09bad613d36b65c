"""Turns token positions into what the board partial draws (cells, yards, token circles)."""

from __future__ import annotations

from collections import defaultdict

from .board_layout import COLOURS, board_cells, token_cell, yards

CELL = 40


def board_context(tokens: dict[str, list[int]]) -> dict:
    """Context for templates/partials/board.svg.html; tokens sharing a cell are fanned out to stay readable."""
    placed: dict[tuple[float, float], list[tuple[str, int]]] = defaultdict(list)
    for colour, progresses in tokens.items():
        corner = COLOURS.index(colour)
        for index, progress in enumerate(progresses):
            placed[token_cell(corner, index, progress)].append((colour, index))
    drawn = []
    for (row, col), group in placed.items():
        for n, (colour, index) in enumerate(group):
            shift = (n - (len(group) - 1) / 2) * 9 if len(group) > 1 else 0
            drawn.append(
                {
                    "colour": colour,
                    "index": index,
                    "label": index + 1,
                    "cx": col * CELL + CELL / 2 + shift,
                    "cy": row * CELL + CELL / 2 - shift / 2,
                }
            )
    return {"layout": {"cells": board_cells(), "yards": yards()}, "board_tokens": drawn}
