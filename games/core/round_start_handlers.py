"""What else happens when a round starts: handlers that apps above the games' core register (in their
AppConfig.ready), which `games.actions.setup.start_round` calls in the transaction that starts the
round, before the game is saved and pushed. The leaderboard writes each account's rating on its seat
there (leaderboard.ratings.seats), so the board shows it with no query of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..models import Game, Seat

Handler = Callable[["Game", "list[Seat]"], None]
_HANDLERS: list[Handler] = []


def on_round_start(handler: Handler) -> None:
    """Call `handler(game, seats)` at the start of every round from now on (once, however often it is
    added)."""
    if handler not in _HANDLERS:
        _HANDLERS.append(handler)


def run_start_handlers(game: Game, seats: list[Seat]) -> None:
    for handler in _HANDLERS:
        handler(game, seats)
