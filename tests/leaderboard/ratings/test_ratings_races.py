"""Two rounds sharing a player end at the same time (PostgreSQL): the second waits for the first's
rating rows, rates on top of it, and the stored ratings are what a replay of the results gives. Rounds
ending while a rule set's ratings are replayed neither wait for the replay nor lose their ratings."""

from __future__ import annotations

import threading
import time
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction

from leaderboard.finished_rounds import FinishedRound, SeatFacts
from leaderboard.models import Rating, Result
from leaderboard.ratings import skill
from leaderboard.ratings.rating_replay import recalculating, replay_requested
from leaderboard.ratings.update import lock_ratings
from leaderboard.results import record_played
from leaderboard.round_removal import remove_round
from tests.leaderboard.helpers import bare_round
from tests.races import interleave, nothing, postgres_only

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races, postgres_only]

WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)


def ending(order, when=WHEN):
    """The round-end write of a duel between `order` (first place first), to call later."""
    kept = bare_round("duel")
    seats = [SeatFacts(i, u.pk, u.username) for i, u in enumerate(order)]
    played = FinishedRound(kept.pk, "duel", seats, [0, 1], "won", when)
    return lambda: record_played(played)


def in_a_thread(call, out: list, name: str = "round end") -> threading.Thread:
    """`call()` on a thread of its own (a round's end in a transaction of its own, as the action that
    ends it; a replay as its task runs it, in none); its result or error in `out`."""

    def run():
        try:
            with transaction.atomic() if name == "round end" else nullcontext():
                out.append(call())
        except BaseException as error:  # reported to the test, which asserts on it
            out.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


def waiting_on_a_lock() -> int:
    """How many other connections to the test database wait on a lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_two_rounds_sharing_a_player_rate_one_after_the_other():
    ann, ben, cat = (get_user_model().objects.create_user(n) for n in ("ann", "ben", "cat"))
    first, second = ending([ann, ben]), ending([ben, cat])

    # The first round's end has taken ben's rating row when the second's starts: the second waits
    # for it before writing its results, so its results come after the first's, as it is rated.
    done = interleave(lambda: lock_ratings([ben.pk], "duel"), first, second)
    assert not any(isinstance(side, BaseException) for side in done), done

    assert Rating.objects.get(user=ben, ruleset="duel").games == 2
    lost, won = Result.objects.filter(user=ben).order_by("pk")
    assert (lost.place, won.place) == (2, 1) and won.pk > lost.pk  # written in the order rated
    assert won.rating_change > 0 > lost.rating_change
    call_command("recompute_ratings", "--check", "--ruleset", "duel")  # what a replay gives


def test_rounds_ending_while_a_replay_computes_neither_wait_for_it_nor_lose_their_ratings(
    monkeypatch,
):
    ann, ben, cat, dan, eve, fay = (
        get_user_model().objects.create_user(n) for n in ("ann", "ben", "cat", "dan", "eve", "fay")
    )
    for n, order in enumerate([[ann, ben], [cat, ann], [ben, cat], [ann, cat]]):
        with transaction.atomic():
            ending(order, WHEN + timedelta(hours=n))()
    upset = Result.objects.filter(user=cat, place=1).order_by("pk").first().round_id
    with transaction.atomic():
        remove_round(upset)  # duel is replayed from it on
    later = WHEN + timedelta(days=1)
    meanwhile = [ending([ben, ann], later), ending([dan, eve], later), ending([fay, cat], later)]

    # The replay stops at the first round it rates until the test lets it go on: that is the middle
    # of its work, where a replay of a large rule set spends minutes.
    real_model, armed, paused, go = skill.model, [True], threading.Event(), threading.Event()

    def the_replay_halts():
        if armed and threading.current_thread().name == "replay":
            armed.clear()
            paused.set()
            assert go.wait(30)
        return real_model()

    monkeypatch.setattr(skill, "model", the_replay_halts)
    replayed: list = []
    replaying = in_a_thread(lambda: replay_requested("duel"), replayed, "replay")
    try:
        assert paused.wait(30)
        ended: list = []
        enders = [in_a_thread(call, ended) for call in meanwhile]
        deadline = time.monotonic() + 20
        while (waited := waiting_on_a_lock()) < sum(t.is_alive() for t in enders):
            assert time.monotonic() < deadline, "the round ends neither waited nor finished"
            time.sleep(0.02)
        done_before_the_replay = sum(not t.is_alive() for t in enders)
    finally:
        go.set()
        replaying.join(60)
        for thread in enders:
            thread.join(60)
    assert not any(isinstance(r, BaseException) for r in ended + replayed), (ended, replayed)
    assert replayed[0].rounds > 0 and recalculating() == set()

    # Each round's rating is kept: the newcomers' rows say one round and the change their result shows.
    for newcomer in (dan, eve, fay):
        rating = Rating.objects.get(user=newcomer, ruleset="duel")
        change = Result.objects.get(user=newcomer).rating_change
        assert (rating.games, rating.value) == (1, 1500 + change), newcomer.username
    assert Rating.objects.get(user=ann, ruleset="duel").games == 3  # the removed round left
    call_command("recompute_ratings", "--check", "--ruleset", "duel")  # = the incremental ratings
    # And none of them waited on the replay: all three were written while it was halted mid-way.
    assert (waited, done_before_the_replay) == (0, 3)


def test_a_replay_waits_for_a_round_end_rating_as_it_starts_and_rates_it():
    ann, ben, cat, eve = (
        get_user_model().objects.create_user(n) for n in ("ann", "ben", "cat", "eve")
    )
    for n, order in enumerate([[ann, ben], [ben, eve]]):
        with transaction.atomic():
            ending(order, WHEN + timedelta(hours=n))()
    with transaction.atomic():
        remove_round(Result.objects.filter(user=ann).get().round_id)  # eve's rating is replayed

    # Eve's round has written its results, not committed yet, when another round's results take
    # later ids and the replay starts: the replay goes only as far as the results committed while no
    # round's end rates, so it waits for eve's round and rates it, where it belongs.
    eves = ending([cat, eve], WHEN + timedelta(hours=2))
    another = ending([ann, ben], WHEN + timedelta(hours=3))
    done = interleave(eves, nothing, lambda: (another(), replay_requested("duel")))
    assert not any(isinstance(side, BaseException) for side in done), done
    assert recalculating() == set()
    games = [Rating.objects.get(user=u, ruleset="duel").games for u in (ann, ben, cat, eve)]
    assert games == [1, 2, 1, 2]
    call_command("recompute_ratings", "--check", "--ruleset", "duel")
