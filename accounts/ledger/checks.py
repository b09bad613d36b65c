"""The ledger's invariants, checked over the whole database: `manage.py check_ledger` and every test that
touches coins call `problems()`, which lists each thing that is wrong (empty: all is well).

Each check is one aggregate query, so it runs at any size. The ledger knows no game code: the checks
that tie staked games to their escrows are the staking's (games/staking/checks.py), which adds them
with `also_check` when the games app is ready, so `problems()` runs them too.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import Coalesce

from .models import LedgerAccount, LedgerEntry, LedgerTransaction

Kind = LedgerAccount.Kind
LIMIT = 20  # problems listed per check; the count says how many there are


def _listed(title: str, rows: list[str], count: int) -> list[str]:
    if not count:
        return []
    more = f" (and {count - len(rows)} more)" if count > len(rows) else ""
    return [f"{title}: {', '.join(rows)}{more}"]


def unbalanced_transactions() -> list[str]:
    bad = (
        LedgerTransaction.objects.annotate(total=Sum("entries__amount"), legs=Count("entries"))
        .filter(~Q(total=0) | Q(legs__lt=2))
        .order_by("pk")
    )
    rows = [f"#{t.pk} {t.kind} sums to {t.total or 0} over {t.legs} entries" for t in bad[:LIMIT]]
    return _listed("Transactions whose entries do not sum to zero", rows, bad.count())


def grand_total() -> list[str]:
    total = LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] or 0
    return [f"All accounts together hold {total} coins, not 0"] if total else []


def negative_balances() -> list[str]:
    bad = LedgerAccount.objects.filter(kind__in=LedgerAccount.CACHED, balance__lt=0).order_by("pk")
    rows = [f"{a} has {a.balance}" for a in bad[:LIMIT]]
    return _listed("Negative wallets or escrows", rows, bad.count())


def cached_balances() -> list[str]:
    """A wallet's or escrow's balance column equals the sum of its entries; the house and the source
    keep none (their balance is the sum)."""
    bad = (
        LedgerAccount.objects.annotate(total=Coalesce(Sum("entries__amount"), 0))
        .filter(
            Q(kind__in=LedgerAccount.CACHED) & ~Q(balance=F("total"))
            | Q(kind__in=[Kind.HOUSE, Kind.SOURCE]) & ~Q(balance=0)
        )
        .order_by("pk")
    )
    rows = [f"{a} says {a.balance}, entries sum to {a.total}" for a in bad[:LIMIT]]
    return _listed("Cached balances that disagree with their entries", rows, bad.count())


def running_balances() -> list[str]:
    """Each entry's balance_after is the running sum of its account's entries up to it."""
    running = LedgerEntry.objects.filter(account__kind__in=LedgerAccount.CACHED).annotate(
        running=Window(Sum("amount"), partition_by=[F("account_id")], order_by=F("id").asc())
    )
    bad = list(running.filter(~Q(balance_after=F("running")) | Q(balance_after=None))[:LIMIT])
    rows = [f"entry #{e.pk} says {e.balance_after}, running sum {e.running}" for e in bad]
    return _listed("Entries whose balance after is wrong", rows, len(bad))


def house_and_source() -> list[str]:
    sums = dict(
        LedgerEntry.objects.filter(account__kind__in=[Kind.HOUSE, Kind.SOURCE])
        .values_list("account__kind")
        .annotate(total=Sum("amount"))
    )
    found = []
    if sums.get(Kind.HOUSE, 0) < 0:
        found.append(f"The house holds {sums[Kind.HOUSE]} coins (below zero)")
    if sums.get(Kind.SOURCE, 0) > 0:
        found.append(f"The source holds {sums[Kind.SOURCE]} coins (it only ever issues)")
    return found


def escrows() -> list[str]:
    """A closed escrow or pool is empty; an escrow that is empty after holding stakes was closed (a
    pool may be emptied by players leaving one by one and stay open)."""
    found = []
    bad = LedgerAccount.objects.filter(
        kind__in=[Kind.ESCROW, Kind.POOL], closing__isnull=False
    ).exclude(balance=0)
    found += _listed(
        "Closed escrows or pools still holding coins",
        [f"{a} holds {a.balance}" for a in bad[:LIMIT]],
        bad.count(),
    )
    open_empty = LedgerAccount.objects.filter(
        kind=Kind.ESCROW, closing__isnull=True, balance=0, entries__isnull=False
    ).distinct()
    found += _listed(
        "Escrows emptied without a closing transaction",
        [str(a) for a in open_empty[:LIMIT]],
        open_empty.count(),
    )
    return found


def users_without_wallet() -> list[str]:
    users = get_user_model().objects.exclude(ledger_accounts__kind=Kind.WALLET).order_by("pk")
    return _listed(
        "Accounts without a wallet (no welcome grant)",
        [u.get_username() for u in users[:LIMIT]],
        users.count(),
    )


CHECKS = [
    unbalanced_transactions,
    grand_total,
    negative_balances,
    cached_balances,
    running_balances,
    house_and_source,
    escrows,
    users_without_wallet,
]


# Checks of the apps above the ledger, added by `also_check` (in their AppConfig.ready).
ADDED: list[Callable[[], list[str]]] = []


def also_check(check: Callable[[], list[str]]) -> None:
    """Run `check` (a list of problems, [] when all is well) with the ledger's own; once however often
    it is added."""
    if check not in ADDED:
        ADDED.append(check)


def problems() -> list[str]:
    """Everything wrong with the ledger, one sentence per kind of fault; [] when it is all right."""
    found: list[str] = []
    for check in [*CHECKS, *ADDED]:
        found += check()
    return found
