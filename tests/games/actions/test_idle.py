"""Games nobody finishes are closed by a beat task: which games count as idle, and what closing does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as site_settings
from django.utils import timezone

from games import actions, tasks
from games.actions import SeatSpec, TimerSpec, idle
from games.core import selectors
from games.models import Game, Seat
from leaderboard.models import Result
from tests.games.webplay import (
    SEED,
    anon,
    computer_game,
    fresh,
    friends_room,
    local_game,
    member,
    step,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


@pytest.fixture
def people(django_user_model):
    return [member(django_user_model.objects.create_user(n)) for n in ("alice", "bob")]


def untouched_for(game: Game, **ago) -> Game:
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(**ago))
    return fresh(game)


def timed_room(alice, bob) -> Game:
    game = actions.create_game(
        alice,
        "friends",
        "classic",
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(30, 2, 60),
    )
    actions.do_join(game.pk, bob)
    actions.do_start(game.pk, alice)
    return fresh(game)


def test_which_games_are_idle(people):
    alice, bob = people
    idle_ones = {
        untouched_for(computer_game(anon("a")), days=31).pk,
        untouched_for(local_game(anon("b")), days=31).pk,
        untouched_for(friends_room(alice, start=False), hours=25).pk,
        untouched_for(friends_room(alice, [bob]), days=8).pk,
    }
    untimed_room = friends_room(alice, [bob])
    recent = {
        untouched_for(computer_game(anon("c")), days=29).pk,
        untouched_for(local_game(anon("d")), days=29).pk,
        untouched_for(friends_room(alice, start=False), hours=23).pk,
        untouched_for(untimed_room, days=6).pk,
        untouched_for(timed_room(alice, bob), days=365).pk,  # the computer plays a timed room out
    }
    over = computer_game(anon("e"))
    actions.do_abandon(over.pk, anon("e"))
    untouched_for(over, days=400)
    selected = set(idle.idle_games().values_list("pk", flat=True))
    assert selected == idle_ones
    assert not selected & recent


def test_closing_an_idle_room_counts_for_nobody_and_takes_it_off_continue(people):
    alice, bob = people
    room = untouched_for(friends_room(alice, [bob]), days=8)
    assert room.pk in {g.pk for g in selectors.unfinished_games(alice)}
    assert tasks.close_idle_games() == 1
    room = fresh(room)
    assert room.status == Game.Status.ABANDONED and room.deadline is None
    assert room.message == idle.CLOSED_TEXT
    assert room.pk not in {g.pk for g in selectors.unfinished_games(alice)}
    assert not Result.objects.filter(round__game=room, void=False).exists()
    assert tasks.close_idle_games() == 0  # closed once


def test_a_room_waiting_for_players_is_cancelled_without_a_round(people):
    alice, _ = people
    room = untouched_for(friends_room(alice, start=False), hours=25)
    assert idle.do_close_idle(room.pk)
    room = fresh(room)
    assert room.status == Game.Status.ABANDONED
    assert not room.rounds.exists()  # nothing was played: no replay to keep


def test_a_game_played_after_it_was_listed_is_not_closed():
    owner = anon()
    game = untouched_for(local_game(owner), days=31)
    listed = list(idle.idle_games().values_list("pk", flat=True))
    step(game, lambda seat: owner)  # someone plays before the sweeper gets to it
    assert listed == [game.pk]
    assert not idle.do_close_idle(game.pk)
    assert fresh(game).status == Game.Status.PLAYING


def test_beat_runs_the_idle_sweep():
    entry = next(
        e
        for e in site_settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "games.tasks.close_idle_games"
    )
    assert entry["schedule"] <= 24 * 3600
