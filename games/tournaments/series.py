"""Scheduled series: an admin defines a recurring tournament once (TournamentSeries) and beat opens
each instance, a scheduled tournament (`Tournament.scheduled_for` is its slot), `open_minutes` ahead
of its slot; from there it is any scheduled tournament (sweeper: its players told seconds before,
started at its time, cancelled with every buy-in back if not full).

Slots are wall-clock times in the series' time zone, so a daily 20:00 stays 20:00 for its players
across a change of summer time: a daily time that a spring change skips opens an hour later that day
(zoneinfo's reading of a time in the gap), one that an autumn change repeats opens once, at its first
occurrence; an hourly series has a slot in every real hour, 23 or 25 on those days.

Opening is idempotent: the database holds one instance per (series, slot), so two beats, a repeated
run or a run that overlaps the last one open each slot once.
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta
from statistics import median
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import DurationField, ExpressionWrapper, F
from django.utils import timezone

from .models import Tournament, TournamentSeries
from .registration import open_tournament

log = logging.getLogger(__name__)

HOUR = timedelta(hours=1)


def slots_between(series: TournamentSeries, start: datetime, end: datetime) -> list[datetime]:
    """The series' slots in (start, end], as aware UTC datetimes, in order."""
    zone = ZoneInfo(series.time_zone)
    if series.every == TournamentSeries.Every.HOURLY:
        found = set()
        # Every real hour (stepped in UTC, so a repeated or skipped local hour counts as it is lived),
        # at the series' minute of the local hour.
        hour = start.astimezone(UTC).replace(minute=0, second=0, microsecond=0) - HOUR
        while hour <= end + HOUR:
            local = hour.astimezone(zone).replace(minute=series.at_time.minute, second=0)
            found.add(local.astimezone(UTC))
            hour += HOUR
        slots = sorted(found)
    else:
        first, last = start.astimezone(zone).date(), end.astimezone(zone).date()
        days = [first + timedelta(days=n) for n in range(-1, (last - first).days + 2)]
        slots = [_at(day, series.at_time, zone) for day in days]
    return [slot for slot in slots if start < slot <= end]


def _at(day: date, at: time, zone: ZoneInfo) -> datetime:
    """`at` on `day` in `zone`, in UTC (fold 0: the first of a repeated time; a skipped time is read
    with the offset before the change, so it falls an hour later)."""
    local = datetime.combine(day, at.replace(second=0, microsecond=0), tzinfo=zone)
    return local.astimezone(UTC)


def next_slot(series: TournamentSeries, now: datetime) -> datetime | None:
    """The series' first slot after `now` (within two days: every series has one)."""
    upcoming = slots_between(series, now, now + timedelta(days=2))
    return upcoming[0] if upcoming else None


def do_open_due(now: datetime | None = None) -> int:
    """Beat's part: open every active series' instances whose slot is within its `open_minutes`.
    The number opened now (a slot already open counts for nothing)."""
    now = now or timezone.now()
    opened = 0
    for series in TournamentSeries.objects.filter(active=True):
        ahead = now + timedelta(minutes=series.open_minutes)
        for slot in slots_between(series, now, ahead):
            if _open_instance(series, slot):
                opened += 1
    return opened


def _open_instance(series: TournamentSeries, slot: datetime) -> bool:
    if Tournament.objects.filter(series=series, scheduled_for=slot).exists():
        return False
    try:
        with transaction.atomic():  # a savepoint: the other beat's insert of this slot wins
            tournament = open_tournament(
                series.size, series.buy_in, series.timer_seconds, scheduled_for=slot
            )
            tournament.series, tournament.ruleset = series, series.ruleset
            tournament.save(update_fields=["series", "ruleset"])
    except IntegrityError:
        return False
    log.info("series %s: opened tournament %s for %s", series.pk, tournament.pk, slot.isoformat())
    return True


def upcoming_series(now: datetime | None = None) -> list[tuple[TournamentSeries, datetime]]:
    """Each active series whose next instance beat hasn't opened yet, with that slot (soonest
    first): the lobby says when it opens."""
    now = now or timezone.now()
    pairs = []
    for series in TournamentSeries.objects.filter(active=True):
        slot = next_slot(series, now)
        if (
            slot is not None
            and not Tournament.objects.filter(series=series, scheduled_for=slot).exists()
        ):
            pairs.append((series, slot))
    return sorted(pairs, key=lambda pair: pair[1])


def usual_minutes(size: int, sample: int = 50) -> int | None:
    """How long a tournament of this size usually takes, start to prizes: the median of the last
    `sample` finished ones, in whole minutes (at least 1); None before any has finished."""
    took = ExpressionWrapper(F("finished") - F("started"), output_field=DurationField())
    durations = list(
        Tournament.objects.filter(
            size=size,
            status=Tournament.Status.FINISHED,
            started__isnull=False,
            finished__isnull=False,
        )
        .order_by("-finished")
        .annotate(took=took)
        .values_list("took", flat=True)[:sample]
    )
    if not durations:
        return None
    return max(1, round(median(d.total_seconds() for d in durations) / 60))
