"""The one writer of ledger entries: `post` moves coins between accounts in one transaction.

Every transaction's entries sum to zero. Wallets and escrows are locked (in primary-key order, so two
postings never wait on each other in a circle) and their cached balance moves with the entries; a
balance that would go negative is refused here with a sentence, and by the database's check constraint
should anything ever bypass this.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from .errors import NotEnoughCoins
from .models import LedgerAccount, LedgerEntry, LedgerTransaction

Leg = tuple[LedgerAccount, int]


def _check_legs(legs: Sequence[Leg]) -> None:
    for _, amount in legs:
        # bool is an int in Python; a coin amount is never True.
        if type(amount) is not int or amount == 0:
            raise ValueError(f"A ledger amount is a non-zero whole number, not {amount!r}.")
    if sum(amount for _, amount in legs) != 0:
        raise ValueError("A ledger transaction's entries must sum to zero.")
    ids = [account.pk for account, _ in legs]
    if None in ids or len(set(ids)) != len(ids):
        raise ValueError("Each leg is a different, saved account.")


def post(
    kind: str,
    reason: str,
    legs: Sequence[Leg],
    *,
    game_id: str | None = None,
    closes: LedgerAccount | None = None,
    short_message: str = "",
) -> LedgerTransaction:
    """Write one transaction. NotEnoughCoins (nothing written) if a wallet or escrow would go negative;
    `short_message` is the sentence the player reads then ("{have}" becomes the balance). `game_id`: the
    staked game the coins move for (by id: the ledger knows no game code)."""
    _check_legs(legs)
    with transaction.atomic():
        cached_ids = sorted(account.pk for account, _ in legs if account.is_cached)
        locked = {
            row.pk: row
            for row in LedgerAccount.objects.select_for_update()
            .filter(pk__in=cached_ids)
            .order_by("pk")
        }
        after: dict[int, int] = {}
        for account, amount in legs:
            if account.pk in locked:
                after[account.pk] = locked[account.pk].balance + amount
                if after[account.pk] < 0:
                    row = locked[account.pk]
                    message = short_message or _short(row, -amount)
                    raise NotEnoughCoins(message.replace("{have}", f"{row.balance:,}"))
        made = LedgerTransaction.objects.create(
            kind=kind, reason=reason[:200], game_id=game_id, closes=closes
        )
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                transaction=made,
                account=account,
                amount=amount,
                balance_after=after.get(account.pk),
            )
            for account, amount in legs
        )
        for pk, balance in after.items():
            # Not a queryset update of the append-only kind: accounts' cached balances do move.
            LedgerAccount.objects.filter(pk=pk).update(balance=balance)
            for account, _ in legs:
                if account.pk == pk:
                    account.balance = balance
    return made


def _short(account: LedgerAccount, needed: int) -> str:
    if account.kind == LedgerAccount.Kind.WALLET:
        return f"You need {needed:,} coins and have {account.balance:,}."
    return f"The {account} holds {account.balance:,} coins, not {needed:,}."
