"""Turns token positions into what the board partial draws (cells, yards, tokens, targets, paths)."""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from .. import engine
from ..core import caches
from .board_layout import COLOURS, board_cells, token_cell, track_cell, yards
from .board_layout import home_column_cells as _column
from .board_pieces import pieces_svg

CELL = 40
# The corner each colour is painted in; a board without a rule set (the home page's) plays them there.
DEFAULT_CORNERS = {colour: corner for corner, colour in enumerate(COLOURS)}


def corners_for(ruleset: str | None) -> dict[str, int]:
    """Where each colour plays from: the rule set says (duel seats blue opposite red)."""
    return engine.corners(ruleset) if ruleset else dict(DEFAULT_CORNERS)


def _centre(cell: tuple[float, float]) -> tuple[float, float]:
    row, col = cell
    return col * CELL + CELL / 2, row * CELL + CELL / 2


def _spread(n: int) -> list[tuple[float, float, float]]:
    """Offsets (dx, dy) and radius for n tokens sharing one cell: readable, never hidden."""
    if n == 1:
        return [(0, 0, 14)]
    if n == 2:
        return [(-7, -5, 11), (7, 5, 11)]
    cols = math.ceil(math.sqrt(n))
    step = 30 / cols
    radius = max(5.5, step / 2 + 0.5)
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        out.append(((c - (cols - 1) / 2) * step, (r - (cols - 1) / 2) * step, radius))
    return out


def _home_spread(n: int, cx: float, cy: float) -> list[tuple[float, float, float]]:
    """Offsets and radius for n finished tokens on their colour's triangle of the centre: in a row
    along the triangle's base, so none covers another (a grid in the triangle's middle overlapped)."""
    vx, vy = cx - 300, cy - 300  # from the board's centre to the triangle's middle
    length = math.hypot(vx, vy) or 1.0
    out_x, out_y = vx / length * 12, vy / length * 12  # nearer the base, where the triangle is wide
    tx, ty = -vy / length, vx / length  # along the base
    step = 20 if n > 2 else 22
    return [
        (out_x + tx * (i - (n - 1) / 2) * step, out_y + ty * (i - (n - 1) / 2) * step, 8.5)
        for i in range(n)
    ]


def cell_for(corner: int, index: int, progress: int) -> tuple[float, float]:
    return token_cell(corner, index, progress)


def path_cells(corner: int, frm: int, to: int) -> list[tuple[float, float]]:
    """The cells a token passes through from progress `frm` to `to` (both excluded: the steps between)."""
    if frm < 0:
        return []
    cells: list[tuple[float, float]] = []
    for p in range(frm + 1, min(to, engine.HOME)):
        if p <= engine.LAST_TRACK:
            cells.append(track_cell(13 * corner + p))
        else:  # the home column, LAST_TRACK + 1 .. HOME - 1
            cells.append(_column(corner)[p - engine.LAST_TRACK - 1])
    return cells


def board_context(
    tokens: Mapping[str, Iterable[int]],
    *,
    ruleset: str | None = None,
    movable: Iterable[tuple[str, int]] = (),
    targets: Iterable[dict] = (),
    last_moved: tuple[str, int] | None = None,
) -> dict:
    """Context for templates/partials/board.svg.html.

    `movable`: tokens the viewer can move now; `targets`: the legal moves ({colour, index, to, ...}),
    drawn as glowing destinations with the path to them.
    """
    corners = corners_for(ruleset)
    corner_colour = {corner: colour for colour, corner in corners.items()}
    movable = set(movable)
    placed: dict[tuple[float, float], list[tuple[str, int, int]]] = defaultdict(list)
    for colour, progresses in tokens.items():
        corner = corners.get(colour, DEFAULT_CORNERS.get(colour, 0))
        for index, progress in enumerate(progresses):
            placed[token_cell(corner, index, progress)].append((colour, index, progress))
    drawn = []
    for cell, group in placed.items():
        cx, cy = _centre(cell)
        finished = group[0][2] >= engine.HOME  # a home cell holds only its colour's finished tokens
        spread = _home_spread(len(group), cx, cy) if finished else _spread(len(group))
        for (colour, index, progress), (dx, dy, r) in zip(group, spread, strict=True):
            drawn.append(
                {
                    "colour": colour,
                    "index": index,
                    "label": index + 1,
                    "progress": progress,
                    "cx": round(cx + dx, 1),
                    "cy": round(cy + dy, 1),
                    "r": r,
                    "small": r < 12,
                    "movable": (colour, index) in movable,
                    "last": last_moved == (colour, index),
                    "where": _where(progress),
                }
            )
    drawn.sort(key=lambda t: (t["movable"], t["last"]))  # movable tokens on top, easy to hit
    progress_of = {(c, i): p for c, ps in tokens.items() for i, p in enumerate(ps)}
    drawn_targets = []
    for t in targets:
        colour, index, to = t["colour"], t["index"], t["to"]
        corner = corners.get(colour, 0)
        frm = progress_of.get((colour, index), -1)
        x, y = _centre(token_cell(corner, index, min(to, engine.HOME)))
        path = [_centre(c) for c in path_cells(corner, frm, to)]
        drawn_targets.append(
            {
                **t,
                "x": x,
                "y": y,
                "path": [{"x": px, "y": py} for px, py in path],
            }
        )
    return {
        "board_ground": _ground(
            tuple(sorted(corner_colour.items())), frozenset(tokens), ruleset is not None
        ),
        "board_tokens": drawn,
        "board_targets": drawn_targets,
        "board_pieces": pieces_svg(drawn, drawn_targets),
        "board_routes_json": _routes_json(tuple(tokens), tuple(sorted(corners.items()))),
    }


