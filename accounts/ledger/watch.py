"""Beat runs `check` hourly (accounts.tasks.check_ledger): the ledger's invariants over the whole
database (accounts.ledger.checks). A problem is logged at ERROR and kept in a row that every process
reads, so each page shows it to the Admin group (`alarm`) until a later check finds the ledger sound.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from .checks import problems
from .models import LedgerCheck

log = logging.getLogger(__name__)
ROW = 1  # the one row: only the latest outcome matters


def check() -> list[str]:
    """Check the ledger now and record the outcome; the problems found ([] when all is well)."""
    found = problems()
    LedgerCheck.objects.update_or_create(
        pk=ROW, defaults={"checked": timezone.now(), "problems": "\n".join(found)}
    )
    if found:
        log.error("check_ledger found problems in the ledger:\n%s", "\n".join(found))
    else:
        log.info("check_ledger: the ledger is sound")
    return found


def last_check() -> LedgerCheck | None:
    """The outcome of the last check (None before the first one)."""
    return LedgerCheck.objects.filter(pk=ROW).first()


def alarm(user: Any) -> LedgerCheck | None:
    """The last check, if it found problems and `user` may read the ledger (the Admin group)."""
    # Staff first, as moderation asks (accounts.moderation): a player's page costs no query here.
    # getattr: pages rendered without a context (the 500 page) have "" for a user.
    if not getattr(user, "is_staff", False) or not user.is_active:
        return None
    if not user.has_perm("accounts.view_ledgertransaction"):
        return None
    return LedgerCheck.objects.filter(pk=ROW).exclude(problems="").first()
