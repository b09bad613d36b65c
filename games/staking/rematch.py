"""Rematches: staked games have no new rounds; a player of a finished one offers a new room at the same
stake, rules and timer, which only the old opponent may join, and the old game's page follows the
offer live (offered, withdrawn, joined).
"""

from __future__ import annotations

from django.db import transaction

from ..actions.core import lock_game, record_action, save_game
from ..actions.state import seats_in
from ..core.actors import Actor, sits_in
from ..core.errors import Conflict, NotAllowed
from ..core.narration import user_ref
from ..models import Action, Game, Seat
from .keys import answer, first_answer
from .rooms import do_create_staked_room
from .rules import account_of, needs_account


def rematch_of(game: Game) -> Game | None:
    """The rematch room offered from this finished staked game, if any (the latest offer)."""
    return (
        Game.objects.filter(rematch_of=game)
        .select_related("owner", "invitee")
        .order_by("-created", "-pk")
        .first()
    )


def invited_seats(game: Game, seats: list[Seat], actor: Actor) -> list[int]:
    """The open seat of a rematch room offered to `actor`, while it waits for them: their page of the
    room counts as present there (the offer is kept), as the host's does at their seat."""
    if game.status != Game.Status.OPEN or not actor.user_id or game.invitee_id != actor.user_id:
        return []
    return [seat.pk for seat in seats if seat.kind == Seat.Kind.OPEN]


def do_offer_rematch(actor: Actor, game_id: str, key: str | None = None) -> Game:
    """Staked games have no new rounds: a player of a finished one opens a new room at the same stake,
    rules and timer, which only the old opponent may join. It is not listed in the lobby; the offer
    appears on the old game's page, which follows it live (offered, withdrawn, joined)."""

    needs_account(actor, "offer a rematch")
    with transaction.atomic():
        old = lock_game(game_id)
        if not old.stake or old.status != Game.Status.FINISHED:
            raise Conflict("A rematch is offered once a staked game is over.")
        seats = seats_in(old)
        mine = [seat for seat in seats if sits_in(seat, actor)]
        if not mine:
            raise NotAllowed("Only the players of this game can offer a rematch.")
        offered = rematch_of(old)
        if offered is not None and offered.status == Game.Status.OPEN:
            if offered.owner_id == actor.user_id:
                return offered  # offered already (a repeated click)
            raise Conflict("Your opponent has offered a rematch: join it.")
        opponent = next((s for s in seats if s.user_id and s.user_id != actor.user_id), None)
        if opponent is None:
            raise Conflict("Your opponent's account is gone: open a room in the lobby instead.")
        request, first = first_answer(actor, key, ("rematch", old.pk))
        if first is not None:
            return first  # a repeated form: its first answer, and no second offer in the log
        new = do_create_staked_room(actor, old.ruleset, old.stake, old.timer_seconds)
        new.rematch_of, new.invitee_id = old, opponent.user_id
        new.message = f"Waiting for {user_ref(opponent.user_id)} to accept the rematch at {old.stake:,} coins."  # type: ignore[arg-type]  # the opponent has an account
        new.save(update_fields=["rematch_of", "invitee", "message"])
        answer(request, new)
        text = f"{user_ref(account_of(actor))} offers a rematch at {old.stake:,} coins."
        old.message = text
        record_action(old, Action.Kind.NEW_ROUND, mine[0], {"rematch": new.pk}, text)
        save_game(old, seats=seats)
        return new