@lru_cache(maxsize=64)
def _ground(corner_colour_items: tuple, playing: frozenset, has_ruleset: bool) -> str:
    """The board under the tokens (yards, squares, centre), rendered once per layout and process: it
    was most of a board's rendering, and a game's layout never changes. `playing`: the colours that
    have tokens (none: the empty board, every yard lit)."""
    corner_colour = dict(corner_colour_items)
    cells = []
    for cell in board_cells():
        cell = dict(cell)
        if cell["kind"] == "start":
            corner = cell["square"] // 13
            cell["colour"] = corner_colour.get(corner, COLOURS[corner])
            cell["rotate"] = 90 * corner
            cell["inactive"] = corner not in corner_colour
        elif cell["kind"] == "column":
            corner = COLOURS.index(cell["colour"])
            cell["colour"] = corner_colour.get(corner, COLOURS[corner])
            cell["inactive"] = corner not in corner_colour
        cells.append(cell)
    yard_list = []
    for corner, yard in enumerate(yards()):
        yard = dict(yard)
        yard["colour"] = corner_colour.get(corner, COLOURS[corner])
        yard["inactive"] = bool(playing) and corner not in corner_colour
        yard["inactive"] = yard["inactive"] or (
            bool(playing) and yard["colour"] not in playing and has_ruleset
        )
        yard_list.append(yard)
    centre = [corner_colour.get(k, COLOURS[k]) for k in range(4)]
    layout = {"cells": cells, "yards": yard_list, "centre": centre}
    inner = render_to_string("partials/board_ground.svg.html", {"layout": layout})
    key = hashlib.sha1(inner.encode(), usedforsecurity=False).hexdigest()[:12]
    # The template's own output (escaped by it) in a group the pushes can leave out by its key.
    markup = mark_safe(f'<g id="board-ground" data-ground="{key}">{inner}</g>')  # noqa: S308
    caches.GROUNDS[key] = markup  # for the pushes that leave it out
    return markup


@lru_cache(maxsize=64)
def _routes_json(colours: tuple[str, ...], corner_items: tuple) -> str:
    """The routes as the board's data attribute: the same for every board of a layout, so made once
    per layout and process."""
    routed = routes(dict.fromkeys(colours, ()), dict(corner_items))
    return json.dumps(routed, separators=(",", ":"))


def routes(tokens: Mapping[str, Iterable[int]], corners: Mapping[str, int]) -> dict:
    """Cell centres for progress 0..HOME of each colour in play: game.js walks a moved token along them."""
    out = {}
    for colour in tokens:
        corner = corners.get(colour, DEFAULT_CORNERS.get(colour, 0))
        out[colour] = [list(_centre(token_cell(corner, 0, p))) for p in range(engine.HOME + 1)]
    return out


def _where(progress: int) -> str:
    if progress < 0:
        return "in the yard"
    if progress >= engine.HOME:
        return "home"
    if progress > engine.LAST_TRACK:
        return f"in the home column, {engine.HOME - progress} from home"
    return f"{progress} steps out"


def where_to(options: Iterable[dict]) -> str:
    """Where a token's moves take it, for a token button's name: "to 9 steps out", "home"."""
    places = []
    for o in options:
        to = o["to"]
        if to >= engine.HOME:
            place = "home"
        elif to > engine.LAST_TRACK:
            place = f"into the home column, {engine.HOME - to} from home"
        elif to == 0:
            place = "out to the start square"
        else:
            place = f"to {to} steps out"
        if place not in places:
            places.append(place)
    return " or ".join(places)
