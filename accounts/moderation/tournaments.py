"""A moderator cancels a tournament: every buy-in goes back in full (the tournaments' own
`cancel_tournament`, under the tournament's lock), audited in the same transaction; its matches in
play then end for nobody, each under its own room's lock (the lock order puts rooms before the
tournament, so after the commit)."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.tournaments.bracket import lock_tournament
from games.tournaments.models import Tournament
from games.tournaments.starting import cancel_tournament, end_cancelled_matches
from ludopat.refusals import Refusal

from . import audit
from .errors import ModerationError
from .guards import require


def do_cancel_tournament(moderator: User, tournament_id: int, *, reason: str) -> Tournament:
    require(moderator, "games.cancel_tournament")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason: the players are shown it.")
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        before = {"status": tournament.status, "version": tournament.version}
        try:
            playing = cancel_tournament(tournament, reason)
        except Refusal as error:
            raise ModerationError(str(error)) from None
        audit.record(
            moderator,
            "cancel_tournament",
            reason=reason,
            before={**before, "tournament": tournament.pk},
            after={"status": tournament.status, "version": tournament.version},
        )
    end_cancelled_matches(playing, reason)
    return tournament
