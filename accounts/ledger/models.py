"""The coin ledger's tables (docs/ledger.md): double entry, append-only, integers only.

Imported by accounts/models.py so Django finds them. Services that write them live beside this module
(accounts/ledger/posting.py is the only writer of entries).
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.db import models


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk updates and deletes are refused: the ledger's history is never rewritten."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise LedgerIsAppendOnly(f"{self.model.__name__} rows are never changed.")

    def delete(self) -> NoReturn:
        raise LedgerIsAppendOnly(f"{self.model.__name__} rows are never deleted.")


class LedgerIsAppendOnly(Exception):
    pass


class LedgerAccount(models.Model):
    """Where coins sit: a player's wallet, a staked game's escrow, a pool (the escrow of something
    above the games that points at it, such as a tournament: the ledger knows nothing of what it holds
    coins for), the house (rake) or the source.

        `balance` is a cached total kept only for wallets and escrows, updated under the row lock in the
        transaction that writes their entries (the constraint makes the database refuse a negative one).
        The house's and the source's balances are sums of their entries: caching them would make every
        settlement and every grant queue on one hot row.
    """

    class Kind(models.TextChoices):
        WALLET = "wallet", "Wallet"
        ESCROW = "escrow", "Escrow"
        POOL = "pool", "Pool"
        HOUSE = "house", "House"
        SOURCE = "source", "Source"

    CACHED = (Kind.WALLET, Kind.ESCROW, Kind.POOL)

    kind = models.CharField(max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
    )
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
    )
    balance = models.BigIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="ledger_balance_gte_0"),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="wallet", user__isnull=False, game__isnull=True)
                    | models.Q(kind="escrow", user__isnull=True, game__isnull=False)
                    | models.Q(kind="pool", user__isnull=True, game__isnull=True)
                    | models.Q(kind__in=["house", "source"], user__isnull=True, game__isnull=True)
                ),
                name="ledger_account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(kind="wallet"), name="ledger_one_wallet"
            ),
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(kind="escrow"), name="ledger_one_escrow"
            ),
            models.UniqueConstraint(
                fields=["kind"],
                condition=models.Q(kind__in=["house", "source"]),
                name="ledger_one_house_one_source",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.WALLET:
            return f"wallet of user {self.user_id}"
        if self.kind == self.Kind.ESCROW:
            return f"escrow of game {self.game_id}"
        if self.kind == self.Kind.POOL:
            return f"pool #{self.pk}"
        return self.get_kind_display()

    @property
    def is_cached(self) -> bool:
        return self.kind in self.CACHED

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise LedgerIsAppendOnly("Ledger accounts are never deleted.")


class LedgerTransaction(models.Model):
    """One movement of coins: its entries sum to zero. `closes` marks the one transaction that empties
    a game's escrow or a pool (payout, prizes or refund); being one-to-one, the database refuses a second."""

    class Kind(models.TextChoices):
        GRANT = "grant", "Welcome grant"
        TOP_UP = "top_up", "Daily top-up"
        STAKE = "stake", "Stake"
        PAYOUT = "payout", "Payout"
        RAKE = "rake", "House cut"
        REFUND = "refund", "Refund"
        ADJUSTMENT = "adjustment", "Adjustment"
        BUY_IN = "buy_in", "Buy-in"
        PRIZE = "prize", "Prize"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason = models.CharField(max_length=200)
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_transactions",
    )
    closes = models.OneToOneField(
        LedgerAccount,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="closing",
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["game", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}: {self.reason}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise LedgerIsAppendOnly("Ledger transactions are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise LedgerIsAppendOnly("Ledger transactions are never deleted.")


class LedgerEntry(models.Model):
    """One leg of a transaction. `balance_after` is the account's balance once this entry was posted
    (wallets and escrows; None for the house and the source, whose balances are sums)."""

    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField(null=True, blank=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledger_entry_not_zero"),
            models.UniqueConstraint(
                fields=["transaction", "account"], name="ledger_entry_one_leg_per_account"
            ),
        ]
        indexes = [models.Index(fields=["account", "-id"], name="ledger_entry_history_idx")]

    def __str__(self) -> str:
        return f"{self.amount:+d} on {self.account}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise LedgerIsAppendOnly("Ledger entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise LedgerIsAppendOnly("Ledger entries are never deleted.")


class TopUpClaim(models.Model):
    """A claimed daily top-up: at most one per player per UTC day, by the unique constraint."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    day = models.DateField()
    transaction = models.OneToOneField(LedgerTransaction, on_delete=models.PROTECT)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="top_up_once_per_day"),
        ]

    def __str__(self) -> str:
        return f"top-up of user {self.user_id} on {self.day}"


class LedgerCheck(models.Model):
    """The outcome of the last scheduled check of the ledger (accounts.ledger.watch): one row, read by
    every process, so each shows the Admin group a banner while the ledger has problems."""

    checked = models.DateTimeField()
    problems = models.TextField(blank=True)  # one problem a line; empty: all is well

    def __str__(self) -> str:
        return f"ledger check at {self.checked:%Y-%m-%d %H:%M}: {'problems' if self.problems else 'ok'}"

    @property
    def problem_list(self) -> list[str]:
        return self.problems.splitlines()
