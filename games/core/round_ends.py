"""How a round can end, and what else happens when it does.

`RoundEnd` is one list for the code that ends rounds, settles stakes and scores results. The ranked ends
order the seats by place (a side that gave up is last); the unranked ones count for nobody, and every
stake goes back. The values are the strings stored in `Round.how` and `Result.how`.

The round-end handlers: the apps above the games' core register them (in their AppConfig.ready), and
`finish_round` (games.actions.rounds) calls them inside the transaction of the action that ends the
round. So the core imports nothing above itself, and still a round can't be over and unpaid or
unscored: a handler that raises rolls the whole action back.

Handlers run stage by stage, and within a stage in the order they were registered:

    SETTLE  the coins: a staked game's escrow closes (games.staking.settlement, registered by
            games/apps.py); it sets `EndedRound.coins`
    RECORD  the results, with the coins the settlement paid (leaderboard.results, registered by
            leaderboard/apps.py), and the ratings they move
    FOLLOW  what the result leads to: a tournament's match is decided, its winner seated in the next
            match (games.tournaments.handlers); after RECORD, so a room that opens here shows its
            players' ratings with this round counted
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..models import Game, Seat


class RoundEnd(StrEnum):
    WON = "won"  # the winning move
    RESIGN = "resign"  # the last opponent resigned
    LEAVE = "leave"  # the last opponent left a room in play
    ABANDON = "abandon"  # a computer or pass & play game dropped, or a room closed mid-game
    WIPE = "wipe"  # a new round asked for over the round in play (the asker gave it up)
    AGREED = "agreed"  # everyone agreed to end it
    IDLE = "idle"  # closed by the idle sweeper
    VOID = "void"  # a moderator's void, or a staked game both players left
    CANCEL = "cancel"  # a room closed before its start


RANKED = frozenset({RoundEnd.WON, RoundEnd.RESIGN, RoundEnd.LEAVE, RoundEnd.ABANDON, RoundEnd.WIPE})
UNRANKED = frozenset({RoundEnd.AGREED, RoundEnd.IDLE, RoundEnd.VOID, RoundEnd.CANCEL})
ENDS = RANKED | UNRANKED
# Played out (or given up): the game is finished; the others leave it abandoned.
PLAYED = frozenset({RoundEnd.WON, RoundEnd.RESIGN, RoundEnd.LEAVE, RoundEnd.WIPE})


class Stage(IntEnum):
    SETTLE = 1
    RECORD = 2
    FOLLOW = 3


@dataclass
class EndedRound:
    """The round that just ended, as its handlers see it (the game is not saved yet)."""

    game: Game
    seats: list[Seat]
    places: list[int]  # seat indexes, winner first; [] for an end that ranks nobody
    how: RoundEnd
    coins: dict[int, int] = field(default_factory=dict)  # {seat index: won (+) or lost (-)}: SETTLE


Handler = Callable[[EndedRound], None]
_HANDLERS: dict[Stage, list[Handler]] = {stage: [] for stage in Stage}


def on_round_end(stage: Stage, handler: Handler) -> None:
    """Call `handler` at `stage` of every round's end from now on (once, however often it is added)."""
    if handler not in _HANDLERS[stage]:
        _HANDLERS[stage].append(handler)


def handlers() -> list[tuple[Stage, Handler]]:
    """Every registered handler, in the order they run."""
    return [(stage, handler) for stage in Stage for handler in _HANDLERS[stage]]


def run_handlers(ended: EndedRound) -> None:
    if not _HANDLERS[Stage.RECORD]:
        # Django not set up (or an app's ready() skipped): a round ending now would leave no results.
        raise RuntimeError("No round-end handler is registered: the apps are not ready.")
    for _, handler in handlers():
        handler(ended)
