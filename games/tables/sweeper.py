"""The waiting list's sweep, every couple of seconds from the deadline sweep (games.tasks):

- entries nobody waits at any more (no waiting screen has polled for UNATTENDED_SECONDS) stop;
- every kind with players waiting is seated again: ranges have widened, holds have ended and
  computers have become due since the last press (waiting.seat_waiting).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from ..models import Game
from .models import TableWait
from .waiting import queue_lock, seat_waiting, stop_entries

log = logging.getLogger(__name__)

UNATTENDED_SECONDS = 30
LEFT = "You left the waiting screen, so you stopped waiting."


def sweep(now: datetime | None = None) -> list[Game]:
    """Stop the unattended entries, then seat every kind that can be; the tables opened."""
    now = now or timezone.now()
    waiting = TableWait.objects.filter(status=TableWait.Status.WAITING)
    stale = waiting.filter(seen__lt=now - timedelta(seconds=UNATTENDED_SECONDS))
    for table in sorted(set(stale.values_list("table", flat=True))):
        with transaction.atomic():
            queue_lock(table)
            stop_entries(list(stale.filter(table=table)), LEFT)
    opened: list[Game] = []
    for table in sorted(set(waiting.values_list("table", flat=True))):
        try:
            with transaction.atomic():
                queue_lock(table)
                opened += seat_waiting(table, now)
        except Exception:  # one kind's failure must not keep the others waiting
            log.exception("seating public tables of %s failed", table)
    return opened
