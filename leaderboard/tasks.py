"""Celery tasks of the leaderboard: thin wrappers around its services."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.core.cache import cache

from .ratings.replay import replay_requested

REPLAY_LOCK_SECONDS = 600  # longer than any replay (bench/ratings.py: 100,000 rounds) takes
RETRY_SECONDS = 5


@shared_task(bind=True, ignore_result=True, max_retries=None)
def replay_ratings(self: Any, ruleset: str) -> int | None:
    """Replay the rule set's ratings as requested; one replay per rule set at a time (a Redis lock):
    a second request while one runs comes back later, and finds the marker the first left or not."""
    lock = f"leaderboard:replay-ratings:{ruleset}"
    if not cache.add(lock, "1", REPLAY_LOCK_SECONDS):
        raise self.retry(countdown=RETRY_SECONDS)
    try:
        done = replay_requested(ruleset)
    finally:
        cache.delete(lock)
    return done.rounds if done else None
