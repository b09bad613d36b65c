"""A moderator voids a round: the round in play ends for nobody (stakes go back), or a finished round
is taken out of the standings. Both go through the games' and the leaderboard's own services (the
lock, record, save, push-on-commit sequence of players' actions; `remove_round`) and are audited.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.actions.core import lock_game
from games.actions.rounds import end_round
from games.actions.state import seats_in
from games.core.round_ends import RoundEnd
from games.models import Action, Game, Round
from leaderboard.models import Result
from leaderboard.round_removal import remove_round

from . import audit
from .errors import ModerationError
from .guards import require

# --- the round in play ---------------------------------------------------------------------------------


def do_void(moderator: User, game_id: str, *, reason: str) -> Game:
    """End the round in play for nobody: stakes go back (end_round's settlement), no result counts,
    and both players see why on their board at once."""
    require(moderator, "games.void_game")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason: the players are shown it.")
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.PLAYING:
            raise ModerationError("Only a round in play can be voided.")
        seats = seats_in(game)
        before = {"status": game.status, "round": game.round, "version": game.version}
        end_round(
            game,
            seats,
            places=[],
            how=RoundEnd.VOID,
            action=Action.Kind.ABANDON,
            data={"void": True},
            text=f"A moderator voided this round: {reason}",
        )
        audit.record(
            moderator,
            "void",
            game_id=game.pk,
            reason=reason,
            before=before,
            after={"status": game.status, "round": game.round, "version": game.version},
        )
    return game


# --- a finished round's result -------------------------------------------------------------------------


def do_void_result(moderator: User, round_: Round, *, reason: str) -> int:
    """Take a finished round out of the standings, as if it had never counted (the leaderboard's
    `remove_round`). Coins already paid stay paid (a correction is a coin adjustment). Returns how
    many results stopped counting."""
    require(moderator, "games.void_game")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModerationError("Give a reason.")
    with transaction.atomic():
        # Locked first, so two voids of one round decide one after the other.
        results = Result.objects.select_for_update().filter(round=round_).order_by("pk")
        rows = list(results.values_list("void", flat=True))
        if not rows:
            raise ModerationError("That round has no results.")
        if all(rows):
            raise ModerationError("That round counts for nobody already.")
        counted = remove_round(round_.pk)
        audit.record(
            moderator,
            "void_result",
            game_id=round_.game_id,
            reason=reason,
            before={"round": round_.number, "counted": [r.user_id for r in counted]},
            after={"round": round_.number, "counted": []},
        )
    return len(counted)
