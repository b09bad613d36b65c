"""What the staked lobby reads: the rooms waiting for an opponent, their hosts' staked records and
ratings."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from leaderboard.models import Result
from leaderboard.ratings.reads import ShownRating, shown_ratings

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


def host_ratings(rooms: Iterable[Game]) -> dict[str, ShownRating]:
    """{room id: its host's rating in the room's rule set} (one query per rule set listed)."""
    by_ruleset: dict[str, list[Game]] = {}
    for room in rooms:
        if room.owner_id is not None:
            by_ruleset.setdefault(room.ruleset, []).append(room)
    out: dict[str, ShownRating] = {}
    for ruleset, listed in by_ruleset.items():
        ratings = shown_ratings({r.owner_id for r in listed if r.owner_id is not None}, ruleset)
        out |= {r.pk: ratings[r.owner_id] for r in listed if r.owner_id is not None}
    return out
