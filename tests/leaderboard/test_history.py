"""A player's profile lists the rounds they finished, with place and points (10/6/3/0)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import actions
from games.models import Game
from leaderboard.history import player_history, total_points
from tests.games.webplay import friends_room, member

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def players():
    return User.objects.create_user("alice", password="x"), User.objects.create_user(
        "bob", password="x"
    )


def test_a_resigned_duel_scores_the_winner_ten_and_shows_on_both_profiles(client, players):
    alice, bob = players
    game = friends_room(member(alice), [member(bob)], ruleset="duel")
    actions.do_resign(game.pk, member(bob))
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED

    assert total_points(alice) == (10, 1) and total_points(bob) == (0, 1)
    page = client.get("/u/alice/").content.decode()
    assert "10</strong> points from 1 finished game" in page
    assert "1 of 2" in page and f"/games/{game.pk}/replay/?round=1" in page
    assert "2 of 2" in client.get("/u/bob/").content.decode()


def test_every_finished_round_of_a_room_counts(players):
    alice, bob = players
    game = friends_room(member(alice), [member(bob)], ruleset="duel")
    actions.do_resign(game.pk, member(bob))
    actions.do_new_round(game.pk, member(alice))
    actions.do_new_round(game.pk, member(bob))
    actions.do_resign(game.pk, member(alice))

    history = player_history(bob)
    assert [(r.round, r.place, r.points) for r in history] == [(2, 1, 10), (1, 2, 0)]
    assert total_points(bob) == (10, 2)


def test_a_newcomer_has_no_history(client, players):
    alice, _ = players
    assert "No finished games yet." in client.get("/u/alice/").content.decode()
