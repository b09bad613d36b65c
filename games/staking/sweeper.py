"""The waiting entries' sweeps, every couple of seconds from the deadline sweep:

- `withdraw_unattended`: open staked rooms and quick-match entries whose host has left the page are
  withdrawn and refunded (and logging out or another account in the same browser withdraws the
  player's entry, `do_withdraw_entry`);
- `pair_waiting`: quick-match entries whose ranges have widened to take each other in are paired,
  closest in rating first (games/staking/pairing.py).
"""

from __future__ import annotations

import time
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.users import browsers
from leaderboard.ratings.reads import shown_ratings

from ..core import presence
from ..core.actors import Actor
from ..core.errors import GameError
from ..models import Game, Seat
from .pairing import Waiting, closest_first
from .quick import pair_entries, queue_lock, waiting_entries
from .rooms import do_cancel_staked_room

UNATTENDED_SECONDS = 30


def _absent_key(game_id: str) -> str:
    return f"ludopat:staked:{game_id}:host-absent-since"


def withdraw_unattended(limit: int = 200) -> int:
    """Withdraw (and refund) open staked rooms and quick-match entries whose host has had no page open
    for UNATTENDED_SECONDS. Called by the deadline sweeper every couple of seconds; the number withdrawn.

    "A page open" is the game page's socket or the lobby's refresh (games.core.presence); for a rematch
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
            do_withdraw_entry(user_id, game_id)
            withdrawn += 1
        except GameError:
            pass  # joined, or cancelled, in the meantime
        redis.delete(key)
    return withdrawn


def do_withdraw_entry(user_id: int, game_id: str | None = None) -> Game | None:
    """Cancel the player's open staked room or quick-match entry (stake refunded), if any."""
    game_id = (
        game_id
        or Game.objects.filter(owner_id=user_id, stake__gt=0, status=Game.Status.OPEN)
        .values_list("pk", flat=True)
        .first()
    )
    if game_id is None:
        return None
    return do_cancel_staked_room(Actor(user_id, ""), game_id)


def pair_waiting(now: datetime | None = None) -> int:
    """Pair the quick-match entries whose ranges now take each other in, in every stake and rule set
    (`now`: the time the ranges are measured at). The number of games started."""
    now = now or timezone.now()
    queues = (
        Game.objects.filter(quick=True, status=Game.Status.OPEN, stake__gt=0)
        .order_by("stake", "ruleset")
        .values_list("stake", "ruleset")
        .distinct()
    )
    return sum(_pair_queue(stake, ruleset, now) for stake, ruleset in queues)


def _pair_queue(stake: int, ruleset: str, now: datetime) -> int:
    """One queue's pass, holding its lock (no press pairs an entry this pass counts on): read the
    entries and their ratings, pair closest first, each pair in a savepoint of its own so one refused
    pair (a ban landing, an entry cancelled meanwhile) leaves the others paired."""
    with transaction.atomic():
        queue_lock(stake, ruleset)
        rows = waiting_entries(stake, ruleset)
        if len(rows) < 2:
            return 0
        ratings = shown_ratings({owner for _, owner, _ in rows}, ruleset)
        entries = [
            Waiting(game_id, owner, ratings[owner].value, made.timestamp())
            for game_id, owner, made in rows
        ]
        sharing: dict[int, set[int]] = {}

        def may_play(a: Waiting, b: Waiting) -> bool:
            if a.user_id not in sharing:  # asked only of pairs in range: few queries
                sharing[a.user_id] = browsers.accounts_sharing_a_browser_with(a.user_id)
            return a.user_id != b.user_id and b.user_id not in sharing[a.user_id]

        paired = 0
        for earlier, later in closest_first(entries, now.timestamp(), may_play):
            try:
                pair_entries(earlier.game_id, later.game_id)
            except GameError:
                continue
            paired += 1
        return paired
