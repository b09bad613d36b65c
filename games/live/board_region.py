"""The board's region (#live-board), built here and kept by what it is drawn from.

A version's board is drawn twice (for the one to play, their tokens movable and their moves' targets
lit, and for everyone else), and mostly as the last version drew it: after a roll, everyone else's
board is unchanged; after a move, the one to play has nothing to move yet, so both are the same. The
drawn pieces are kept by the drawing's inputs (not by game or version: two boards alike are one),
so each board is drawn once; the ground and the routes are kept per layout (games.live.board_view).
The template engine took about 0.1 ms for the region's few lines (templates/partials/board.svg.html,
which the home page and the replays still include, draws the same svg element).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from ..core.lru import Recent
from .board_view import board_context

# Drawn pieces by their inputs: a few KB each, two live per game at a time.
_DRAWN: Recent[str, dict[str, str]] = Recent(4096)

BOARD_LABEL = "Ludo board"


def drawn_board(
    tokens: Mapping[str, Iterable[int]],
    *,
    ruleset: str | None,
    movable: Iterable[tuple[str, int]],
    targets: list[dict],
    last_moved: tuple[str, int] | None,
) -> dict[str, str]:
    """board_context's ground, pieces and routes for these inputs, drawn once per process."""
    tokens = {colour: list(progresses) for colour, progresses in tokens.items()}
    movable = sorted(movable)
    key = repr((ruleset, tokens, movable, targets, last_moved))
    found = _DRAWN.get(key)
    if found is None:
        drawn = board_context(
            tokens, ruleset=ruleset, movable=movable, targets=targets, last_moved=last_moved
        )
        found = {k: drawn[k] for k in ("board_ground", "board_pieces", "board_routes_json")}
        _DRAWN.put(key, found)
    return found


def board_region(context: dict[str, Any]) -> str:
    """#live-board for the board's `context` (its drawing from `drawn_board`)."""
    frame = "board-frame my-turn" if context["my_turn"] else "board-frame"
    routes = context["board_routes_json"]
    data_routes = f' data-routes="{escape(routes)}"' if routes else ""
    return (
        f'<div id="live-board" class="live-region"><div class="{frame}">\n'
        f'<svg class="board" viewBox="0 0 600 600" role="img" aria-label="{BOARD_LABEL}"'
        f' id="game-board" data-testid="board"{data_routes}>{context["board_ground"]}\n'
        f"  {context['board_pieces']}\n</svg>\n</div></div>"
    )
