"""Leaving a room, resigning, abandoning, and the games left to continue (games/actions/leaving.py)."""

from __future__ import annotations

import pytest

from games import actions, selectors
from games.errors import Conflict, NotAllowed
from games.models import Game, Seat
from tests.games.webplay import (
    SEED,
    anon,
    computer_game,
    fresh,
    friends_room,
    local_game,
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
