"""Timed rooms against a real Celery worker and beat: timeouts, duplicates, a killed worker, away seats,
disconnections and pauses, with timers of a few seconds (test-only values)."""

from __future__ import annotations

import contextlib
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import actions, engine
from games.actions import SeatSpec, TimerSpec, pauses, timers
from games.core import presence
from games.core.errors import Conflict
from games.models import Action, Game, Seat
from games.tasks import game_deadline
from tests.games.webplay import SEED, everyone_here, fresh, member, turn_seat
from tests.integration.conftest import GRACE, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def fixed_seed(settings):
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


@pytest.fixture
def people(django_user_model):
    return (
        member(django_user_model.objects.create_user("alice")),
        member(django_user_model.objects.create_user("bob")),
    )


def timed_room(people, seconds=2, pauses_each=2, pause_seconds=60) -> Game:
    alice, bob = people
    game = actions.create_game(
        alice,
        "friends",
        "twodice",
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(seconds, pauses_each, pause_seconds),
    )
    actions.do_join(game.pk, bob)
    everyone_here(game)
    actions.do_start(game.pk, alice)
    return fresh(game)


def actor_of(seat: Seat, people):
    return next(p for p in people if p.user_id == seat.user_id)


def auto_actions(game: Game, **filters):
    return Action.objects.filter(game=game, auto__gt="", **filters).order_by("seq")


def act(game: Game, people) -> None:
    """The seat to act plays its first legal action in time (a roll, or its first legal move)."""
    game = fresh(game)
    seat = turn_seat(game)
    state = actions.engine_state(game)
    actor = actor_of(seat, people)
    if engine.can_roll(state) and (state.awaiting == engine.ROLL or not engine.legal_moves(state)):
        actions.do_roll(game.pk, actor, game.version)
    else:
        m = engine.legal_moves(state)[0]
        actions.do_move(game.pk, actor, game.version, m.colour, m.index, m.die, m.pair)


def test_a_timeout_makes_the_bot_play_exactly_once(celery, people):
    game = timed_room(people, seconds=2)
    seat, deadline, version = turn_seat(game), game.deadline, game.version
    played = wait_for(lambda: auto_actions(game).first(), timeout=6)
    assert played.seq == version + 1 and played.seat == seat and played.auto == "timeout"
    assert played.deadline == deadline
    lateness = (played.created - deadline).total_seconds()
    assert -0.15 <= lateness < 1.0, lateness
    time.sleep(1.0)  # a second delivery (task or sweeper) would have acted by now
    assert auto_actions(game, deadline=deadline).count() == 1
    seqs = list(Action.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    after = fresh(game)
    if after.version == played.seq and after.deadline is not None:
        # The seat's next action has a whole timer again.
        assert (after.turn_deadline - played.created).total_seconds() > 1.8


def test_a_move_just_before_the_deadline_leaves_the_timer_harmless(celery, people):
    game = timed_room(people, seconds=2)
    deadline, version = game.deadline, game.version
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds() - 0.3))
    act(game, people)
    assert fresh(game).version == version + 1
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 1.0)
    assert not auto_actions(game, deadline=deadline).exists()
    played = Action.objects.get(game=game, seq=version + 1)
    assert played.auto == "" and played.created < deadline


def test_the_same_timeout_task_delivered_twice_moves_once(celery, people):
    game = timed_room(people, seconds=2)
    deadline, version = game.deadline, game.version
    for _ in range(2):  # two more deliveries of the task already scheduled at commit
        game_deadline.apply_async((game.pk, version), eta=deadline)
    wait_for(lambda: auto_actions(game, deadline=deadline).exists(), timeout=6)
    time.sleep(1.0)
    assert auto_actions(game, deadline=deadline).count() == 1
    assert Action.objects.filter(game=game, seq=version + 1).count() == 1


def test_a_killed_worker_still_times_out_once_within_seconds_by_the_sweeper(celery, people):
    worker_log = celery.worker.text()  # before the room: its timer's task may arrive at once
    game = timed_room(people, seconds=3)
    deadline = game.deadline
    wait_for(lambda: "game_deadline" in celery.worker.text()[len(worker_log) :], timeout=3)
    celery.kill_worker()  # it held the timer's task, waiting for the eta: lost for an hour
    celery.start_worker()
    played = wait_for(lambda: auto_actions(game, deadline=deadline).first(), timeout=10)
    lateness = (played.created - deadline).total_seconds()
    assert lateness < 4.5, f"the sweeper acted {lateness:.2f} s after the deadline"
    time.sleep(2.5)  # another sweep has run by now
    assert auto_actions(game, deadline=deadline).count() == 1


