"""Celery tasks of the leaderboard: thin wrappers around its services."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .ratings.rating_replay import ReplayBusy, finish_lost, replay_alone

RETRY_SECONDS = 5


@shared_task(
    name="leaderboard.tasks.replay_ratings", bind=True, ignore_result=True, max_retries=None
)
def replay_ratings(self: Any, ruleset: str) -> int | None:
    """Replay the rule set's ratings as requested; one replay per rule set at a time (a Redis lock):
    a second request while one runs comes back later, and finds the marker the first left or not."""
    try:
        done = replay_alone(ruleset)
    except ReplayBusy:
        raise self.retry(countdown=RETRY_SECONDS) from None
    return done.rounds if done else None


@shared_task(name="leaderboard.tasks.finish_lost_replays", ignore_result=True)
def finish_lost_replays() -> list[str]:
    """Beat, every minute: a replay asked for over a minute ago that no worker is doing (its task was
    lost with a worker, or never queued because the broker was down when the removal committed) is
    done here, so no page says "recalculating" for ever. The rule sets replayed."""
    return finish_lost()
