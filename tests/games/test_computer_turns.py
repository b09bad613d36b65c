"""A computer's turn is never lost: whatever happens to its task, the sweeper plays it, once.

Why: `schedule_bot` used to be the only thing that started a computer's turn, so a task
lost to a broker blip (or a bot that raised) left the human's roll refused forever.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import actions
from games.actions import timers
from games.core.errors import Conflict
from games.engine import bots
from games.models import Action, Game
from tests.games.webplay import SEED, anon, computer_game, fresh, play_until, turn_seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


def _until_computer_to_act(actor):
    """Play the human's actions (the computer's run directly) until a computer is to act next."""
    game = computer_game(actor)

    def human(seat):
        return actor

    return play_until(game, human, lambda g: turn_seat(g).is_bot, limit=200)


def _pass_the_backup_deadline(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def test_a_computer_to_act_always_has_a_backup_deadline_the_sweeper_sees():
    actor = anon()
    game = _until_computer_to_act(actor)
    assert game.deadline is not None
    assert game.deadline <= timezone.now() + timedelta(seconds=7)
    assert game.turn_deadline is None


def test_a_lost_computer_turn_is_played_by_the_sweeper_and_the_player_plays_on():
    actor = anon()
    with mock.patch("ludopat.celery.app.send_task", side_effect=ConnectionError("broker down")):
        game = _until_computer_to_act(actor)  # every queued turn was lost
    seat = turn_seat(game)
    # The player can't act out of turn: this is the stall players saw.
    with pytest.raises(Conflict):
        actions.do_roll(game.pk, actor, game.version)
    version = game.version
    _pass_the_backup_deadline(game)
    assert timers.sweep() == 1
    game = fresh(game)
    assert game.version > version
    last = Action.objects.filter(game=game).order_by("-seq").first()
    assert last.seat_id == seat.pk  # the computer acted for its own seat
    # Once: a second sweep (or the late task) finds nothing to do at the old version.
    assert not actions.do_bot_turn(game.pk, version)


def test_a_bot_that_raises_is_retried_then_falls_back_to_a_random_legal_action():
    actor = anon()
    game = _until_computer_to_act(actor)
    version = game.version
    real = bots.choose_action

    def broken(state, level, rng):
        if level != "random":
            raise RuntimeError("bot bug")
        return real(state, level, rng)

    with mock.patch("games.actions.turns.choose_action", side_effect=broken):
        assert not actions.do_bot_turn(game.pk, version)  # the task: fails, counted
        assert fresh(game).bot_failures == 1
        for tries in (2, 3):
            _pass_the_backup_deadline(game)
            assert timers.sweep() == 0  # retried by the sweeper, fails again
            assert fresh(game).bot_failures == tries
            assert fresh(game).version == version
        _pass_the_backup_deadline(game)
        assert timers.sweep() == 1  # the fourth try plays a random legal action
    game = fresh(game)
    assert game.version == version + 1
    assert game.bot_failures == 0
    assert Action.objects.filter(game=game, seq=version + 1).count() == 1
