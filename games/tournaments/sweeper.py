"""Beat's part (games.tasks.sweep_deadlines, every couple of seconds): tournaments whose start time has
come (a countdown's task lost with its worker, or an admin's schedule) are started, or cancelled if a
scheduled one is not full."""

from __future__ import annotations

import logging

from django.utils import timezone

from .models import Tournament
from .starting import do_start

log = logging.getLogger(__name__)


def start_due(limit: int = 50) -> int:
    """Start (or cancel) every tournament whose start time has passed; how many started."""
    due = Tournament.objects.filter(
        status=Tournament.Status.OPEN, starts_at__lte=timezone.now()
    ).values_list("pk", flat=True)
    started = 0
    for tournament_id in list(due[:limit]):
        try:
            started += do_start(tournament_id)
        except Exception:  # one broken tournament must not hold the others back
            log.exception("starting tournament %s failed", tournament_id)
    return started
