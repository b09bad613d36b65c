"""A player's finished games, with the place and points each earned (RULES.md section 7).

A room can play several rounds: past rounds keep their places in `Round`, the current one in
`Game.result_places` once it is finished. Both are seat indexes, first place first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Game, Seat

from .points import points_for


@dataclass(frozen=True)
class Result:
    game: Game
    round: int
    place: int  # 1 is first
    players: int
    points: int
    when: datetime


def player_history(user, limit: int = 20) -> list[Result]:
    """The player's most recent finished rounds, newest first."""
    results = []
    seats = Seat.objects.filter(user=user).select_related("game").prefetch_related("game__rounds")
    for seat in seats:
        game = seat.game
        finished = [(r.number, r.places, r.created) for r in game.rounds.all() if r.places]
        if game.status == Game.Status.FINISHED and game.result_places:
            finished.append((game.round, game.result_places, game.updated))
        for number, places, when in finished:
            if seat.index in places and 2 <= len(places) <= 4:
                place = places.index(seat.index) + 1
                points = points_for(place, len(places))
                results.append(Result(game, number, place, len(places), points, when))
    results.sort(key=lambda r: r.when, reverse=True)
    return results[:limit]


def total_points(user) -> tuple[int, int]:
    """(points, finished rounds) over the player's whole history."""
    everything = player_history(user, limit=10**9)
    return sum(r.points for r in everything), len(everything)
