"""Each account's rating on its seat when a round starts (a round-start handler, leaderboard/apps.py):
the board and the lobby show it from the seat, so a push costs no extra query."""

from __future__ import annotations

from games.models import Game, Seat

from .reads import shown_ratings


def note_seat_ratings(game: Game, seats: list[Seat]) -> None:
    """Write the shown rating in the game's rule set on every account's seat of a room between people
    (pass & play and games against the computer are never rated: their seats show none)."""
    if game.mode != Game.Mode.FRIENDS:
        return
    held = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None]
    ratings = shown_ratings([s.user_id for s in held if s.user_id is not None], game.ruleset)
    for seat in held:
        if seat.user_id is not None:
            seat.rating = ratings[seat.user_id].value
    if held:
        Seat.objects.bulk_update(held, ["rating"])
