"""What the confirmation before "New round" mid-round says: truly what ending the round in play means
for points and ratings in that room, worked out as games.actions.rounds.do_new_round decides it.

- Pass & play: no results at all, so the round counts for nobody.
- A room where the viewer is the only person at the table (a game against the computer, or a friends
  room whose other seats are computers or held by the computer for players who are away): the asker
  gives the round up and it is scored with them last; rated only where every seat is a different
  account (leaderboard.results: against people).
- Otherwise the others are asked; if everyone agrees, the round counts for nobody (RoundEnd.AGREED).
"""

from __future__ import annotations

from collections.abc import Collection

from ..models import Game, Seat
from .viewpoint import Viewpoint

NOBODY_LOCAL = (
    "Start a new round? This round ends here; pass & play isn't scored, so it counts for nobody."
)
ASK_OTHERS = (
    "Ask the others for a new round? If everyone agrees, this round ends and counts for nobody: "
    "no points, no rating change."
)
GIVE_UP_UNRATED = (
    "Start a new round? You give this round up: it is scored with you in last place (0 points). "
    "No rating moves: not every seat is a player's own account."
)
GIVE_UP_RATED = (
    "Start a new round? The others are away, so you give this round up: it is scored with you in "
    "last place (0 points) and moves the ratings like any loss."
)

# Each question's short name: what of a viewer the buttons' region depends on (games.live.fragments).
CONFIRMS = {
    "": "none",
    NOBODY_LOCAL: "local",
    ASK_OTHERS: "ask",
    GIVE_UP_UNRATED: "unrated",
    GIVE_UP_RATED: "rated",
}


def _banned(seat: Seat) -> bool:
    return seat.user is not None and seat.user.is_banned


def new_round_confirm(game: Game, seats: list[Seat], vp: Viewpoint, here: Collection[int]) -> str:
    """The question before a new round over the round in play, for the viewer `vp`; `here`: the seats
    (ids) whose player is connected."""
    if game.mode == Game.Mode.LOCAL:
        return NOBODY_LOCAL
    people = [
        s
        for s in seats
        if s.kind == Seat.Kind.HUMAN
        and (s.resigned or not s.bot_controlled or s.pk in here)
        and not _banned(s)
    ]
    if game.mode == Game.Mode.FRIENDS and any(s.index not in vp.seats for s in people):
        return ASK_OTHERS
    accounts = [s.user_id for s in seats]
    against_people = None not in accounts and len(set(accounts)) == len(accounts)
    return GIVE_UP_RATED if against_people else GIVE_UP_UNRATED
