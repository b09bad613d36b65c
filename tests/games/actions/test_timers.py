"""Timed rooms without a worker: deadlines set by actions, what a passed deadline does (called
directly, as the task and the sweeper call it), away seats, disconnections (games/actions/timers.py),
and the live board's countdown."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.actions import SeatSpec, TimerSpec, pauses, timers
from games.core import presence
from games.core.errors import Conflict, GameError
from games.models import Action, Game, Seat
from games.web.forms import FriendsRoomForm
from tests.factories import timed_room
from tests.games.webplay import (
    SEED,
    actor_of,
    expire,
    fresh,
    live_html,
    page_html,
    turn_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


# --- deadlines -------------------------------------------------------------------------------------


def test_a_timed_room_sets_a_full_deadline_for_the_first_action(alice, bob):
    before = timezone.now()
    game = timed_room(alice, bob, seconds=10)
    assert game.timer_seconds == 10
    assert game.turn_deadline == game.deadline
    assert before + timedelta(seconds=9.5) < game.deadline <= timezone.now() + timedelta(seconds=10)


def test_untimed_rooms_and_computer_games_have_no_deadline(alice, bob):
    game = timed_room(alice, bob, seconds=0)
    assert game.deadline is None
    with pytest.raises(GameError):
        actions.create_game(alice, "computer", "classic", {}, [SeatSpec("human")], TimerSpec(10))


def test_production_timer_choices_exclude_the_short_test_timers(settings, alice):
    settings.LUDOPAT_TEST_SEEDS = False
    assert actions.timer_choices() == (0, 10, 15, 30)
    with pytest.raises(GameError):
        actions.create_game(
            alice, "friends", "twodice", {}, [SeatSpec("human"), SeatSpec("open")], TimerSpec(2)
        )
    form = FriendsRoomForm({"ruleset": "twodice", "players": 2, "timer": 3})
    assert not form.is_valid()
    form = FriendsRoomForm({"ruleset": "twodice", "players": 2, "timer": 15, "pauses": 1})
    assert form.is_valid(), form.errors
    assert form.timer_spec() == TimerSpec(15, 1, 60)


def test_a_timeout_makes_the_bot_play_that_one_action_and_the_next_gets_a_full_timer(alice, bob):
    game = expire(timed_room(alice, bob))
    seat = turn_seat(game)
    assert timers.do_deadline(game.pk, version=game.version)
    game = fresh(game)
    last = Action.objects.filter(game=game).latest("seq")
    assert last.kind == Action.Kind.ROLL and last.auto == "timeout" and last.seat == seat
    assert last.deadline is not None
    assert "Time's up" in game.message
    assert Seat.objects.get(pk=seat.pk).timeouts_in_row == 1
    assert game.deadline > timezone.now() + timedelta(seconds=9)
    # The same deadline delivered again (a duplicated task) does nothing.
    assert not timers.do_deadline(game.pk, version=game.version - 1)
    assert not timers.do_deadline(game.pk, version=game.version)  # not yet due
    assert fresh(game).version == game.version


def test_a_move_before_the_deadline_leaves_the_timer_harmless(alice, bob):
    game = timed_room(alice, bob)
    old = game.version
    seat = turn_seat(game)
    actions.do_roll(game.pk, actor_of(seat, alice, bob), old)
    game = expire(fresh(game))
    assert not timers.do_deadline(game.pk, version=old)  # the task of the old version
    assert fresh(game).version == game.version


def test_three_timeouts_in_a_row_mark_the_seat_away_and_im_back_ends_it(settings, alice, bob):
    settings.LUDOPAT_AWAY_DELAY = 1.0
    game = timed_room(alice, bob)
    first = turn_seat(game)
    count = 0
    while not Seat.objects.get(pk=first.pk).is_away:
        game = fresh(game)
        seat = turn_seat(game)
        if seat != first:  # the other player acts in time (dice differ: client seeds are random)
            act_in_time(game, actor_of(seat, alice, bob))
            continue
        assert timers.do_deadline(expire(game).pk)
        count += 1
        assert count <= 3
    assert count == 3
    game = fresh(game)
    if turn_seat(game) == first:
        assert game.deadline < timezone.now() + timedelta(seconds=1.5)  # the away delay, not 10 s
    page = live_html(game, actor_of(first, alice, bob))
    assert 'data-testid="im-back"' in page and 'data-testid="away-' in page
    timers.do_back(game.pk, actor_of(first, alice, bob))
    seat = Seat.objects.get(pk=first.pk)
    assert not seat.is_away and seat.timeouts_in_row == 0
    with pytest.raises(Conflict):
        timers.do_back(game.pk, actor_of(first, alice, bob))


def act_in_time(game: Game, actor) -> None:
    from games import engine

    state = actions.engine_state(game)
    if engine.can_roll(state) and (state.awaiting == engine.ROLL or not engine.legal_moves(state)):
        actions.do_roll(game.pk, actor, game.version)
    else:
        m = engine.legal_moves(state)[0]
        actions.do_move(game.pk, actor, game.version, m.colour, m.index, m.die, m.pair)


def test_acting_resets_the_count_of_timeouts(alice, bob):
    game = expire(timed_room(alice, bob))
    seat = turn_seat(game)
    timers.do_deadline(game.pk)
    game = fresh(game)
    if turn_seat(game) == seat:
        state = actions.engine_state(game)
        from games import engine

        m = engine.legal_moves(state)[0] if engine.legal_moves(state) else None
        if m is not None:
            actions.do_move(
                game.pk, actor_of(seat, alice, bob), game.version, m.colour, m.index, m.die
            )
            assert Seat.objects.get(pk=seat.pk).timeouts_in_row == 0


def test_a_disconnected_players_due_action_waits_only_the_grace(settings, alice, bob, monkeypatch):
    settings.LUDOPAT_DISCONNECT_GRACE = 1.0
    settings.LUDOPAT_AWAY_DELAY = 0.5
    game = timed_room(alice, bob, seconds=30)
    seat = turn_seat(game)
    presence.drop(game.pk, [seat.pk], "test-connection")
    actions.seat_disconnected([seat.pk], game.pk)
    game = fresh(game)
    assert game.deadline < timezone.now() + timedelta(seconds=1.1)
    assert game.turn_deadline > timezone.now() + timedelta(seconds=25)
    # Back before the grace is over: their own deadline again.
    presence.touch(game.pk, [seat.pk], "again")
    actions.seat_connected(game.pk, seat.pk)
    assert fresh(game).deadline == game.turn_deadline
    # Gone again, and the grace passes: the bot plays, not counted as a timeout.
    presence.drop(game.pk, [seat.pk], "again")
    actions.seat_disconnected([seat.pk], game.pk)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=5))
    later = presence._now() + 1.1  # a closed page counts as present for the grace, then not
    monkeypatch.setattr(presence, "_now", lambda: later)
    assert timers.do_deadline(game.pk)
    last = Action.objects.filter(game=game).latest("seq")
    assert last.auto == "absent"
    assert Seat.objects.get(pk=seat.pk).timeouts_in_row == 0


def test_a_deadline_task_that_comes_early_never_acts_and_comes_back_at_the_deadline(
    alice, bob, django_capture_on_commit_callbacks
):
    """The bot never acts before the player's own deadline (it once acted up to 100 ms early)."""
    from unittest import mock

    game = timed_room(alice, bob, seconds=10)
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() + timedelta(milliseconds=80),
        turn_deadline=timezone.now() + timedelta(milliseconds=80),
    )
    game = fresh(game)
    with (
        mock.patch("ludopat.celery.app.send_task") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert not timers.do_deadline(
            game.pk, version=game.version
        )  # 80 ms early: nothing is played
    assert fresh(game).version == game.version
    name, args = send.call_args.args[:2]
    assert (name, args) == ("games.tasks.game_deadline", (game.pk, game.version))
    assert send.call_args.kwargs["eta"] == game.deadline  # it comes back at the deadline itself


def test_the_sweeper_acts_on_past_deadlines_once(alice, bob):
    one = expire(timed_room(alice, bob))
    assert timers.due_games() == [one.pk]
    assert timers.sweep() == 1
    assert timers.sweep() == 0
    assert Action.objects.filter(game=one, auto="timeout").count() == 1


def test_a_finished_or_untimed_game_is_disarmed_by_the_sweeper(alice, bob):
    game = expire(timed_room(alice, bob))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert timers.sweep() == 0
    assert fresh(game).deadline is None


# --- the board ------------------------------------------------------------------------------------


def test_the_live_board_shows_the_countdown_pause_button_and_chat(alice, bob):
    game = timed_room(alice, bob, seconds=15)
    seat = turn_seat(game)
    html = live_html(game, alice)
    assert f'data-testid="timer-{seat.index}"' in html
    assert f'data-deadline="{int(game.deadline.timestamp() * 1000)}"' in html
    assert "Pause (2 left)" in html
    page = page_html(game, alice)
    assert 'data-server-now="' in page and 'data-testid="chat"' in page
    pauses.do_pause(game.pk, alice)
    html = live_html(fresh(game), bob)
    assert 'data-testid="pause-banner"' in html and 'data-testid="resume"' in html
    assert 'data-paused="1"' in html
