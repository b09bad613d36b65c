"""Finding (or opening) the ledger's accounts: a player's wallet, a game's escrow, the house, the source.

Opening is race-safe: the unique constraints pick one winner and the loser reads the winner's row. A
wallet is opened with its welcome grant in one transaction, so every account that has a wallet got the
grant exactly once, however the account was created.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from .models import LedgerAccount, LedgerTransaction

Kind = LedgerAccount.Kind


def _singleton(kind: str) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=kind)
    return account


def house() -> LedgerAccount:
    return _singleton(Kind.HOUSE)


def source() -> LedgerAccount:
    """Where every coin comes from (grants, top-ups, adjustments): its balance is minus all coins issued."""
    return _singleton(Kind.SOURCE)


def wallet_of(user_id: int) -> LedgerAccount:
    """The player's wallet, opened with the welcome grant if they have none yet."""
    found = LedgerAccount.objects.filter(kind=Kind.WALLET, user_id=user_id).first()
    if found is not None:
        return found
    from . import rules
    from .posting import post

    try:
        with transaction.atomic():
            wallet = LedgerAccount.objects.create(kind=Kind.WALLET, user_id=user_id)
            post(
                LedgerTransaction.Kind.GRANT,
                "Welcome to Ludopat",
                [(source(), -rules.grant()), (wallet, rules.grant())],
            )
            return wallet
    except IntegrityError:  # opened at the same moment by another request: theirs stands
        return LedgerAccount.objects.get(kind=Kind.WALLET, user_id=user_id)


def locked_wallet(user_id: int) -> LedgerAccount:
    """The wallet row locked until the transaction ends: one player's coin decisions, one at a time."""
    wallet = wallet_of(user_id)
    return LedgerAccount.objects.select_for_update().get(pk=wallet.pk)


def escrow_of(game_id: str) -> LedgerAccount:
    """The escrow of the game `game_id` (the ledger names a game by its id: it knows no game code)."""
    account, _ = LedgerAccount.objects.get_or_create(kind=Kind.ESCROW, game_id=game_id)
    return account
