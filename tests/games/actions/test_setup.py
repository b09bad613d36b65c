"""Creating games and rooms, joining, seats, the start and client seeds (games/actions/setup.py),
and every way of asking wrongly (refused, nothing changed)."""

from __future__ import annotations

import pytest

from games import actions
from games.core.errors import Conflict, GameError, NotAllowed
from games.engine import fair
from games.models import Action, Game
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


# --- creating and starting ------------------------------------------------------------------------


def test_computer_game_starts_at_once_with_a_seed_commitment():
    game = computer_game(levels=("greedy", "strong", "random"))
    assert game.status == Game.Status.PLAYING
    assert [s.kind for s in game.seats.all()] == ["human", "computer", "computer", "computer"]
    assert game.players == [["red"], ["green"], ["yellow"], ["blue"]]
    assert game.server_seed_sha256 == fair.commitment(game.server_seed)
    assert game.state["awaiting"] == "roll"
    assert Action.objects.filter(game=game).count() == game.version


def test_production_seeds_are_fresh_even_if_a_fixed_seed_is_configured(settings):
    settings.LUDOPAT_TEST_SEEDS = False
    one, two = computer_game(), computer_game()
    assert SEED not in (one.server_seed, two.server_seed)
    assert one.server_seed != two.server_seed


def test_unknown_rules_or_options_are_refused():
    with pytest.raises(GameError):
        computer_game(ruleset="chess")
    with pytest.raises(GameError):
        computer_game(options={"tokens": 3})


def test_friends_room_needs_an_account(host):
    with pytest.raises(NotAllowed):
        friends_room(anon(), start=False)


def test_duel_room_puts_host_on_red_and_first_guest_on_blue(host, guest):
    game = friends_room(host, [guest], ruleset="duel")
    seats = list(game.seats.all())
    assert (seats[0].user_id, seats[0].colours) == (host.user_id, ["red"])
    assert (seats[1].user_id, seats[1].colours) == (guest.user_id, ["blue"])


def test_join_start_and_open_seats(host, guest, third):
    game = friends_room(host, ruleset="classic", count=3, start=False)
    assert game.status == Game.Status.OPEN
    with pytest.raises(NotAllowed):
        actions.do_join(game.pk, anon())  # a guest without an account
    seat = actions.do_join(game.pk, guest)
    assert actions.do_join(game.pk, guest) == seat  # joining twice keeps the seat
    with pytest.raises(Conflict, match="Every seat"):
        actions.do_start(game.pk, host)
    with pytest.raises(NotAllowed):
        actions.do_set_seat(game.pk, guest, 2, "computer", "strong")  # only the host
    actions.do_set_seat(game.pk, host, 2, "computer", "strong")
    with pytest.raises(Conflict, match="full"):
        actions.do_join(game.pk, third)
    with pytest.raises(NotAllowed):
        actions.do_start(game.pk, guest)
    actions.do_start(game.pk, host)
    assert fresh(game).status == Game.Status.PLAYING
    with pytest.raises(Conflict):
        actions.do_join(game.pk, third)


# --- client seeds ----------------------------------------------------------------------------------


def test_client_seed_can_be_set_before_the_first_roll_only():
    actor = anon()
    game = local_game(actor)
    actions.do_set_client_seed(game.pk, actor, 0, "lucky seven")
    with pytest.raises(NotAllowed):
        actions.do_set_client_seed(game.pk, anon("other"), 0, "mine")
    with pytest.raises(GameError):
        actions.do_set_client_seed(game.pk, actor, 0, "bad|seed")
    actions.do_roll(game.pk, actor, fresh(game).version)
    assert fresh(game).client_seed.startswith("lucky seven|")
    with pytest.raises(Conflict):
        actions.do_set_client_seed(game.pk, actor, 1, "too late")
