"""`manage.py check_ledger`: verify the coin ledger's invariants over the whole database.

Prints "ledger ok: ..." and exits 0, or lists what is wrong and exits 1 (for operators and cron).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count

from accounts.ledger.checks import problems
from accounts.ledger.models import LedgerEntry, LedgerTransaction


class Command(BaseCommand):
    help = "Verify the coin ledger: balanced transactions, no negative wallet, escrows closed once."

    def handle(self, *args: Any, **options: Any) -> None:
        found = problems()
        if found:
            raise CommandError(
                "ledger has problems:\n" + "\n".join(f"- {problem}" for problem in found)
            )
        counts = LedgerTransaction.objects.aggregate(n=Count("pk"))
        entries = LedgerEntry.objects.count()
        self.stdout.write(f"ledger ok: {counts['n']} transactions, {entries} entries")
