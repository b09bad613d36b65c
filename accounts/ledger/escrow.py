"""A staked game's escrow: stakes go in, and exactly one closing transaction (payout or refund) empties it.

The closing transaction names the escrow in `closes`, a one-to-one column: a second closing is refused
by the database, so a game can never be paid twice, whoever tries.
"""

from __future__ import annotations

from django.db.models import Sum

from . import rules
from .books import escrow_of, house, wallet_of
from .models import LedgerAccount, LedgerEntry, LedgerTransaction
from .posting import post

Kind = LedgerTransaction.Kind


def hold_stake(game_id: str, user_id: int, stake: int, reason: str) -> LedgerTransaction:
    """Move the player's stake from their wallet into the game's escrow (NotEnoughCoins if short)."""
    wallet = wallet_of(user_id)
    return post(
        Kind.STAKE,
        reason,
        [(wallet, -stake), (escrow_of(game_id), stake)],
        game_id=game_id,
        short_message=f"This room's stake is {stake:,} coins; you have {{have}}.",
    )


def stakes_held(game_id: str) -> dict[int, int]:
    """{user id: coins they staked} for the game's escrow."""
    rows = (
        LedgerEntry.objects.filter(
            transaction__game_id=game_id,
            transaction__kind=Kind.STAKE,
            account__kind=LedgerAccount.Kind.WALLET,
        )
        .values("account__user_id")
        .annotate(paid=Sum("amount"))
    )
    return {row["account__user_id"]: -row["paid"] for row in rows}


def is_closed(game_id: str) -> bool:
    return LedgerTransaction.objects.filter(
        closes__game_id=game_id, closes__kind=LedgerAccount.Kind.ESCROW
    ).exists()


def refund(game_id: str, reason: str, held: dict[int, int] | None = None) -> dict[int, int]:
    """Give every stake back; returns {user id: 0} (nobody won or lost)."""
    escrow = escrow_of(game_id)
    held = stakes_held(game_id) if held is None else held
    legs = [(wallet_of(user_id), paid) for user_id, paid in held.items()]
    pot = sum(held.values())
    post(Kind.REFUND, reason, [(escrow, -pot), *legs], game_id=game_id, closes=escrow)
    return dict.fromkeys(held, 0)


def pay_winner(
    game_id: str, winner_id: int, reason: str, held: dict[int, int] | None = None
) -> dict[int, int]:
    """The winner takes the pot less the house's cut; returns {user id: coins won (+) or lost (-)}."""
    escrow = escrow_of(game_id)
    held = stakes_held(game_id) if held is None else held
    pot = sum(held.values())
    rake = rules.rake_of(pot)
    legs = [(escrow, -pot), (wallet_of(winner_id), pot - rake)]
    if rake:
        legs.append((house(), rake))
    post(Kind.PAYOUT, reason, legs, game_id=game_id, closes=escrow)
    return {
        user_id: (pot - rake - paid) if user_id == winner_id else -paid
        for user_id, paid in held.items()
    }
