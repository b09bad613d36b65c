"""The start of a tournament, and its cancellation.

- `do_start`: at its start time (a full sit-and-go's countdown, or an admin's schedule) the bracket
  is drawn and the first round's rooms open. A countdown whose tournament is no longer full (a player
  left) does nothing; a scheduled tournament not full at its time is cancelled, every buy-in back
  (the lobby says so).
- `cancel_tournament`: every buy-in back in full, in one closing transaction of the pool, whatever
  the stage, until the prizes are paid (then there is nothing to cancel). The rooms of matches in
  play then end for nobody, each in its own transaction (the room's lock comes before the
  tournament's in the lock order, so not in this one); their round-end handler finds the tournament
  cancelled and does nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.ledger import pools

from ..actions.core import lock_game
from ..actions.rounds import end_round
from ..actions.state import seats_in
from ..core.errors import Conflict
from ..core.round_ends import RoundEnd
from ..models import Action, Game
from . import bracket, live
from .models import Tournament

NOT_FULL_AT_TIME = "It was not full at its start time."


def do_start(tournament_id: int) -> bool:
    """Start the tournament if it is due and full (the countdown's task and the sweeper call this;
    a repeated call does nothing). True if it started."""
    with transaction.atomic():
        tournament = bracket.lock_tournament(tournament_id)
        now = timezone.now()
        due = tournament.starts_at is not None and tournament.starts_at <= now
        if tournament.status != Tournament.Status.OPEN or not due:
            return False
        entries = list(tournament.entries.select_related("user").order_by("pk"))
        if len(entries) < tournament.size:
            if tournament.scheduled_for is not None:
                cancel_tournament(tournament, NOT_FULL_AT_TIME)
            else:
                tournament.starts_at = None
                bracket.changed(tournament)
            return False
        tournament.status = Tournament.Status.PLAYING
        tournament.started = now
        tournament.save()
        bracket.seat_players(tournament, entries)
        bracket.changed(tournament)
        return True


def cancel_tournament(tournament: Tournament, reason: str) -> list[str]:
    """Inside the caller's transaction, holding the tournament's lock: every buy-in back, the
    tournament cancelled. Returns the rooms in play, for `end_cancelled_matches` after commit."""
    if tournament.is_over:
        raise Conflict("This tournament is over already: there is nothing to cancel.")
    players = list(tournament.entries.values_list("user_id", flat=True))
    pools.refund_all(tournament.pool, f"Tournament #{tournament.pk} cancelled: buy-in returned")
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished = timezone.now()
    tournament.starts_at = None
    tournament.cancel_reason = reason[:300]
    bracket.changed(tournament)
    live.tell_on_commit(
        players,
        f"Tournament #{tournament.pk} was cancelled ({reason}) and your buy-in came back.",
        bracket.bracket_url(tournament),
        "See the bracket",
        tournament_id=tournament.pk,
    )
    return list(
        tournament.matches.filter(game__status=Game.Status.PLAYING).values_list(
            "game_id", flat=True
        )
    )


def end_cancelled_matches(game_ids: list[str], reason: str) -> None:
    """The rooms of a cancelled tournament's matches end for nobody, each under its own lock."""
    for game_id in sorted(game_ids):
        with transaction.atomic():
            game = lock_game(game_id)
            if game.status != Game.Status.PLAYING:
                continue
            end_round(
                game,
                seats_in(game),
                places=[],
                how=RoundEnd.VOID,
                action=Action.Kind.ABANDON,
                data={"void": "tournament cancelled"},
                text=f"The tournament was cancelled: {reason}",
            )


def do_cancel(tournament_id: int, reason: str) -> Tournament:
    """Cancel (the system's or an admin's own call; moderation's audited one is
    accounts.moderation.tournaments)."""
    with transaction.atomic():
        tournament = bracket.lock_tournament(tournament_id)
        playing = cancel_tournament(tournament, reason)
    end_cancelled_matches(playing, reason)
    return tournament
