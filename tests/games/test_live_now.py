"""Live now: public tables in play, highest-rated first, with their rules, players, ratings and how far
along; the home page's box; one shared render every few seconds (games/reads/live_now.py,
games/web/live_now_views.py)."""

from __future__ import annotations

import html
import re

import pytest
from django.core.cache import cache
from django.test import Client

from games import actions
from games.models import Game
from games.reads.live_now import live_tables
from tests.factories import accounts, member, room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_list_kept(redis_client):
    cache.delete_many(["live_now:tables", "live_now:top"])


def public_game(users, ratings=(), public=True) -> Game:
    game = room(users)
    Game.objects.filter(pk=game.pk).update(public=public)
    for index, seat in enumerate(game.seats.order_by("index")):
        seat.rating = ratings[index] if index < len(ratings) else None  # None: not rated
        seat.save(update_fields=["rating"])
    return Game.objects.get(pk=game.pk)


def watched(page: str) -> list[str]:
    """The game ids the page's Watch links open, in order."""
    return re.findall(r'href="/games/([^/"]+)/" data-testid="live-watch"', page)


def test_live_now_lists_public_games_in_play_highest_mean_rating_first():
    a, b, c, d, e, f, g, h = accounts("a", "b", "c", "d", "e", "f", "g", "h")
    low = public_game([a, b], ratings=(1400, 1500))  # mean 1450
    high = public_game([c, d], ratings=(1700, 1600))  # mean 1650
    unrated = public_game([e, f])  # no rating written: last
    private = public_game([g, h], ratings=(2000, 2000), public=False)
    over = public_game([a, c], ratings=(1900, 1900))
    actions.do_resign(over.pk, member(c))

    page = html.unescape(Client().get("/live/").content.decode())
    assert watched(page) == [high.pk, low.pk, unrated.pk]
    assert private.pk not in page and over.pk not in page
    assert "mean rating 1650" in page


def test_live_now_shows_each_tables_rules_players_ratings_and_progress():
    a, b, c, d = accounts("ann", "bob", "cat", "dan")
    game = public_game([a, b, c, d], ratings=(1510, 1490, 1500, 1500))
    state = dict(game.state)
    state["tokens"] = {**state["tokens"], "red": [56, 56, 10, -1]}  # two of red's tokens home
    Game.objects.filter(pk=game.pk).update(state=state)

    (table,) = live_tables()
    assert table.ruleset_name == "Classic" and table.seats == 4
    assert [(p.name, p.rating) for p in table.players][:2] == [("ann", 1510), ("bob", 1490)]
    assert table.players[0].home == 2 and table.tokens_home == 2 and table.tokens == 16
    assert table.round == 1 and table.moves == 0
    page = html.unescape(Client().get("/live/tables").content.decode())
    assert "Watch Classic: ann v bob v cat v dan" in page
    assert "2/4 home" in page and "Round 1 · 0 moves played · 2 of 16 tokens home" in page


def test_live_now_empty_says_how_to_start_a_table():
    page = Client().get("/live/").content.decode()
    assert 'data-testid="no-live-tables"' in page and "Play now" in page
    assert 'data-testid="live-top-none"' in Client().get("/").content.decode()


def test_live_now_home_page_box_shows_the_top_table():
    a, b, c, d = accounts("ann", "bob", "cat", "dan")
    public_game([a, b], ratings=(1200, 1200))
    top = public_game([c, d], ratings=(1800, 1800))
    home = html.unescape(Client().get("/").content.decode())
    assert f'href="/games/{top.pk}/" data-testid="live-top-watch"' in home
    assert "Watch Classic: cat v dan" in home
    assert 'hx-get="/live/top"' in home  # and it polls itself
    assert "Watch Classic: cat v dan" in Client().get("/live/top").content.decode()


def test_live_now_list_is_one_shared_render_for_a_few_seconds(django_assert_num_queries):
    a, b = accounts("ann", "bob")
    game = public_game([a, b])
    first = Client().get("/live/tables").content
    with django_assert_num_queries(0):  # every visitor's poll: the render kept in the cache
        assert Client().get("/live/tables").content == first
    actions.do_resign(game.pk, member(b))
    cache.delete("live_now:tables")  # a few seconds later, the list is made again
    assert game.pk not in Client().get("/live/tables").content.decode()


def test_a_live_now_table_opens_as_a_spectators_board():
    a, b, nosy = accounts("ann", "bob", "nosy")
    game = public_game([a, b])
    client = Client()
    client.force_login(nosy)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "is-watcher" in page and 'data-testid="roll"' not in page
