"""Beat's part (games.tasks.sweep_deadlines, every couple of seconds): tournaments whose start time has
come (a countdown's task lost with its worker, or an admin's schedule) are started, or cancelled if a
scheduled one is not full; and the players of a scheduled one are told a few seconds before its time,
as a sit-and-go's players are when it fills."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from redis.exceptions import RedisError

from . import bracket, starting_soon
from .models import Tournament
from .rules import start_delay
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


def tell_starting_soon(now: datetime | None = None) -> int:
    """Tell the players of every scheduled tournament starting within the sit-and-go's countdown
    (start_delay: 10 s) that it is about to start, once; how many tournaments were told. Once is
    kept in the cache (a flushed cache tells them again, which is harmless; a failing one tells no
    one and fails nothing)."""
    now = now or timezone.now()
    soon = Tournament.objects.filter(
        status=Tournament.Status.OPEN,
        scheduled_for__isnull=False,
        starts_at__gt=now,
        starts_at__lte=now + timedelta(seconds=start_delay()),  # starting_soon.counting_down
    )
    told = 0
    for tournament_id in list(soon.order_by("pk").values_list("pk", flat=True)):
        # Under the tournament's lock, as registering and leaving are: a registration in flight
        # either commits before the seats are read here, or finds the notice marked as given and
        # tells its player itself (starting_soon.told_already); never neither.
        with transaction.atomic():
            tournament = bracket.lock_tournament(tournament_id)
            if tournament.status != Tournament.Status.OPEN or not starting_soon.counting_down(
                tournament, now
            ):
                continue  # started, cancelled or moved meanwhile
            try:
                first = starting_soon.first_telling(tournament)
            except RedisError:
                log.warning(
                    "the cache is down: tournament %s starts without a notice", tournament.pk
                )
                return told
            if not first:
                continue
            players = list(tournament.entries.values_list("user_id", flat=True))
            starting_soon.tell_on_commit(tournament, players, players, now)
            told += 1
    return told
