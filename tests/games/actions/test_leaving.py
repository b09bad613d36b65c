"""Leaving a room, resigning, abandoning, and the games left to continue (games/actions/leaving.py)."""

from __future__ import annotations

import pytest

from games import actions
from games.actions import SeatSpec
from games.core import selectors
from games.core.errors import Conflict, NotAllowed
from games.models import Game, Seat
from leaderboard.models import Result
from tests.games.webplay import (
    SEED,
    anon,
    computer_game,
    everyone_here,
    fresh,
    friends_room,
    local_game,
    step,
    turn_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


# --- leaving before the start ---------------------------------------------------------------------


def test_guest_leaving_before_the_start_frees_the_seat_and_the_host_closes_the_room(host, guest):
    game = friends_room(host, [guest], start=False)
    actions.do_leave(game.pk, guest)
    assert fresh(game).seats.get(index=1).kind == Seat.Kind.OPEN
    actions.do_leave(game.pk, host)
    assert fresh(game).status == Game.Status.ABANDONED


# --- resigning, abandoning, continuing -------------------------------------------------------------


def test_resign_with_one_opponent_ends_the_game(host, guest):
    game = friends_room(host, [guest])
    actions.do_resign(game.pk, guest)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.result_places == [0, 1]


def test_resign_among_three_lets_the_computer_play_on(host, guest, third):
    game = friends_room(host, [guest, third], count=3)
    actions.do_resign(game.pk, third)
    game = fresh(game)
    assert game.status == Game.Status.PLAYING
    seat = game.seats.get(index=2)
    assert seat.resigned and seat.is_bot


def test_continue_lists_unfinished_games_and_abandon_removes_them(host, guest):
    mine = anon("me")
    first = computer_game(mine)
    second = local_game(mine)
    room = friends_room(host, [guest])
    assert {g.pk for g in selectors.unfinished_games(mine)} == {first.pk, second.pk}
    assert room.pk in {g.pk for g in selectors.unfinished_games(guest)}
    with pytest.raises(NotAllowed):
        actions.do_abandon(first.pk, anon("someone else"))
    actions.do_abandon(first.pk, mine)
    assert fresh(first).status == Game.Status.ABANDONED
    assert {g.pk for g in selectors.unfinished_games(mine)} == {second.pk}
    actions.do_abandon(room.pk, guest)  # in a room, abandoning is resigning
    assert room.pk not in {g.pk for g in selectors.unfinished_games(guest)}
    with pytest.raises(Conflict):
        actions.do_abandon(first.pk, mine)


def test_game_belongs_to_the_account_after_logging_in(host):
    game = computer_game(host)
    assert game.pk in {
        g.pk for g in selectors.unfinished_games(actions.Actor(host.user_id, "new-key"))
    }


# --- who gave up first places last ----------------------------------------------------------------


@pytest.fixture
def four(host, guest, third, alice):
    """Starts a 4-seat room of two tokens a colour (a short round): host, guest, third and alice in
    seats 0 to 3, all at the table; returns (the game, the people in seat order)."""
    people = [host, guest, third, alice]
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.OPEN)] * 3
    game = actions.create_game(host, "friends", "classic", {"tokens": 2}, seats)
    for person in people[1:]:
        actions.do_join(game.pk, person)
    everyone_here(game)
    actions.do_start(game.pk, host)
    for index, person in enumerate(people):  # the same dice every run
        actions.do_set_client_seed(game.pk, person, index, f"seat{index}")
    return fresh(game), people


def test_the_first_to_resign_places_last_at_four_seats(four):
    game, people = four
    for seat in (1, 2, 3):  # resigned in seat order: the ranking must be the other way round
        actions.do_resign(game.pk, people[seat])
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.result_places == [0, 3, 2, 1]
    points = dict(Result.objects.filter(round__game=game).values_list("seat_index", "points"))
    assert points == {0: 10, 3: 6, 2: 3, 1: 0}


@pytest.mark.slow  # a round of about 300 actions (8 s): make test, not test-fast
def test_the_first_to_resign_places_last_when_the_round_is_played_out(four):
    game, people = four
    actions.do_resign(game.pk, people[2])
    actions.do_resign(game.pk, people[1])
    # The computer plays both seats on; with these dice it brings seat 2 further than seat 1.
    for _ in range(3000):
        game = fresh(game)
        if game.is_over:
            break
        if turn_seat(game).is_bot:
            actions.do_bot_turn(game.pk, game.version)
        else:
            step(game, lambda seat: people[seat.index])
    assert game.status == Game.Status.FINISHED
    assert game.result_places[2:] == [1, 2]
