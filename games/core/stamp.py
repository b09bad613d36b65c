"""What a viewer's board fragment depends on, stamped in one place for the push and the render alike.

A socket given a push takes the regions of its board that this process rendered already (for another
socket of its viewpoint, or of any viewpoint where a region is the same for all) only if the push's
stamp is the one the render kept them under, so both come from `board_stamp`: the round
and version, who is present, the deadline (it moves without a new version), and a finished staked
game's rematch offer (offered, withdrawn or joined: its board shows it, its version doesn't).

What the render reads besides, the names it shows (a rename commits in any process) and what a
finished round counted (a moderator's void of its results), is stamped by `shown_stamp` and checked
by the render alone: the push would need queries of its own to know them, and a change of either
without a new version is pushed as its own event, after which every socket renders afresh.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from ..models import Game

if TYPE_CHECKING:
    from ..models import Seat


def epoch_ms(when: datetime | None) -> int:
    return int(when.timestamp() * 1000) if when is not None else 0


@dataclass(frozen=True)
class Board:
    """What of a game row its board's stamp depends on, taken when the row is saved (the push is sent
    after commit) or read (the render)."""

    game_id: str
    round: int
    version: int
    status: str
    stake: int
    deadline_ms: int

    @classmethod
    def of(cls, game: Game) -> Board:
        return cls(
            game.pk,
            game.round,
            game.version,
            game.status,
            game.stake,
            epoch_ms(game.deadline),
        )


def board_stamp(board: Board, connected: Iterable[int]) -> str:
    """The stamp of a board fragment besides its viewpoint: "<round>:<version>:<digest>" of the seats
    present, the deadline and the rematch offer."""
    here = ",".join(str(s) for s in sorted(connected))
    here += f"|{board.deadline_ms}"
    offer = rematch_offer(board)
    if offer:
        here += f"|{offer}"
    digest = hashlib.sha1(here.encode(), usedforsecurity=False).hexdigest()[:10]
    return f"{board.round}:{board.version}:{digest}"


def rematch_offer(board: Board) -> str:
    """What a finished staked game's board shows of its rematch offer (the room and its state; "" for
    any other game, with no query)."""
    if not board.stake or board.status != Game.Status.FINISHED:
        return ""
    offer = (
        Game.objects.filter(rematch_of_id=board.game_id)
        .order_by("-created", "-pk")
        .values_list("pk", "status")
        .first()
    )
    return f"{offer[0]}:{offer[1]}" if offer else ""


class Counted(Protocol):
    """What a finished round counted for a seat (leaderboard.outcomes.Outcome)."""

    @property
    def points(self) -> int: ...
    @property
    def not_counted(self) -> str: ...
    @property
    def rating_change(self) -> int | None: ...


def shown_stamp(
    seats: list[Seat], names: Mapping[int, str], outcomes: Mapping[int, Counted]
) -> str:
    """The stamp of what a board shows that its game row's version doesn't date: the names, the
    ratings on the seats, and what a finished round counted."""
    shown = [s.display_name for s in seats] + [f"{k}={v}" for k, v in sorted(names.items())]
    shown += [
        f"{k}:{o.points}:{o.not_counted}:{o.rating_change}" for k, o in sorted(outcomes.items())
    ]
    shown += [f"r{s.rating}" for s in seats]
    return hashlib.sha1("\n".join(shown).encode(), usedforsecurity=False).hexdigest()[:12]
