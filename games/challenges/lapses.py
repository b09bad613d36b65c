"""Challenges nobody answered lapse 2 minutes after they were made: the accept checks the time itself
(a lapsed challenge is never accepted, swept or not), and the beat's sweep
(games.tasks.sweep_deadlines) marks them lapsed and tells both players' open pages.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from . import live
from .models import Challenge

SWEEP_READ = 200  # at most this many a sweep (every ~2 s): the rest the next one


def lapse_due(now: datetime | None = None) -> int:
    """Mark the challenges past their time lapsed, each under its row's lock (an accept holding it
    decides first); the number lapsed."""
    now = now or timezone.now()
    due = list(
        Challenge.objects.filter(status=Challenge.Status.PENDING, lapses__lte=now)
        .order_by("lapses")
        .values_list("pk", flat=True)[:SWEEP_READ]
    )
    done = 0
    for challenge_id in due:
        with transaction.atomic():
            challenge = (
                Challenge.objects.select_for_update(of=("self",))
                .select_related("challenger", "challenged")
                .get(pk=challenge_id)
            )
            if challenge.status != Challenge.Status.PENDING or challenge.lapses > now:
                continue  # answered meanwhile
            challenge.status, challenge.answered = Challenge.Status.LAPSED, now
            challenge.save(update_fields=["status", "answered"])
            live.answered_on_commit(challenge)
            done += 1
    return done
