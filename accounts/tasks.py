"""Celery tasks of accounts: housekeeping that beat runs on a schedule (ludopat/settings.py)."""

from __future__ import annotations

from celery import shared_task
from django.core.management import call_command


@shared_task(name="accounts.tasks.clear_sessions")
def clear_sessions() -> None:
    """Delete expired sessions: every anonymous page view writes a session row (the player key), and
    without this they pile up for ever."""
    call_command("clearsessions")


@shared_task(name="accounts.tasks.lift_expired_bans")
def lift_expired_bans() -> int:
    """Timed bans end on time (accounts.users.sanctions)."""
    from .users.sanctions import lift_expired_bans as lift

    return lift()


@shared_task(name="accounts.tasks.check_ledger")
def check_ledger() -> list[str]:
    """The ledger's invariants, hourly: a problem is logged at ERROR and shown to the Admin group."""
    from .ledger.watch import check

    return check()
