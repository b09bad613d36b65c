"""Entries nobody is waiting at: open staked rooms and quick-match entries whose host has left the
page are withdrawn and refunded (the deadline sweep calls `withdraw_unattended` every couple of
seconds), and logging out or another account in the same browser withdraws the player's entry.
"""

from __future__ import annotations

import time

from .. import presence
from ..actors import Actor
from ..errors import GameError
from ..models import Game, Seat
from .rooms import cancel_staked_room

UNATTENDED_SECONDS = 30


def _absent_key(game_id: str) -> str:
    return f"ludopat:staked:{game_id}:host-absent-since"


def withdraw_unattended(limit: int = 200) -> int:
    """Withdraw (and refund) open staked rooms and quick-match entries whose host has had no page open
    for UNATTENDED_SECONDS. Called by the deadline sweeper every couple of seconds; the number withdrawn.

    "A page open" is the game page's socket or the lobby's refresh (games.presence); for a rematch
    offer, also either player's page of the game it was offered from. The first sweep that sees nobody
    notes the time in Redis, and a later one withdraws the room.
    """
    withdrawn = 0
    rows = (
        Seat.objects.filter(
            index=0, game__stake__gt=0, game__status=Game.Status.OPEN, user__isnull=False
        )
        .values_list("game_id", "user_id", "game__rematch_of_id")
        .order_by("game__created")[:limit]
    )
    redis = presence.client()
    for game_id, user_id, old_id in rows:
        key = _absent_key(game_id)
        # The host at their seat, or (a rematch) the old opponent at the seat offered to them, or
        # either player on the old game's page.
        if presence.connected_seats(game_id) or (
            old_id is not None and presence.connected_seats(old_id)
        ):
            redis.delete(key)
            continue
        now = time.time()
        redis.set(key, now, nx=True, ex=UNATTENDED_SECONDS * 4)
        since = float(redis.get(key) or now)  # type: ignore[arg-type]  # a synchronous client
        if now - since < UNATTENDED_SECONDS:
            continue
        try:
            withdraw_entry(user_id, game_id)
            withdrawn += 1
        except GameError:
            pass  # joined, or cancelled, in the meantime
        redis.delete(key)
    return withdrawn


def withdraw_entry(user_id: int, game_id: str | None = None) -> Game | None:
    """Cancel the player's open staked room or quick-match entry (stake refunded), if any."""
    game_id = (
        game_id
        or Game.objects.filter(owner_id=user_id, stake__gt=0, status=Game.Status.OPEN)
        .values_list("pk", flat=True)
        .first()
    )
    if game_id is None:
        return None
    return cancel_staked_room(Actor(user_id, ""), game_id)
