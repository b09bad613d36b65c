"""Invariants tying tournaments to their pools, run with the ledger's own (`manage.py check_ledger` and
the hourly check: games/apps.py adds them with accounts.ledger.checks.also_check).

- a tournament registering holds one buy-in per player, one in play one per seat; neither is closed;
- a finished tournament's pool is closed and empty, and its buy-ins are exactly its prizes plus the
  house's cut (what its players were told they won is what was paid);
- a cancelled tournament's pool is empty, closed unless it held nothing;
- every pool belongs to a tournament.
"""

from __future__ import annotations

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from accounts.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction

from .models import Tournament, TournamentEntry

LIMIT = 20
Status = Tournament.Status


def _names(rows: object) -> str:
    return ", ".join(str(row) for row in list(rows)[:LIMIT])  # type: ignore[call-overload]


def tournament_problems() -> list[str]:
    found = []
    orphans = LedgerAccount.objects.filter(kind=LedgerAccount.Kind.POOL, tournament__isnull=True)
    if orphans.exists():
        found.append(f"Pools without a tournament: {_names(orphans)}")
    held = Tournament.objects.annotate(players=Count("entries")).select_related("pool")
    wrong = held.filter(status=Status.OPEN).exclude(pool__balance=F("buy_in") * F("players"))
    wrong = wrong | held.filter(status=Status.PLAYING).exclude(
        pool__balance=F("buy_in") * F("size")
    )
    wrong = wrong | held.filter(
        status__in=[Status.OPEN, Status.PLAYING], pool__closing__isnull=False
    )
    if wrong.exists():
        found.append(
            "Tournaments registering or in play whose pool does not hold their buy-ins: "
            + _names(f"#{t.pk} holds {t.pool.balance}" for t in wrong.distinct()[:LIMIT])
        )
    over = Tournament.objects.filter(status__in=[Status.FINISHED, Status.CANCELLED])
    unpaid = over.filter(~Q(pool__balance=0) | Q(status=Status.FINISHED, pool__closing=None))
    if unpaid.exists():
        found.append(
            "Finished or cancelled tournaments whose pool is not empty and closed: "
            + _names(f"#{t.pk}" for t in unpaid[:LIMIT])
        )
    found += _prizes_match_buy_ins()
    return found


def _prizes_match_buy_ins() -> list[str]:
    """Per finished tournament: buy-ins less single refunds = prizes paid + the house's cut, and the
    prizes the entries show = those paid."""

    def into_pool(kind: str) -> Subquery:
        return Subquery(
            LedgerEntry.objects.filter(account=OuterRef("pool"), transaction__kind=kind)
            .order_by()
            .values("account")
            .annotate(total=Sum("amount"))
            .values("total")
        )

    closing = LedgerTransaction.objects.filter(closes=OuterRef(OuterRef("pool")))

    def closing_paid_to(kind: str) -> Subquery:
        """What the pool's closing transaction paid to accounts of this kind (wallets, the house)."""
        return Subquery(
            LedgerEntry.objects.filter(transaction__in=closing.values("pk"), account__kind=kind)
            .order_by()
            .values("transaction")
            .annotate(total=Sum("amount"))
            .values("total")
        )

    paid_to_players = closing_paid_to(LedgerAccount.Kind.WALLET)
    cut = closing_paid_to(LedgerAccount.Kind.HOUSE)
    shown = Subquery(
        TournamentEntry.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(total=Sum("prize"))
        .values("total")
    )
    rows = Tournament.objects.filter(status=Status.FINISHED).annotate(
        buy_ins=Coalesce(into_pool(LedgerTransaction.Kind.BUY_IN), 0),
        refunds=Coalesce(into_pool(LedgerTransaction.Kind.REFUND), 0),
        prizes=Coalesce(paid_to_players, 0),
        cut=Coalesce(cut, 0),
        shown=Coalesce(shown, 0),
    )
    # A refund into the pool is negative: a player who left before the start took their buy-in back.
    kept = F("buy_ins") + F("refunds")
    bad = rows.filter(~Q(prizes=F("shown")) | ~Q(prizes=kept - F("cut")))
    return [
        f"Finished tournament #{t.pk}: buy-ins {t.buy_ins} less refunds {-t.refunds} are not "
        f"prizes {t.prizes} + cut {t.cut} (its entries show {t.shown})"
        for t in bad[:LIMIT]
    ]
