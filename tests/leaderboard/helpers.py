"""Building finished rounds for the leaderboard tests without playing them out."""

from __future__ import annotations

import itertools
from datetime import datetime

from django.contrib.auth import get_user_model

from games.models import Game, Round
from leaderboard.results import FinishedRound, SeatFacts, record_round, write_rounds
from tests.games.webplay import friends_room, member

User = get_user_model()
_numbers = itertools.count(1)


def accounts(*names):
    return [User.objects.create_user(name, password="x") for name in names]


def room(users, ruleset="classic") -> Game:
    """A started friends room with one seat per account, in the order given."""
    return friends_room(
        member(users[0]), [member(u) for u in users[1:]], ruleset=ruleset, count=len(users)
    )


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).index


def finish(game: Game, order, how="won", coins=None):
    """Record the game's round as ended with `order` (accounts, or seat indexes) first to last."""
    seats = list(game.seats.select_related("user"))
    places = [o if isinstance(o, int) else seat_of(game, o) for o in order]
    game.status = Game.Status.FINISHED  # as finish_round leaves the game before it records
    game.result_places = places
    game.save(update_fields=["status", "result_places"])
    return record_round(game, seats, places, how, coins or {})


def bare_round(ruleset="classic") -> Round:
    game = Game.objects.create(mode=Game.Mode.FRIENDS, ruleset=ruleset)
    return Round.objects.create(game=game, number=1)


def write(order, when: datetime, ruleset="classic", how="won", computers=()):
    """Write one round at `when` through the results writer: `order` holds accounts or None for a
    computer, first place first."""
    kept = bare_round(ruleset)
    seats = [
        SeatFacts(i, u.pk if u else None, u.username if u else f"Computer {i}", u is None)
        for i, u in enumerate(order)
    ]
    played = FinishedRound(kept.pk, ruleset, seats, list(range(len(order))), how, when)
    return write_rounds([played])
