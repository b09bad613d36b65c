"""A leaver waits longer: each public table a player left (resigned, or gave up by leaving, while it
was in play) in the last day holds their next Play now a little longer before anyone is seated with
them, doubling from 15 s to at most 4 minutes. The waiting screen says so, and why.

>>> [hold_seconds(n) for n in range(7)]
[0, 15, 30, 60, 120, 240, 240]
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from ..models import Seat

FIRST_HOLD = 15  # seconds, after one table left
MOST_HOLD = 240
COUNTED_HOURS = 24


def hold_seconds(tables_left: int) -> int:
    if tables_left <= 0:
        return 0
    return min(MOST_HOLD, FIRST_HOLD * 2 ** (tables_left - 1))


def tables_left(user_id: int) -> int:
    """Public tables the player left in play in the last COUNTED_HOURS (their seat resigned: the
    computer played it on, or the round ended on it)."""
    since = timezone.now() - timedelta(hours=COUNTED_HOURS)
    return (
        Seat.objects.filter(
            user_id=user_id, resigned=True, game__public=True, game__started__gte=since
        )
        .values("game_id")
        .distinct()
        .count()
    )
