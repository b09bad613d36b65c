"""What pages read of challenges: the offers waiting for a player (every page's notices, the Friends
page), the ones they made, and one challenge for its own page."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from .models import Challenge

SHOWN = 20


def waiting_for(user_id: int) -> list[Challenge]:
    """The challenges to `user_id` still to answer, the newest first (one indexed query)."""
    rows = Challenge.objects.filter(
        challenged_id=user_id, status=Challenge.Status.PENDING, lapses__gt=timezone.now()
    ).select_related("challenger", "challenged")
    return list(rows.order_by("-created", "-pk")[:SHOWN])


def made_by(user_id: int) -> list[Challenge]:
    """The player's own challenges: waiting ones, and the answers of the last ones."""
    rows: QuerySet[Challenge] = Challenge.objects.filter(challenger_id=user_id).select_related(
        "challenger", "challenged", "room"
    )
    return list(rows.order_by("-created", "-pk")[:SHOWN])


def challenge_for(user_id: int, challenge_id: int) -> Challenge | None:
    """The challenge, if `user_id` made it or was challenged (anyone else: None)."""
    found = (
        Challenge.objects.filter(pk=challenge_id)
        .select_related("challenger", "challenged", "room")
        .first()
    )
    if found is None or user_id not in (found.challenger_id, found.challenged_id):
        return None
    return found


def open_table_of(user_id: int) -> Challenge | None:
    """The challenge whose 4-seat table the player hosts and which waits to start with an open seat
    (friends may be invited to it), if any."""
    return (
        Challenge.objects.filter(
            challenger_id=user_id,
            status=Challenge.Status.ACCEPTED,
            seats=4,
            room__status="open",
            room__owner_id=user_id,
            room__seats__kind="open",
        )
        .select_related("room")
        .order_by("-answered")
        .first()
    )
