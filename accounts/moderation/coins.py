"""A moderator's coin correction: the ledger's adjustment posting (accounts.ledger.adjustments), with
the permission, the account's lock and the audit entry every moderator action has."""

from __future__ import annotations

from django.db import transaction

from accounts.ledger.adjustments import adjust_coins
from accounts.ledger.errors import NotEnoughCoins
from accounts.ledger.history import balance_of
from accounts.models import User

from . import audit
from .errors import ModerationError
from .guards import lock_account_for, player_reason, require


def do_adjust_coins(moderator: User, user: User, *, amount: int, reason: str) -> int:
    """Add (amount > 0) or take (amount < 0) coins as one ledger transaction of kind "adjustment"; a
    wallet never goes below zero. A finished staked game is never re-settled: this is its correction.
    Returns the new balance."""
    require(moderator, "accounts.adjust_coins")
    reason = player_reason(reason)
    if not amount:
        raise ModerationError("Say how many coins to add (or, negative, to take).")
    with transaction.atomic():
        user = lock_account_for(
            moderator, user
        )  # then the wallet: the lock order of games.actions.core
        before = balance_of(user.pk)
        try:
            with transaction.atomic():
                adjust_coins(user.pk, amount, reason)
        except NotEnoughCoins as error:
            raise ModerationError(
                f"{user.username} has {before:,} coins: {-amount:,} can't be taken."
            ) from error
        after = balance_of(user.pk)
        audit.record(
            moderator,
            "adjust_coins",
            user=user,
            reason=reason,
            before={"coins": before},
            after={"coins": after, "amount": amount},
        )
    return after
