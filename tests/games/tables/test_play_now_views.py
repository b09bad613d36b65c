"""Play now through the real views: the home page's form, the press, the waiting screen (how many
wait, how long, whom it looks for) and its poll surviving a reload, the push and the poll that take
the player to the table, stopping, refusals in words, and the per-account limit on presses."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Game
from games.tables import waiting as tables_waiting
from games.tables.models import TableWait
from tests.factories import accounts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()  # the rate limits' counters


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def press(client, ruleset="classic", players=4, timer=15, **extra):
    return client.post(
        "/play-now/", {"ruleset": ruleset, "players": players, "timer": timer, **extra}
    )


def test_play_now_form_is_on_the_home_page_for_members_and_visitors_are_asked_to_sign_up():
    (a,) = accounts("a")
    page = text(logged_in(a).get("/"))
    assert 'data-testid="play-now-form"' in page and 'action="/play-now/"' in page
    assert "Fill empty seats with computers after 30 s" in page
    visitor = text(Client().get("/"))
    assert 'data-testid="play-now-signup"' in visitor


def test_play_now_waiting_screen_shows_count_time_and_range_and_survives_a_reload():
    a, b = accounts("a", "b")
    ca, cb = logged_in(a), logged_in(b)
    r = press(ca)
    assert r.status_code == 302 and r["Location"] == "/play-now/waiting"
    press(cb)
    for _ in range(2):  # a reload shows the same place in the list
        page = text(ca.get("/play-now/waiting"))
        assert 'data-testid="play-now-table">Classic for 4, 15 s a move<' in page
        assert 'data-testid="play-now-waiting-count">2<' in page
        assert 'data-testid="play-now-waited">0:0' in page
        assert 'data-testid="play-now-range-band">1400\u20131600<' in page
        assert 'near your Classic rating <span data-testid="play-now-rating">1500<' in page
        assert 'ws-connect="/ws/online/"' in page  # the push that says the table is ready
    status = ca.get("/play-now/waiting/status", HTTP_HX_REQUEST="true")
    assert status.status_code == 200 and 'data-testid="play-now-waited"' in text(status)
    assert TableWait.objects.filter(status="waiting").count() == 2


def test_play_now_push_and_poll_take_the_waiting_players_to_their_table(
    monkeypatch, django_capture_on_commit_callbacks
):
    a, b = accounts("a", "b")
    ca, cb = logged_in(a), logged_in(b)
    told: dict[int, list[str]] = {}
    monkeypatch.setattr(
        tables_waiting, "send_to_account", lambda uid, html: told.setdefault(uid, []).append(html)
    )
    press(ca, "duel", 2)
    with django_capture_on_commit_callbacks(execute=True):
        r = press(cb, "duel", 2)  # b is seated at once with a: straight to the table
    game = Game.objects.get(public=True)
    assert r["Location"] == game.get_absolute_url()
    assert set(told) == {a.pk}  # b's press answers with the table itself
    assert 'id="table-found" hx-swap-oob="true"' in told[a.pk][0]
    assert game.get_absolute_url() in told[a.pk][0]
    # a's waiting screen, its poll or a reload, goes to the table too.
    poll = ca.get("/play-now/waiting/status", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204 and poll["HX-Redirect"] == game.get_absolute_url()
    assert ca.get("/play-now/waiting")["Location"] == game.get_absolute_url()


def test_play_now_table_found_has_one_place_on_every_page_a_waiting_player_may_have_open():
    """The push that says the table is ready reaches every page of the account (the account socket):
    each has one place for it, so it shows there instead of failing to find its target."""
    (a,) = accounts("a")
    ca = logged_in(a)
    press(ca)
    for path in ("/", "/leaderboard/", "/friends/", "/play-now/waiting"):
        page = text(ca.get(path))
        assert page.count('<div id="table-found"') == 1, path


def test_play_now_stop_waiting_from_the_screen():
    (a,) = accounts("a")
    ca = logged_in(a)
    press(ca)
    r = ca.post("/play-now/stop")
    assert r["Location"] == "/play-now/waiting"
    page = text(ca.get("/play-now/waiting"))
    assert 'data-testid="play-now-stopped">You stopped waiting.<' in page
    assert 'data-testid="play-now-form"' in page  # press again from here
    poll = ca.get("/play-now/waiting/status", HTTP_HX_REQUEST="true")
    assert poll.status_code == 286  # the poll stops


def test_play_now_refusals_are_sentences_next_to_the_form():
    (a,) = accounts("a")
    ca = logged_in(a)
    r = press(ca, timer=7)
    assert r.status_code == 400
    assert "A public table&#x27;s timer is 10, 15 or 30 seconds per action." in text(r)
    press(ca, "duel", 2)
    r = press(ca, "twodice", 2)
    assert r.status_code == 409
    assert "You are waiting for another table (Duel for 2, 15 s a move)" in text(r)
    assert Client().post("/play-now/", {"ruleset": "duel"}).status_code == 302  # to log in


def test_play_now_presses_are_rate_limited_per_account(settings):
    settings.LUDOPAT_RATES = {"play_now": (2, 300)}
    (a,) = accounts("a")
    ca = logged_in(a)
    assert press(ca).status_code == 302
    assert press(ca).status_code == 302  # the same table again: the same entry
    r = press(ca)
    assert r.status_code == 429 and "Too many presses of Play now" in text(r)


def test_public_table_page_offers_play_now_again_when_over():
    a, b = accounts("a", "b")
    ca, cb = logged_in(a), logged_in(b)
    press(ca, "duel", 2)
    press(cb, "duel", 2)
    game = Game.objects.get(public=True)
    page = text(ca.get(game.get_absolute_url()))
    assert 'data-testid="new-round"' not in page  # one round a table
    from games import actions
    from tests.factories import member

    actions.do_resign(game.pk, member(b))
    page = text(ca.get(game.get_absolute_url()))
    assert 'data-testid="play-now-again"' in page
