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
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Min
from django.utils import timezone

from games.task_queue import send_task

from ..models import Rating, RatingReplay, Result
from .board_version import ratings_written
from .scale import DEFAULT_MU, DEFAULT_SIGMA
from .skill import NEW_PLAYER, Skill, rate_places
from .writes import update_rows

REPLAY_TASK = "leaderboard.tasks.replay_ratings"
WRITE_BATCH = 2000
LOST_AFTER = timedelta(minutes=1)  # a queued replay starts within seconds; after this it was lost
LOCK_SECONDS = 600  # longer than any replay (bench/ratings.py: 100,000 rounds) takes


class ReplayBusy(Exception):
    """Another worker is replaying this rule set."""


@dataclass
class Player:
    skill: Skill
    games: int
    last_played: datetime | None


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
    if not made and from_result < marker.from_result:
        marker.from_result = from_result
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
    """Do the replay `request_replay` asked for (None if none is pending), in one transaction that
    holds every rating row of the rule set: rounds ending meanwhile in it wait, then rate on top."""
    with transaction.atomic():
        list(Rating.objects.select_for_update().filter(ruleset=ruleset).order_by("pk").values("pk"))
        marker = RatingReplay.objects.select_for_update().filter(ruleset=ruleset).first()
        if marker is None:
            return None
        done = replay(ruleset, marker.from_result, locked=True)
        marker.delete()
        return done


def replay(ruleset: str, from_result: int = 0, *, locked: bool = False) -> Replayed:
    """Rate `ruleset` again from result id `from_result` on (0: from scratch), rewriting the stored
    changes that differ and the rating rows of everyone rated since. Call it in a transaction."""
    if not locked:
        list(Rating.objects.select_for_update().filter(ruleset=ruleset).order_by("pk").values("pk"))
    start = _whole_rounds_from(ruleset, from_result)
    players = _players_before(ruleset, start)
    later = (
        Result.objects.filter(ruleset=ruleset, pk__gte=start)
        .order_by("pk")
        .values_list(
            "pk",
            "round_id",
            "user_id",
            "place",
            "counted",
            "against_people",
            "finished_at",
            "rating_mu",
            "rating_sigma",
            "rating_change",
        )
    )
    tables: dict[int, list[tuple]] = {}  # round id: its results, rounds in the order of their first
    for row in later.iterator(chunk_size=WRITE_BATCH):
        tables.setdefault(row[1], []).append(row)
    changed: list[tuple[int, float | None, float | None, int | None]] = []
    rounds = 0
    for table in tables.values():
        rated = sorted(
            (row for row in table if row[4] and row[5] and row[2] is not None),
            key=lambda row: row[3],
        )
        stored = {row[0]: (row[7], row[8], row[9]) for row in table}
        new: dict[int, tuple[float | None, float | None, int | None]] = dict.fromkeys(
            stored, (None, None, None)
        )
        if len(rated) >= 2:
            rounds += 1
            before = [players.get(row[2], Player(NEW_PLAYER, 0, None)) for row in rated]
            after = rate_places([p.skill for p in before])
            for row, old, skill in zip(rated, before, after, strict=True):
                new[row[0]] = (skill.mu, skill.sigma, skill.shown - old.skill.shown)
                players[row[2]] = Player(skill, old.games + 1, row[6])
        changed += [(pk, *values) for pk, values in new.items() if stored[pk] != values]
    update_rows(Result, ["rating_mu", "rating_sigma", "rating_change"], changed)
    return Replayed(rounds, len(changed), _write_ratings(ruleset, players))


def _whole_rounds_from(ruleset: str, from_result: int) -> int:
    """The first result id from which whole rounds follow: a round's results are written by one
    statement, but another round's may take ids between them, so a round may straddle `from_result`."""
    start = from_result
    while start > 0:
        straddling = Result.objects.filter(
            ruleset=ruleset,
            round_id__in=Result.objects.filter(ruleset=ruleset, pk__gte=start).values("round_id"),
            pk__lt=start,
        ).aggregate(first=Min("pk"))["first"]
        if straddling is None:
            break
        start = straddling
    return start


def _players_before(ruleset: str, start: int) -> dict[int, Player]:
    """Each player's rating as their last rated result before `start` left it."""
    if start <= 0:
        return {}
    earlier = Result.objects.filter(
        ruleset=ruleset, pk__lt=start, rating_mu__isnull=False, user_id__isnull=False
    )
    last = {
        row["user_id"]: (row["last"], row["games"])
        for row in earlier.values("user_id").annotate(last=Max("pk"), games=Count("pk"))
    }
    rows = Result.objects.filter(pk__in=[pk for pk, _ in last.values()]).values_list(
        "user_id", "rating_mu", "rating_sigma", "finished_at"
    )
    return {
        user_id: Player(Skill(mu, sigma), last[user_id][1], when)
        for user_id, mu, sigma, when in rows
        if user_id is not None and mu is not None and sigma is not None  # as filtered above
    }


def _write_ratings(ruleset: str, players: dict[int, Player]) -> int:
    """Set every rating row of the rule set to where the results leave it (a player with no rated
    result left gets the new player's rating back). Returns the rows written."""
    rows = list(Rating.objects.filter(ruleset=ruleset))
    known = {row.user_id for row in rows}
    rows += [
        Rating(user_id=user_id, ruleset=ruleset, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, value=0)
        for user_id in players.keys() - known
    ]
    changed = []
    for row in rows:
        player = players.get(row.user_id, Player(NEW_PLAYER, 0, None))
        want = (player.skill.mu, player.skill.sigma, player.skill.shown, player.games)
        want_last = player.last_played
        if (row.mu, row.sigma, row.value, row.games) != want or row.last_played != want_last:
            row.mu, row.sigma, row.value, row.games = want
            row.last_played = want_last
            changed.append(row)
    Rating.objects.bulk_create([r for r in changed if r.pk is None], batch_size=WRITE_BATCH)
    update_rows(
        Rating,
        ["mu", "sigma", "value", "games", "last_played"],
        [(r.pk, r.mu, r.sigma, r.value, r.games, r.last_played) for r in changed if r.pk],
    )
    ratings_written(ruleset)  # and the marker of a pending replay goes in the same transaction
    return len(changed)
