"""Pauses in timed rooms: the clock stops and restarts, a pause runs out, the limit and refusals
(games/actions/pauses.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.actions import pauses, timers
from games.core.errors import Conflict
from games.models import Action, Game, Pause
from tests.factories import timed_room
from tests.games.webplay import (
    SEED,
    actor_of,
    fresh,
    turn_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


# --- pauses ----------------------------------------------------------------------------------------


def test_a_pause_stops_the_clock_keeping_the_time_left_and_a_resume_restarts_it(alice, bob):
    game = timed_room(alice, bob, seconds=30)
    seat = turn_seat(game)
    pause = pauses.do_pause(game.pk, bob)
    game = fresh(game)
    assert game.is_paused and 28_000 < game.paused_remaining_ms <= 30_000
    assert game.turn_deadline is None
    assert game.deadline == pause.ends
    with pytest.raises(Conflict, match="paused"):
        actions.do_roll(game.pk, actor_of(seat, alice, bob), game.version)
    with pytest.raises(Conflict, match="already paused"):
        pauses.do_pause(game.pk, alice)
    pauses.do_resume(game.pk, alice)  # the other player resumes early
    game = fresh(game)
    assert not game.is_paused
    left = (game.turn_deadline - timezone.now()).total_seconds()
    assert 27 < left <= 30
    pause = Pause.objects.get(pk=pause.pk)
    assert pause.ended is not None and pause.ended_by.user_id == alice.user_id


def test_a_pause_runs_out_by_itself(alice, bob):
    game = timed_room(alice, bob, seconds=30)
    pauses.do_pause(game.pk, alice)
    game = fresh(game)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=5))
    assert timers.do_deadline(game.pk, version=game.version)
    game = fresh(game)
    assert not game.is_paused and game.message == "The pause is over."
    assert Pause.objects.get(game=game).ended_by is None
    assert not Action.objects.filter(game=game, auto__gt="").exists()  # nobody's move was played


def test_the_pause_limit_and_refusals(alice, bob):
    game = timed_room(alice, bob, seconds=30, pauses=1)
    pauses.do_pause(game.pk, alice)
    pauses.do_resume(game.pk, bob)
    with pytest.raises(Conflict, match="no pause left"):
        pauses.do_pause(game.pk, alice)
    pauses.do_pause(game.pk, bob)  # bob still has his
    pauses.do_resume(game.pk, bob)
    with pytest.raises(Conflict, match="not paused"):
        pauses.do_resume(game.pk, bob)
    untimed = timed_room(alice, bob, seconds=0)
    with pytest.raises(Conflict, match="timed"):
        pauses.do_pause(untimed.pk, alice)
    actions.do_resign(untimed.pk, alice)
    with pytest.raises(Conflict, match="over"):
        pauses.do_pause(untimed.pk, bob)
