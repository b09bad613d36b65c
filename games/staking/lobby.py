"""What the staked lobby reads: the rooms waiting for an opponent and their hosts' staked records."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from leaderboard.models import Result

from ..models import Game


def open_rooms(limit: int) -> QuerySet[Game]:
    """Staked rooms waiting for an opponent, oldest first (quick-match entries and rematch offers,
    which are someone's alone, are not listed)."""
    return (
        Game.objects.filter(stake__gt=0, quick=False, status=Game.Status.OPEN, invitee__isnull=True)
        .select_related("owner")
        .order_by("created", "pk")[:limit]
    )


def staked_records(user_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """{user id: (staked games won, lost)}, from the stored results of the staked games they played
    to a place: a win is first place. (Refunded games, which end with no places, count as neither.)"""
    records: dict[int, list[int]] = {}
    rows = Result.objects.filter(user_id__in=list(user_ids), round__game__stake__gt=0)
    for user_id, place in rows.values_list("user_id", "place"):
        record = records.setdefault(user_id, [0, 0])
        record[0 if place == 1 else 1] += 1
    return {user_id: (won, lost) for user_id, (won, lost) in records.items()}
