"""Finished rounds under their public replay id.

A room's id is its invitation: whoever knows it can open the live room and its chat. Profiles and the
leaderboard therefore link a finished round by `Round.public_id`, and the pages served under that id
never show the room id or the chat.
"""

from __future__ import annotations

from ..engine import fair
from ..models import Game, Round, Seat


def keep_round(game: Game, seats: list[Seat], places: list[int], *, how: str = "") -> Round:
    """The `Round` row of the game's current round, written now that it has ended (it gets its public
    replay id here), with how it ended (games.core.round_ends). A room that starts a new round later finds
    it already written, and leaves its `how` as it is."""
    seed = game.client_seed or fair.client_seed_for(
        s.client_seed for s in sorted(seats, key=lambda s: s.index)
    )
    defaults = {
        "players": game.players,
        "server_seed": game.server_seed,
        "client_seed": seed,
        "places": list(places),
    }
    if how:
        defaults["how"] = how
    kept, _ = Round.objects.update_or_create(game=game, number=game.round, defaults=defaults)
    return kept


def round_by_public_id(public_id: str) -> Round | None:
    return Round.objects.select_related("game").filter(public_id=public_id).first()
