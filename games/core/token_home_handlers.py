"""What else happens when a token reaches home and the round goes on: handlers that apps above the
games' core register (in their AppConfig.ready), which `games.actions.turns` calls in the transaction
of the move, before the game is saved. A tournament's bracket shows its matches' tokens home as they
come in (games.tournaments.handlers.score_moved). A move that ends the round calls the round-end
handlers instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine import State
    from ..models import Game

Handler = Callable[["Game", "State"], None]
_HANDLERS: list[Handler] = []


def on_token_home(handler: Handler) -> None:
    """Call `handler(game, new_state)` after every move that brings a token home from now on (once,
    however often it is added)."""
    if handler not in _HANDLERS:
        _HANDLERS.append(handler)


def run_home_handlers(game: Game, state: State) -> None:
    for handler in _HANDLERS:
        handler(game, state)