def test_three_timeouts_mark_the_seat_away_and_im_back_ends_it(celery, people):
    game = timed_room(people, seconds=2)
    first = turn_seat(game)
    other = next(p for p in people if p.user_id != first.user_id)

    def others_act():
        g = fresh(game)
        seat = turn_seat(g)
        if seat is not None and seat.pk != first.pk and not g.is_paused:
            with contextlib.suppress(Conflict):  # the board moved under us: next poll
                act(g, people)  # the other player always acts in time

    def away_yet():
        others_act()
        return Seat.objects.get(pk=first.pk).is_away

    def played_while_away():
        others_act()
        return auto_actions(game, seat=first, auto="away").exists()

    wait_for(away_yet, timeout=15, interval=0.1)
    timeouts = auto_actions(game, seat=first, auto="timeout")
    assert timeouts.count() == 3
    # Away: the bot plays the seat's next actions after the short delay, not the full timer.
    third = timeouts.last()
    wait_for(played_while_away, timeout=12, interval=0.1)
    quick = auto_actions(game, seat=first, auto="away").first()
    assert (quick.created - quick.deadline).total_seconds() < 1.0
    assert quick.seq > third.seq
    timers.do_back(game.pk, actor_of(first, people))
    seat = Seat.objects.get(pk=first.pk)
    assert not seat.is_away and seat.timeouts_in_row == 0
    assert other.user_id != first.user_id


def test_a_disconnected_players_action_is_played_after_the_grace_and_given_back_on_reconnect(
    celery, people
):
    game = timed_room(people, seconds=30)
    seat = turn_seat(game)
    gone_at = timezone.now()
    presence.drop(game.pk, [seat.pk], "test-connection")  # as the consumer does on close
    actions.seat_disconnected([seat.pk], game.pk)
    played = wait_for(lambda: auto_actions(game, seat=seat).first(), timeout=6)
    assert played.auto == "absent"
    waited = (played.created - gone_at).total_seconds()
    assert GRACE - 0.2 <= waited < GRACE + 1.0, waited  # the grace, not the 30 s timer
    assert Seat.objects.get(pk=seat.pk).timeouts_in_row == 0
    # Back online: the player's own full timer again, and no more bot actions for them.
    presence.touch(game.pk, [seat.pk], "back-again")
    actions.seat_connected(game.pk, seat.pk)
    time.sleep(1.0)  # an action the worker had already begun may still land
    count = auto_actions(game, seat=seat).count()
    time.sleep(1.5)
    assert auto_actions(game, seat=seat).count() == count
    g = fresh(game)
    if turn_seat(g) == seat:
        assert (g.deadline - timezone.now()).total_seconds() > 25
        act(g, people)  # they play on themselves
        assert Action.objects.filter(game=game).latest("seq").auto == ""


def test_a_pause_stops_the_clock_is_resumed_early_then_expires_by_itself(celery, people):
    alice, bob = people
    game = timed_room(people, seconds=3, pauses_each=1, pause_seconds=2)
    seat = turn_seat(game)
    time.sleep(0.5)
    pauses.do_pause(game.pk, alice)
    paused = fresh(game)
    left = paused.paused_remaining_ms / 1000
    assert 2.0 < left < 2.7
    time.sleep(1.5)  # past nothing yet; the timer's old task finds a newer version and does nothing
    pauses.do_resume(game.pk, bob)  # resumed early by the other player
    resumed = fresh(game)
    assert not resumed.is_paused
    assert abs((resumed.turn_deadline - timezone.now()).total_seconds() - left) < 0.3
    assert not auto_actions(game).exists()  # the clock stood still through the pause
    with pytest.raises(Conflict, match="no pause left"):
        pauses.do_pause(game.pk, alice)  # the pause limit
    pauses.do_pause(game.pk, bob)
    ends = fresh(game).deadline
    ended = wait_for(lambda: not fresh(game).is_paused, timeout=5)
    assert ended
    resume = Action.objects.filter(game=game, kind=Action.Kind.RESUME).latest("seq")
    assert resume.seat is None and resume.text == "The pause is over."
    assert -0.15 <= (resume.created - ends).total_seconds() < 1.0
    assert not auto_actions(game).filter(created__lt=ends).exists()
    assert turn_seat(fresh(game)) == seat


def test_the_sweeper_acts_without_any_scheduled_task(celery, people):
    game = timed_room(people, seconds=30)
    past = timezone.now() - timedelta(milliseconds=50)
    Game.objects.filter(pk=game.pk).update(deadline=past, turn_deadline=past)  # no task for this
    # Played by one of beat's next sweeps: long before the 30 s a turn of this room lasts (so not by
    # some other clock), whatever else the machine is doing (a bound of 3 s failed on a loaded one).
    period = settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["schedule"]
    played = wait_for(lambda: auto_actions(game).first(), timeout=3 * period + 6)
    assert (played.created - past).total_seconds() < 3 * period + 6 < 30
