"""The windows a moment belongs to (its UTC day, week, month, and all time), as the standings key them."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django.utils import timezone

from .models import Period

ALL_TIME_START = date(2000, 1, 1)  # the `start` of every all-time Standing row


def utc_day(when: datetime) -> date:
    return when.astimezone(UTC).date() if timezone.is_aware(when) else when.date()


def period_starts(when: datetime) -> list[tuple[str, date]]:
    """The (period, first day) of each window a moment belongs to, in UTC."""
    day = utc_day(when)
    return [
        (Period.WEEK, day - timedelta(days=day.weekday())),
        (Period.MONTH, day.replace(day=1)),
        (Period.ALL, ALL_TIME_START),
    ]


def midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def next_month(day: date) -> date:
    return (day.replace(day=28) + timedelta(days=4)).replace(day=1)
