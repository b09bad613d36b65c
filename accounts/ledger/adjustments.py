"""Coins a moderator adds to or takes from a wallet: always a ledger transaction with a reason."""

from __future__ import annotations

from .books import source, wallet_of
from .models import LedgerTransaction
from .posting import post


def adjust_coins(user_id: int, amount: int, reason: str) -> LedgerTransaction:
    """Add (amount > 0) or take (amount < 0) coins; a wallet is never taken below zero."""
    if not reason.strip():
        raise ValueError("An adjustment needs a reason.")
    wallet = wallet_of(user_id)
    return post(
        LedgerTransaction.Kind.ADJUSTMENT,
        reason,
        [(source(), -amount), (wallet, amount)],
        short_message=f"The wallet holds {{have}} coins; {-amount:,} can't be taken.",
    )
