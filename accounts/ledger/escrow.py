"""A staked game's escrow: stakes go in, and exactly one closing transaction (payout or refund) empties it.

The closing transaction names the escrow in `closes`, a one-to-one column: a second closing is refused
by the database, so a game can never be paid twice, whoever tries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Sum

from . import rules
from .books import escrow_of, house, wallet_of
from .models import LedgerAccount, LedgerEntry, LedgerTransaction
from .posting import post

if TYPE_CHECKING:
    from games.models import Game

Kind = LedgerTransaction.Kind


def hold_stake(game: Game, user_id: int, stake: int) -> LedgerTransaction:
    """Move the player's stake from their wallet into the game's escrow (NotEnoughCoins if short)."""
    wallet = wallet_of(user_id)
    return post(
        Kind.STAKE,
        f"Stake on {game.get_ruleset_display()} room",
        [(wallet, -stake), (escrow_of(game), stake)],
        game=game,
        short_message=f"This room's stake is {stake:,} coins; you have {{have}}.",
    )


def stakes_held(game: Game) -> dict[int, int]:
    """{user id: coins they staked} for the game's escrow."""
    rows = (
        LedgerEntry.objects.filter(
            transaction__game=game,
            transaction__kind=Kind.STAKE,
            account__kind=LedgerAccount.Kind.WALLET,
        )
        .values("account__user_id")
        .annotate(paid=Sum("amount"))
    )
    return {row["account__user_id"]: -row["paid"] for row in rows}


def is_closed(game: Game) -> bool:
    return LedgerTransaction.objects.filter(closes__game=game, closes__kind="escrow").exists()


def refund(game: Game, reason: str, held: dict[int, int] | None = None) -> dict[int, int]:
    """Give every stake back; returns {user id: 0} (nobody won or lost)."""
    escrow = escrow_of(game)
    held = stakes_held(game) if held is None else held
    legs = [(wallet_of(user_id), paid) for user_id, paid in held.items()]
    post(Kind.REFUND, reason, [(escrow, -sum(held.values())), *legs], game=game, closes=escrow)
    return dict.fromkeys(held, 0)


def pay_winner(
    game: Game, winner_id: int, reason: str, held: dict[int, int] | None = None
) -> dict[int, int]:
    """The winner takes the pot less the house's cut; returns {user id: coins won (+) or lost (-)}."""
    escrow = escrow_of(game)
    held = stakes_held(game) if held is None else held
    pot = sum(held.values())
    rake = rules.rake_of(pot)
    legs = [(escrow, -pot), (wallet_of(winner_id), pot - rake)]
    if rake:
        legs.append((house(), rake))
    post(Kind.PAYOUT, reason, legs, game=game, closes=escrow)
    return {
        user_id: (pot - rake - paid) if user_id == winner_id else -paid
        for user_id, paid in held.items()
    }
