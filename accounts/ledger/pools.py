"""A pool: the escrow of something above the games that holds several players' coins at once (a
tournament's buy-ins), which points at its pool; the ledger names no owner and knows nothing of it.

Buy-ins go in one at a time and may come out one at a time (a player leaving before the start); the
pool is emptied exactly once, by prizes or by a refund of everything it holds, in a transaction that
names it in `closes` (one-to-one: the database refuses a second closing).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Sum

from . import rules
from .books import house, wallet_of
from .models import LedgerAccount, LedgerEntry, LedgerTransaction
from .posting import post

Kind = LedgerTransaction.Kind


def open_pool() -> LedgerAccount:
    """A new, empty pool (its owner keeps the row and points at it)."""
    return LedgerAccount.objects.create(kind=LedgerAccount.Kind.POOL)


def buy_in(pool: LedgerAccount, user_id: int, amount: int, reason: str) -> LedgerTransaction:
    """The player's buy-in from their wallet into the pool (NotEnoughCoins, nothing written, if short)."""
    return post(
        Kind.BUY_IN,
        reason,
        [(wallet_of(user_id), -amount), (pool, amount)],
        short_message=f"The buy-in is {amount:,} coins; you have {{have}}.",
    )


def held_by_player(pool: LedgerAccount) -> dict[int, int]:
    """{user id: coins of theirs the pool holds}: buy-ins less what came back to them one by one."""
    rows = (
        LedgerEntry.objects.filter(
            transaction__entries__account=pool,
            transaction__kind__in=[Kind.BUY_IN, Kind.REFUND],
            transaction__closes__isnull=True,
            account__kind=LedgerAccount.Kind.WALLET,
        )
        .values("account__user_id")
        .annotate(paid=Sum("amount"))
    )
    return {row["account__user_id"]: -row["paid"] for row in rows if row["paid"]}


def give_back(pool: LedgerAccount, user_id: int, amount: int, reason: str) -> LedgerTransaction:
    """One player's buy-in back (they left before the start); the pool stays open."""
    return post(Kind.REFUND, reason, [(pool, -amount), (wallet_of(user_id), amount)])


def is_closed(pool: LedgerAccount) -> bool:
    return LedgerTransaction.objects.filter(closes=pool).exists()


def refund_all(pool: LedgerAccount, reason: str) -> dict[int, int]:
    """Close the pool giving every player their buy-ins back in full; {user id: coins returned}."""
    held = held_by_player(pool)
    if held:
        legs = [(wallet_of(user_id), paid) for user_id, paid in sorted(held.items())]
        post(Kind.REFUND, reason, [(pool, -sum(held.values())), *legs], closes=pool)
    return held


def pay_prizes(pool: LedgerAccount, prizes: Mapping[int, int], reason: str) -> int:
    """Close the pool: the house's cut of everything it holds (rules.rake_of, taken here, once), and
    `prizes` ({user id: coins}) must be exactly the rest. Returns the cut."""
    pot = LedgerAccount.objects.select_for_update().get(pk=pool.pk).balance
    cut = rules.rake_of(pot)
    if sum(prizes.values()) != pot - cut or any(amount < 0 for amount in prizes.values()):
        raise ValueError(f"Prizes of {sum(prizes.values())} for a pot of {pot} less {cut}.")
    legs = [(pool, -pot)]
    legs += [(wallet_of(user_id), amount) for user_id, amount in sorted(prizes.items()) if amount]
    if cut:
        legs.append((house(), cut))
    post(Kind.PRIZE, reason, legs, closes=pool)
    return cut


def paid_from(pool: LedgerAccount) -> dict[str, int]:
    """What went into and came out of the pool, for the checks: buy-ins, refunds, prizes, the cut."""
    totals = dict(
        LedgerEntry.objects.filter(account=pool)
        .values_list("transaction__kind")
        .annotate(total=Sum("amount"))
    )
    cut = (
        LedgerEntry.objects.filter(
            transaction__entries__account=pool, account__kind=LedgerAccount.Kind.HOUSE
        ).aggregate(total=Sum("amount"))["total"]
        or 0
    )
    prizes = -(totals.get(Kind.PRIZE, 0)) - cut
    return {
        "buy_ins": totals.get(Kind.BUY_IN, 0),
        "refunds": -totals.get(Kind.REFUND, 0),
        "prizes": prizes,
        "cut": cut,
    }
