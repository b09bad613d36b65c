"""Results for rounds that finished before results were written (the data migration runs this).

Each finished round gets its `Round` row (and so its public replay id) if it has none, and its results
written through `write_rounds`, oldest first, as if it had just ended at its last action. Rounds that
already have results are left alone, so running it twice changes nothing.

The migration passes its historical models (it finds them by name in its own app registry); this
module takes them as arguments, so it names no model by a string.
"""

from __future__ import annotations

import secrets
from typing import Any

from .finished_rounds import FinishedRound, SeatFacts
from .results import write_rounds

BATCH = 500


def backfill(
    *, game_model: Any, round_model: Any, action_model: Any, tables: tuple[Any, Any, Any]
) -> int:
    """Write the missing results; the models are the migration's (games' Game, Round and Action, and
    `tables` = the leaderboard's Result, Standing and PairDay). Returns the rounds written."""

    for game in game_model.objects.filter(status="finished").exclude(result_places=[]):
        if not round_model.objects.filter(game=game, number=game.round).exists():
            round_model.objects.create(
                game=game,
                number=game.round,
                public_id=secrets.token_urlsafe(12),
                players=game.players,
                server_seed=game.server_seed,
                client_seed=game.client_seed,
                places=game.result_places,
            )

    pending = []
    kept_rounds = (
        round_model.objects.filter(results__isnull=True)
        .exclude(places=[])
        .exclude(game__mode="local")  # pass & play never counts
        .select_related("game")
    )
    for kept in kept_rounds:
        if not 2 <= len(kept.places) <= 4:
            continue
        seats = list(kept.game.seats.select_related("user"))
        last = (
            action_model.objects.filter(game=kept.game, round=kept.number)
            .order_by("-seq")
            .values_list("created", flat=True)
            .first()
        )
        facts = [_facts(s) for s in seats if s.index in kept.places]
        if len(facts) != len(kept.places):
            continue  # a seat is missing: nothing sound to rank
        when = last or kept.created
        rated = getattr(kept.game, "rated", True)  # historical models before Game.rated: all were
        pending.append(
            FinishedRound(kept.pk, kept.game.ruleset, facts, kept.places, "won", when, rated=rated)
        )
    pending.sort(key=lambda r: r.when)
    for first in range(0, len(pending), BATCH):
        write_rounds(pending[first : first + BATCH], tables)
    return len(pending)


def _facts(seat: Any) -> SeatFacts:  # a historical Seat model's row
    """What a result keeps of a seat (historical models have no `display_name`)."""
    if seat.kind == "computer":
        colour = seat.colours[0].title() if seat.colours else "The"
        return SeatFacts(seat.index, None, seat.name or f"{colour} computer", True)
    user_id = seat.user_id if seat.kind == "human" else None
    name = seat.name or (seat.user.username if seat.user_id else "Player")
    return SeatFacts(seat.index, user_id, name)
