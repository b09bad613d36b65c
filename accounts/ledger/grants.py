"""Coins that enter the game from the source: the daily top-up (the welcome grant is in books.wallet_of)."""

from __future__ import annotations

from datetime import UTC, date

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from . import rules
from .books import locked_wallet, source, wallet_of
from .errors import TopUpRefused
from .models import LedgerAccount, LedgerEntry, LedgerTransaction, TopUpClaim
from .posting import post


def coins_in_escrow(user_id: int) -> int:
    """The player's coins held for play not yet settled: stakes in staked rooms waiting or in play,
    and buy-ins of tournaments not yet paid out or cancelled, less a buy-in given back on leaving.

    Each of those transactions has exactly one escrow or pool leg, so the join counts each once; an
    escrow or pool that is closed (paid out, refunded in full) holds nothing of anyone's.
    """
    wallet = wallet_of(user_id)
    Kind = LedgerTransaction.Kind
    held = LedgerEntry.objects.filter(
        account=wallet,
        transaction__kind__in=[Kind.STAKE, Kind.BUY_IN, Kind.REFUND],
        transaction__entries__account__kind__in=[
            LedgerAccount.Kind.ESCROW,
            LedgerAccount.Kind.POOL,
        ],
        transaction__entries__account__closing__isnull=True,
    ).aggregate(total=Sum("amount"))["total"]
    return -(held or 0)


def utc_today() -> date:
    return timezone.now().astimezone(UTC).date()


def claim_top_up(user_id: int) -> int:
    """Bring wallet + escrow back up to the floor, once per UTC day; returns the coins added."""
    floor = rules.top_up_to()
    with transaction.atomic():
        wallet = locked_wallet(user_id)  # one claim at a time per player
        have = wallet.balance + coins_in_escrow(user_id)
        if have >= floor:
            raise TopUpRefused(
                f"Top-ups are for players with under {floor:,} coins; you have {have:,}."
            )
        today = utc_today()
        if TopUpClaim.objects.filter(user_id=user_id, day=today).exists():
            raise TopUpRefused("You have had today's top-up; the next one is after midnight UTC.")
        amount = floor - have
        try:
            with transaction.atomic():
                made = post(
                    LedgerTransaction.Kind.TOP_UP,
                    f"Daily top-up to {floor:,}",
                    [(source(), -amount), (wallet, amount)],
                )
                TopUpClaim.objects.create(user_id=user_id, day=today, transaction=made)
        except IntegrityError:  # the unique constraint: claimed in a race the lock did not cover
            raise TopUpRefused(
                "You have had today's top-up; the next one is after midnight UTC."
            ) from None
    return amount
