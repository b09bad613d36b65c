"""Celery tasks of the leaderboard: thin wrappers around its services."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.core.cache import cache

from .ratings.replay import Replayed, left_waiting, replay_requested

REPLAY_LOCK_SECONDS = 600  # longer than any replay (bench/ratings.py: 100,000 rounds) takes
RETRY_SECONDS = 5
BUSY = "busy"  # another worker is replaying the rule set


@shared_task(bind=True, ignore_result=True, max_retries=None)
def replay_ratings(self: Any, ruleset: str) -> int | None:
    """Replay the rule set's ratings as requested; one replay per rule set at a time (a Redis lock):
    a second request while one runs comes back later, and finds the marker the first left or not."""
    done = _replay_alone(ruleset)
    if isinstance(done, str):  # BUSY
        raise self.retry(countdown=RETRY_SECONDS)
    return done.rounds if done else None


@shared_task(ignore_result=True)
def finish_lost_replays() -> list[str]:
    """Beat, every minute: a replay asked for over a minute ago that no worker is doing (its task was
    lost with a worker, or never queued because the broker was down when the removal committed) is
    done here, so no page says "recalculating" for ever. The rule sets replayed."""
    return [ruleset for ruleset in left_waiting() if isinstance(_replay_alone(ruleset), Replayed)]


def _replay_alone(ruleset: str) -> Replayed | str | None:
    lock = f"leaderboard:replay-ratings:{ruleset}"
    if not cache.add(lock, "1", REPLAY_LOCK_SECONDS):
        return BUSY
    try:
        return replay_requested(ruleset)
    finally:
        cache.delete(lock)
