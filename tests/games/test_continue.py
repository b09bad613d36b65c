"""The home page's "Continue" list: the player's unfinished games, at a cost that doesn't grow with
their number (one query for the games, one for all their seats)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.core import actors
from tests.games.webplay import SEED, Actor, computer_game, friends_room, member

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60


def home_queries(client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/").content.decode()
    return len(queries), html


def visitor(client) -> Actor:
    client.get("/")  # the session gets its player key
    return Actor(None, client.session[actors.PLAYER_KEY])


def test_the_home_page_costs_the_same_for_one_game_to_continue_or_ten(client):
    me = visitor(client)
    games = [computer_game(me)]
    one, html = home_queries(client)
    assert f'data-testid="continue-{games[0].pk}"' in html
    games += [computer_game(me, levels=("greedy", "random", "strong")) for _ in range(9)]
    ten, html = home_queries(client)
    assert all(f'data-testid="continue-{g.pk}"' in html for g in games)
    assert ten == one


def test_a_game_played_a_moment_ago_says_just_now_not_0_minutes(client):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game

    me = visitor(client)
    game = computer_game(me)
    _, html = home_queries(client)
    assert "just now" in html and "0\xa0minutes ago" not in html and "0 minutes ago" not in html
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(minutes=5))
    _, html = home_queries(client)
    assert "5\xa0minutes ago" in html


def test_continue_lists_rooms_by_seat_and_leaves_out_strangers_games(client, django_user_model):
    alice = django_user_model.objects.create_user("alice")
    bob = django_user_model.objects.create_user("bob")
    room = friends_room(member(alice), [member(bob)])
    theirs = computer_game(Actor(None, "someone-else"))
    client.force_login(bob)
    _, html = home_queries(client)
    assert f'data-testid="continue-{room.pk}"' in html
    assert theirs.pk not in html


def test_an_anonymous_players_seats_are_found_through_an_index():
    from games.models import Seat

    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Seat._meta.db_table)
    assert any(c["index"] and c["columns"] == ["player_key"] for c in found.values())
