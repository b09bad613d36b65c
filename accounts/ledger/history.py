"""What a player's wallet page shows: balance, coins in escrow and the history of their wallet."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, QuerySet, Subquery

from . import rules
from .books import wallet_of
from .grants import coins_in_escrow, utc_today
from .models import LedgerAccount, LedgerEntry, TopUpClaim


@dataclass(frozen=True)
class WalletSummary:
    balance: int
    in_escrow: int
    can_top_up: bool
    top_up_to: int


def summary(user_id: int) -> WalletSummary:
    wallet = wallet_of(user_id)
    held = coins_in_escrow(user_id)
    floor = rules.top_up_to()
    claimed = TopUpClaim.objects.filter(user_id=user_id, day=utc_today()).exists()
    return WalletSummary(wallet.balance, held, wallet.balance + held < floor and not claimed, floor)


def history(user_id: int) -> QuerySet[LedgerEntry]:
    """The wallet's entries, newest first, each with its transaction, game, the house's cut and the
    pool it moved coins in or out of (whose owner, a tournament, the page names)."""
    house_cut = LedgerEntry.objects.filter(
        transaction=OuterRef("transaction"), account__kind=LedgerAccount.Kind.HOUSE
    ).values("amount")[:1]
    pool = LedgerEntry.objects.filter(
        transaction=OuterRef("transaction"), account__kind=LedgerAccount.Kind.POOL
    ).values("account_id")[:1]
    return (
        LedgerEntry.objects.filter(account=wallet_of(user_id))
        .select_related("transaction", "transaction__game")
        .annotate(rake=Subquery(house_cut), pool=Subquery(pool))
        .order_by("-pk")
    )


def balance_of(user_id: int) -> int:
    row = (
        LedgerAccount.objects.filter(kind=LedgerAccount.Kind.WALLET, user_id=user_id)
        .values_list("balance", flat=True)
        .first()
    )
    return row if row is not None else wallet_of(user_id).balance
