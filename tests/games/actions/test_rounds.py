"""New rounds: every human agrees, a move cancels the request, playing again after a game
(games/actions/rounds.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.core import presence
from games.models import Game, Round
from games.reads.records import record_for
from leaderboard.models import Result
from tests.games.webplay import (
    SEED,
    everyone_here,
    fresh,
    friends_room,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED


# --- new rounds ------------------------------------------------------------------------------------


def test_new_round_needs_every_human_and_a_move_cancels_the_request(host, guest):
    game = friends_room(host, [guest])
    everyone_here(game)
    actions.do_new_round(game.pk, host)
    game = fresh(game)
    assert game.new_round_votes == [0] and game.round == 1
    actions.do_roll(game.pk, host, game.version)  # an accepted roll cancels the request
    assert fresh(game).new_round_votes == []
    actions.do_new_round(game.pk, guest)
    actions.do_new_round(game.pk, host)
    game = fresh(game)
    assert game.round == 2 and game.new_round_votes == []
    assert game.players == [["yellow"], ["red"]]  # the first turn passes on
    assert game.state["tokens"]["red"] == [-1, -1, -1, -1]
    old = Round.objects.get(game=game, number=1)
    assert old.server_seed == SEED
    assert record_for(game, 1)["fair"]["server_seed"] == SEED
    assert "server_seed" not in record_for(game)["fair"]


def test_host_resets_alone_before_a_guest_joins(host):
    game = friends_room(host, start=False)
    actions.do_set_seat(game.pk, host, 1, "computer", "random")
    actions.do_start(game.pk, host)
    actions.do_new_round(game.pk, host)
    assert fresh(game).round == 2


@pytest.mark.parametrize(
    ("ruleset", "first"),
    [("duel", [["red"], ["blue"]]), ("twodice", [["yellow", "blue"], ["red", "green"]])],
)
def test_play_again_after_a_game(host, guest, ruleset, first):
    game = friends_room(host, [guest], ruleset=ruleset)
    actions.do_resign(game.pk, guest)
    actions.do_new_round(game.pk, host)
    assert fresh(game).round == 1  # waits for the guest
    actions.do_new_round(game.pk, guest)
    game = fresh(game)
    assert game.round == 2 and game.status == Game.Status.PLAYING
    assert game.players == first
    colours = [s.colours for s in game.seats.all()]
    assert colours == (
        [["red"], ["blue"]] if ruleset == "duel" else [["red", "green"], ["yellow", "blue"]]
    )


# --- the computer answers for nobody at the table ------------------------------------------------


def test_a_resigner_back_for_the_next_round_answers_a_new_round_request_themselves(host, guest):
    game = friends_room(host, [guest])
    everyone_here(game)
    actions.do_resign(game.pk, guest)
    actions.do_new_round(game.pk, host)  # "Play again"
    actions.do_new_round(game.pk, guest)
    assert fresh(game).round == 2
    actions.do_new_round(game.pk, host)  # mid-round: the guest, at the table, is asked
    game = fresh(game)
    assert (game.round, game.status, game.new_round_votes) == (2, Game.Status.PLAYING, [0])
    assert not Result.objects.filter(round__game=game, round__number=2).exists()
    # Only the first round (which the host won) scored for the host.
    assert list(Result.objects.filter(user_id=host.user_id).values_list("place", flat=True)) == [1]


def test_a_player_back_at_a_seat_the_computer_holds_answers_a_new_round_request(
    host, guest, monkeypatch
):
    game = friends_room(host, [guest])
    # The guest was away two minutes: the host hands the seat to the computer.
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    game.seats.filter(index=1).update(last_seen=timezone.now() - timedelta(seconds=121))
    actions.do_replace_absent(game.pk, host, 1)
    # The guest is back on a page without a WebSocket (its polls show them here), not acting yet.
    presence.seen_in_request(game.pk, [game.seats.get(index=1).pk])
    assert game.seats.get(index=1).bot_controlled
    actions.do_new_round(game.pk, host)
    game = fresh(game)
    assert (game.round, game.status, game.new_round_votes) == (1, Game.Status.PLAYING, [0])
    assert not Result.objects.filter(round__game=game).exists()
