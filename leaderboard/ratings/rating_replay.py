"""Rebuilding a rule set's ratings from its results (docs/ratings.md).

Ratings are a function of the rated results in the order they were written (their ids, which follow the
order the rating rows were locked in, leaderboard.ratings.update). So a round taken out of the standings
(`remove_round`: a void, a moderator's removal) is followed by `replay` from that round's first result
on: every player starts from the rating their last result before it left, every later round is rated
again and its stored changes rewritten, and the rating rows end where the last results leave them.
`manage.py recompute_ratings` replays every rule set from the start (the backfill at deploy, and the
check that the stored ratings are what the results give).

While a rule set waits for its replay, a `RatingReplay` row says from where, and pages say
"recalculating"; `request_replay` writes it in the transaction that took the round out, and queues the
task (leaderboard.tasks) after commit. A request whose task never ran (lost with a worker, or not
queued while the broker was down) is `left_waiting` after a minute, and beat's
`leaderboard.tasks.finish_lost_replays` does it (`finish_lost`). One replay per rule set runs at a time
(`replay_alone`: a Redis lock; a second one is refused with `ReplayBusy`).

Rounds keep ending in the rule set while it is replayed (minutes, for a large one): `replay` holds
nothing they need while it rates and writes (leaderboard.ratings.rebuild), then catches up with them
in one short transaction in which no round's end rates (leaderboard.ratings.rule_set_lock).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.core.task_queue import send_task

from ..models import RatingReplay, Result
from .board_version import ratings_written
from .rebuild import (
    Rebuild,
    committed_up_to,
    differing,
    missing_ratings,
    write_ratings,
    write_results,
)
from .rule_set_lock import no_one_rating
from .writes import update_rows

REPLAY_TASK = "leaderboard.tasks.replay_ratings"
ATTEMPTS = 3  # a replay started again because a round was taken out while it ran
CATCH_UP_PASSES = 3  # unlocked passes over the rounds that ended meanwhile, before the locked one
FEW_ROUNDS = 100  # a pass that rated fewer leaves the locked catch-up little to do (about 10 ms)
LOST_AFTER = timedelta(minutes=1)  # a queued replay starts within seconds; after this it was lost
LOCK_SECONDS = 600  # longer than any replay (bench/ratings.py: 100,000 rounds) takes


class ReplayBusy(Exception):
    """Another worker is replaying this rule set."""


Asked = tuple[int, datetime]  # a marker's first result and when it was last asked for


@dataclass(frozen=True)
class Replayed:
    rounds: int  # rated rounds replayed
    results: int  # results whose stored rating changed
    players: int  # rating rows written


def request_replay(ruleset: str, from_result: int) -> None:
    """Replay `ruleset` from result `from_result` on, soon (in the caller's transaction: the round's
    removal and the request commit together; the task is queued once they have)."""
    marker, made = RatingReplay.objects.select_for_update().get_or_create(
        ruleset=ruleset, defaults={"from_result": from_result}
    )
    if not made:  # a new time even if it starts no earlier: a replay running tells it came in
        marker.from_result = min(from_result, marker.from_result)
        marker.save(update_fields=["from_result", "requested_at"])
    ratings_written(ruleset)  # its board says "recalculating" from the commit on
    transaction.on_commit(lambda: send_task(REPLAY_TASK, (ruleset,)))


def recalculating() -> set[str]:
    """The rule sets whose ratings wait for a replay (pages say "recalculating")."""
    return set(RatingReplay.objects.values_list("ruleset", flat=True))


def left_waiting() -> list[str]:
    """The rule sets whose replay was asked for over `LOST_AFTER` ago and has not been done."""
    asked_before = timezone.now() - LOST_AFTER
    waiting = RatingReplay.objects.filter(requested_at__lt=asked_before).order_by("ruleset")
    return list(waiting.values_list("ruleset", flat=True))


def lock_key(ruleset: str) -> str:
    return f"leaderboard:replay-ratings:{ruleset}"


def replay_alone(ruleset: str) -> Replayed | None:
    """`replay_requested`, unless another worker is replaying the rule set (`ReplayBusy`)."""
    if not cache.add(lock_key(ruleset), "1", LOCK_SECONDS):
        raise ReplayBusy(ruleset)
    try:
        return replay_requested(ruleset)
    finally:
        cache.delete(lock_key(ruleset))


def finish_lost() -> list[str]:
    """Do every replay `left_waiting` that no worker is doing; the rule sets replayed."""
    done = []
    for ruleset in left_waiting():
        try:
            if replay_alone(ruleset) is not None:
                done.append(ruleset)
        except ReplayBusy:
            continue  # its worker finishes it (or its lock lapses and a later pass does)
    return done


def replay_requested(ruleset: str) -> Replayed | None:
    """Do the replay `request_replay` asked for (None if none is pending, or if removals kept coming
    while it ran: the marker stays, and their own tasks or beat do it)."""
    for _ in range(ATTEMPTS):
        marker = RatingReplay.objects.filter(ruleset=ruleset).first()
        if marker is None:
            return None
        done = replay(ruleset, marker.from_result, asked=_asked(marker))
        if done is not None:
            return done
    return None


def replay(
    ruleset: str, from_result: int = 0, *, asked: Asked | None = None, write: bool = True
) -> Replayed | None:
    """Rate `ruleset` again from result id `from_result` on (0: from scratch), rewriting the stored
    changes that differ and the rating rows of everyone rated since, and delete its marker; None if
    the marker is no longer `asked` (a round was taken out meanwhile: do it again). `write=False`
    writes nothing and counts what differs (`recompute_ratings --check`).

    Rounds end meanwhile: it rates and writes without holding what they need, then catches up with
    them in one short transaction holding the rule set's lock (rule_set_lock), in which no round's
    end rates: those that rated meanwhile are rated again on top of the replayed ratings."""
    rebuild = Rebuild.starting(ruleset, from_result)
    changed = rebuild.rate_until(committed_up_to(ruleset))
    results = written = 0
    if write:
        results, changed = results + write_results(changed), []
        written += write_ratings(ruleset, rebuild.players)
        rebuild.touched.clear()  # whoever a round's end rates from now on is written again below
    for _ in range(CATCH_UP_PASSES):  # rounds that ended meanwhile, while nothing is held yet
        before = rebuild.rounds
        changed += rebuild.rate_until(committed_up_to(ruleset))
        if write:
            results, changed = results + write_results(changed), []
        if rebuild.rounds - before < FEW_ROUNDS:
            break
    with transaction.atomic():
        no_one_rating(ruleset)
        changed += rebuild.rate_until(None)
        if not write:
            unwritten = len(differing(ruleset, rebuild.players))
            unwritten += missing_ratings(ruleset, rebuild.players)
            return Replayed(rebuild.rounds, len(changed), unwritten)
        results += update_rows(Result, ["rating_mu", "rating_sigma", "rating_change"], changed)
        if rebuild.touched:
            written += write_ratings(ruleset, rebuild.players, only=rebuild.touched)
        # After the results: a removal locks its round's results, then the marker.
        marker = RatingReplay.objects.select_for_update().filter(ruleset=ruleset).first()
        if (_asked(marker) if marker else None) != asked:
            transaction.set_rollback(True)
            return None
        if marker is not None:
            marker.delete()
        ratings_written(ruleset)
    return Replayed(rebuild.rounds, results, written)


def marker_now(ruleset: str) -> Asked | None:
    """The rule set's pending replay as it stands (None: none), for `replay`'s `asked`."""
    marker = RatingReplay.objects.filter(ruleset=ruleset).first()
    return _asked(marker) if marker else None


def _asked(marker: RatingReplay) -> Asked:
    return (marker.from_result, marker.requested_at)
