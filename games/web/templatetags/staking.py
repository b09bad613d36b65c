"""What a staked game's page shows about coins: each seat's coins won or lost, and a player's balance
after the settlement (from the ledger's closing transaction, so it is exactly what was paid)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template

from accounts.ledger.models import LedgerEntry, LedgerTransaction
from games.staking.rematch import rematch_of
from games.staking.terms import Terms, terms
from games.web.staking_forms import new_key

if TYPE_CHECKING:
    from games.live.viewpoint import Viewpoint
    from games.models import Game

register = template.Library()


@register.simple_tag
def staked_outcome(game: Game, vp: Viewpoint | None) -> dict[str, Any]:
    """{"by_seat": {seat index: coins}, "mine": {"coins": n, "balance": n} or None, "rake": n}."""
    closing = (
        LedgerTransaction.objects.filter(game=game, closes__isnull=False)
        .prefetch_related("entries__account")
        .first()
    )
    if closing is None:
        return {"by_seat": {}, "mine": None, "rake": 0, "refund": False}
    seats = {seat.user_id: seat.index for seat in game.seats.all() if seat.user_id}
    staked = dict(
        LedgerEntry.objects.filter(
            transaction__game=game, transaction__kind="stake", amount__lt=0
        ).values_list("account__user_id", "amount")
    )
    by_seat, balances, rake = {}, {}, 0
    for entry in closing.entries.all():
        if entry.account.kind == "house":
            rake = entry.amount
        elif entry.account.kind == "wallet" and entry.account.user_id in seats:
            index = seats[entry.account.user_id]
            by_seat[index] = entry.amount + staked.get(entry.account.user_id, 0)
            balances[index] = entry.balance_after
    for user_id, paid in staked.items():  # the loser's wallet has no entry in a payout
        if user_id in seats and seats[user_id] not in by_seat:
            by_seat[seats[user_id]] = paid
    mine = None
    for index in getattr(vp, "seats", ()):
        if index in by_seat:
            user_id = next(u for u, i in seats.items() if i == index)
            balance = balances.get(index)
            if balance is None:
                from accounts.ledger.history import balance_of

                balance = balance_of(user_id)
            mine = {"coins": by_seat[index], "balance": balance}
    return {
        "by_seat": by_seat,
        "mine": mine,
        "rake": rake,
        "refund": closing.kind == LedgerTransaction.Kind.REFUND,
    }


@register.simple_tag
def stake_form_key() -> str:
    return new_key()


@register.filter
def coins_of(by_seat: dict[int, int], index: int) -> int | None:
    return by_seat.get(index)


@register.simple_tag
def staked_rematch(game: Game, vp: Viewpoint | None) -> dict[str, Any]:
    """{"room": the rematch room offered from this finished game or None, "mine": offered by this
    viewer}."""
    room = rematch_of(game) if game.status == "finished" else None
    mine = (
        room is not None
        and room.owner_id is not None
        and game.seats.filter(index__in=getattr(vp, "seats", ()), user_id=room.owner_id).exists()
    )
    return {"room": room, "mine": mine}


@register.simple_tag
def stake_terms(stake: int) -> Terms:
    """A staked game's stake, pot, house cut and prize (games.staking.terms.terms)."""
    return terms(stake)
