"""Staked rooms under real concurrency: threads (each its own database connection) pressing at the same
moment, and a real Celery worker killed mid-game. PostgreSQL only: SQLite serialises every writer with
one lock, so none of these races can happen there (these tests skip on it, saying so).

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> REDIS_URL=redis://127.0.0.1:6379/<n> \
      .venv/bin/pytest tests/integration/test_stake_concurrency.py
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.ledger.adjustments import adjust_coins
from accounts.ledger.history import balance_of
from accounts.ledger.models import LedgerTransaction
from games import actions
from games.actions import timers
from games.core.errors import GameError, StaleVersion
from games.models import Game, Seat
from games.staking.quick import do_quick_match
from games.staking.rooms import do_create_staked_room, do_join_staked_room
from tests.games.webplay import SEED, everyone_here, fresh, member, step, turn_seat
from tests.integration.conftest import wait_for
from tests.ledger_checks import assert_ledger_ok, ledger_stays_balanced  # noqa: F401
from tests.races import (
    at_once,
    only_refusals,
    postgres_only,
    refused,
    succeeded,
    winning_move,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, postgres_only]


@pytest.fixture(autouse=True)
def fixed_seeds(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


def players(django_user_model, count: int, prefix: str = "p"):
    return [member(django_user_model.objects.create_user(f"{prefix}{i}")) for i in range(count)]


def test_fifty_simultaneous_joins_seat_exactly_one(django_user_model):
    host, *guests = players(django_user_model, 51)
    game = do_create_staked_room(host, "twodice", 100)
    results = at_once([lambda g=g: do_join_staked_room(g, game.pk) for g in guests])
    only_refusals(results)
    assert len(succeeded(results)) == 1 and len(refused(results)) == 49
    game = fresh(game)
    assert game.status == Game.Status.PLAYING
    seated = game.seats.get(index=1).user_id
    assert sorted(balance_of(g.user_id) for g in guests) == [900] + [1000] * 49
    assert balance_of(seated) == 900
    assert all("first" in str(e) for e in refused(results))


def test_one_stake_of_coins_joins_one_of_ten_rooms(django_user_model):
    hosts = players(django_user_model, 10, "host")
    (poor,) = players(django_user_model, 1, "poor")
    adjust_coins(poor.user_id, -850, "test: 150 left")
    rooms = [do_create_staked_room(h, "twodice", 100) for h in hosts]
    results = at_once([lambda r=r: do_join_staked_room(poor, r.pk) for r in rooms])
    only_refusals(results)
    assert len(succeeded(results)) == 1
    assert balance_of(poor.user_id) == 50
    assert sum(fresh(r).status == Game.Status.PLAYING for r in rooms) == 1
    # Decided one after the other under the wallet's lock: the first seated, the others see it.
    assert all("You are playing a staked game" in str(e) for e in refused(results))


def test_two_players_joining_each_others_rooms_at_once(django_user_model):
    for round_ in range(5):
        a, b = players(django_user_model, 2, f"pair{round_}-")
        room_a = do_create_staked_room(a, "twodice", 100)
        room_b = do_create_staked_room(b, "twodice", 100)
        started = time.monotonic()
        results = at_once(
            [
                lambda a=a, room=room_b: do_join_staked_room(a, room.pk),
                lambda b=b, room=room_a: do_join_staked_room(b, room.pk),
            ]
        )
        assert time.monotonic() - started < 5, "the two joins waited on each other"
        # Each has a room open: one commitment for coins at a time, so neither joins.
        assert len(refused(results)) == 2, results
        assert all("You have an open staked room" in str(e) for e in refused(results))
        assert balance_of(a.user_id) == balance_of(b.user_id) == 900


def test_twenty_quick_match_presses_make_ten_games_and_nobody_waits(django_user_model):
    people = players(django_user_model, 20, "quick")
    results = at_once([lambda p=p: do_quick_match(p, "100", "twodice") for p in people])
    assert refused(results) == []
    quick = Game.objects.filter(quick=True)
    assert quick.filter(status=Game.Status.PLAYING).count() == 10
    assert quick.filter(status=Game.Status.OPEN).count() == 0
    seated = list(Seat.objects.filter(game__quick=True).values_list("user_id", flat=True))
    assert sorted(seated) == sorted(p.user_id for p in people)  # each exactly once
    assert all(balance_of(p.user_id) == 900 for p in people)


def test_a_double_submitted_join_holds_one_stake(django_user_model):
    host, guest = players(django_user_model, 2)
    game = do_create_staked_room(host, "twodice", 100)
    results = at_once([lambda: do_join_staked_room(guest, game.pk, key="join-form-1")] * 5)
    assert refused(results) == []
    assert {g.pk for g in succeeded(results)} == {game.pk}
    assert balance_of(guest.user_id) == 900
    assert LedgerTransaction.objects.filter(kind="stake", game=game).count() == 2
    # Without a key (two forms, two clicks) the seat is still taken once.
    host, guest = players(django_user_model, 2, "again")
    other = do_create_staked_room(host, "twodice", 100)
    results = at_once([lambda: do_join_staked_room(guest, other.pk)] * 5)
    assert refused(results) == [] and balance_of(guest.user_id) == 900


def test_the_winning_move_a_timeout_and_a_resignation_race_one_payout(django_user_model):
    host, guest = players(django_user_model, 2)
    game = do_create_staked_room(host, "twodice", 100)
    do_join_staked_room(guest, game.pk)
    by_seat = {0: host, 1: guest}
    for _ in range(6000):
        game = fresh(game)
        assert game.status == Game.Status.PLAYING
        winning = winning_move(game)
        if winning is not None and not turn_seat(game).is_bot:
            break
        step(game, lambda seat: by_seat[seat.index])
    else:
        pytest.fail("no winning move came up")
    mover = turn_seat(game)
    other = by_seat[1 - mover.index]
    state = actions.engine_state(game)
    die = winning.die if (len(set(state.dice)) > 1 or winning.die == "total") else None
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=past, turn_deadline=past)
    version = game.version
    results = at_once(
        [
            lambda: actions.do_move(
                game.pk,
                by_seat[mover.index],
                version,
                winning.colour,
                winning.index,
                die,
                winning.pair,
            ),
            lambda: timers.do_deadline(game.pk, version=version),
            lambda: actions.do_resign(game.pk, other),
        ]
    )
    for error in refused(results):
        assert isinstance(error, GameError | StaleVersion), repr(error)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.result_places[0] == mover.index
    assert LedgerTransaction.objects.filter(game=game, closes__isnull=False).count() == 1
    assert balance_of(by_seat[mover.index].user_id) == 1080
    assert balance_of(other.user_id) == 900


def test_a_killed_worker_mid_game_still_ends_and_settles_once(celery, django_user_model):
    """Nobody plays: the worker's timers play for both, then void the game (both away); the worker is
    killed on the way and the sweeper with a new worker carries on."""
    host, guest = players(django_user_model, 2)
    game = do_create_staked_room(host, "twodice", 100, timer_seconds=2)
    do_join_staked_room(guest, game.pk)
    everyone_here(game)  # connected but not acting: each action times out
    wait_for(lambda: fresh(game).actions.filter(auto="timeout").exists(), timeout=10)
    celery.kill_worker()
    celery.start_worker()
    game = wait_for(lambda: (g := fresh(game)).is_over and g, timeout=60, interval=0.3)
    assert game.status == Game.Status.ABANDONED and "Both players were away" in game.message
    time.sleep(2.5)  # another sweep has run: nothing more happens
    assert LedgerTransaction.objects.filter(game=game, closes__isnull=False).count() == 1
    assert balance_of(host.user_id) == balance_of(guest.user_id) == 1000
    assert_ledger_ok()
