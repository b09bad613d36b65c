"""The "starts in N s" notice of a scheduled tournament, and when its players are owed it.

Beat's sweep tells every player once, a countdown (start_delay) before the scheduled time
(games.tournaments.sweeper). Whoever registers or leaves after that notice changes what it said: the
newcomer is told too, and when the seats become full, or stop being full, everyone is told afresh
(games.tournaments.registration), so no player waits on a start they were never told of or on a
promise that no longer holds.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.core.cache import cache
from redis.exceptions import RedisError

from . import bracket, live
from .models import Tournament
from .rules import start_delay

log = logging.getLogger(__name__)


def counting_down(tournament: Tournament, now: datetime) -> bool:
    """A scheduled tournament within the countdown before its time: its players have been told (or
    are being told) that it starts soon."""
    if tournament.scheduled_for is None or tournament.starts_at is None:
        return False
    return now < tournament.starts_at <= now + timedelta(seconds=start_delay())


def _told_key(tournament: Tournament) -> str:
    starts_ms = int(tournament.starts_at.timestamp() * 1000)  # type: ignore[union-attr]
    return f"tournaments:told-soon:{tournament.pk}:{starts_ms}"


def first_telling(tournament: Tournament) -> bool:
    """True once per tournament and start time: the sweep that gets it tells every player. Kept in
    the cache (a flushed cache tells them again, which is harmless); the cache down raises."""
    return bool(cache.add(_told_key(tournament), 1, 600))


def told_already(tournament: Tournament, now: datetime) -> bool:
    """The sweep has told this tournament's players it starts soon (so a change to its seats is news
    to them). The cache down: as if not, and the sweep tells no one either."""
    if not counting_down(tournament, now):
        return False
    try:
        return cache.get(_told_key(tournament)) is not None
    except RedisError:
        log.warning(
            "the cache is down: tournament %s's seats change without a notice", tournament.pk
        )
        return False


def starting_in(tournament: Tournament, players: list[int], now: datetime) -> str:
    seconds = max(1, round((tournament.starts_at - now).total_seconds()))  # type: ignore[operator]
    missing = tournament.size - len(players)
    if not missing:
        return f"Tournament #{tournament.pk} starts in {seconds} s."
    return (
        f"Tournament #{tournament.pk} starts in {seconds} s if its last "
        f"{missing} seat{'s' if missing > 1 else ''} fill; if not, it is cancelled and every "
        "buy-in comes back."
    )


def tell_on_commit(
    tournament: Tournament, told: list[int], players: list[int], now: datetime
) -> None:
    """Tell `told` (some or all of `players`, the registered ones) how the start stands, once this
    transaction commits."""
    live.tell_on_commit(
        told,
        starting_in(tournament, players, now),
        bracket.bracket_url(tournament),
        "See the bracket",
        tournament_id=tournament.pk,
    )
