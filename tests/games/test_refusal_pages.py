"""Refusals a person sees: valid HTTP, a sentence, the site's own pages; the board's
forms work without JavaScript, each with the viewer's own CSRF token from the full page's render (the
shared, cached board fragment carries none); a stale session says so and offers a reload."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.views import defaults

from games.models import Game
from tests.games.webplay import SEED, everyone_here, fresh, friends_room, member, turn_seat
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


@pytest.fixture(autouse=True)
def fixed_seeds(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests


@pytest.fixture
def room():
    """A running room of alice and bob, and a browser for each, with CSRF checks on as in real life."""
    people = [get_user_model().objects.create_user(n) for n in ("alice", "bob")]
    game = friends_room(member(people[0]), [member(people[1])])
    everyone_here(game)
    browsers = {}
    for user in people:
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(user)
        browsers[user.username] = browser
    return game, people, browsers


def _live_fragment(page: str) -> str:
    start = page.index('id="game-live"')
    return page[start:]


def test_without_javascript_the_boards_forms_carry_the_viewers_own_token(room):
    game, people, browsers = room
    turn = turn_seat(game)
    player = next(u for u in people if u.pk == turn.user_id)
    other = next(u for u in people if u.pk != turn.user_id)
    page = browsers[player.username].get(f"/games/{game.pk}/").content.decode()
    roll = re.search(r'<form[^>]*action="(/games/[^"]+/roll)"[^>]*>(.*?)</form>', page, re.S)
    assert roll, "no roll form on the player's board"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', roll.group(2)))
    assert fields.get("csrfmiddlewaretoken"), "the roll form has no CSRF token"
    # Posted as a browser without JavaScript posts it: the roll is made and the page comes back.
    answer = browsers[player.username].post(roll.group(1), fields)
    assert answer.status_code == 302, re.findall(r'error-message">([^<]*)', answer.content.decode())
    assert fresh(game).version == game.version + 1
    # Every POST form of the full page carries a token, and it is this viewer's (a rendering in one
    # browser never reaches another through the shared fragment).
    again = browsers[player.username].get(f"/games/{game.pk}/").content.decode()
    forms = re.findall(r'<form[^>]*method="post"[^>]*>(.*?)</form>', _live_fragment(again), re.S)
    assert forms and all(TOKEN.search(f) and TOKEN.search(f).group(1) for f in forms)
    theirs = browsers[other.username].get(f"/games/{game.pk}/").content.decode()
    mine_tokens = {t for t in TOKEN.findall(again) if t}
    assert not mine_tokens & set(TOKEN.findall(theirs))
    # The fragment alone (htmx and socket pushes, shared between viewers) carries no token.
    fragment = browsers[player.username].get(f"/games/{game.pk}/live", **HTMX).content.decode()
    assert not [t for t in TOKEN.findall(fragment) if t]


def test_a_stale_session_is_told_so_and_offered_a_reload(room):
    game, people, browsers = room
    player = next(u for u in people if u.pk == turn_seat(game).user_id)
    browser = browsers[player.username]
    page = browser.get(f"/games/{game.pk}/").content.decode()
    stale = TOKEN.search(page).group(1)
    # Another tab logs in (as someone else, and back): Django rotates the CSRF secret, so the token
    # this page holds no longer matches the browser's cookie.
    browser.cookies["csrftoken"] = "a" * 32
    # htmx (JavaScript on): a sentence, as plain text, that says what happened and to reload.
    answer = browser.post(
        f"/games/{game.pk}/roll",
        {"version": game.version, "csrfmiddlewaretoken": stale},
        HTTP_X_CSRFTOKEN=stale,
        **HTMX,
    )
    assert answer.status_code == 403
    assert answer["Content-Type"].startswith("text/plain")
    text = answer.content.decode()
    assert "<" not in text and "reload" in text.lower() and "session" in text.lower()
    assert answer.headers.get("X-Ludopat-Reload") == "1"  # the page's script offers the reload
    # JavaScript off: the site's own page, with the sentence and a link that reloads the game's page.
    answer = browser.post(
        f"/games/{game.pk}/roll",
        {"version": game.version, "csrfmiddlewaretoken": stale},
        HTTP_REFERER=f"http://testserver/games/{game.pk}/",
    )
    assert answer.status_code == 403
    html = answer.content.decode()
    assert 'data-testid="error"' in html and 'class="site-header"' in html
    assert "session" in html.lower() and f'href="/games/{game.pk}/"' in html
    assert fresh(game).version == game.version


@pytest.mark.parametrize("path", ["/staked/new", "/staked/quick", "/accounts/wallet/top-up/"])
def test_a_refusal_is_valid_http_with_a_sentence(client, django_user_model, path):
    client.force_login(django_user_model.objects.create_user("carol"))
    answer = client.get(path)
    assert answer.status_code == 405
    body = answer.content
    assert int(answer["Content-Length"]) == len(body) > 0
    assert body.decode().endswith(".") and "<" not in body.decode()


def test_403_404_and_500_pages_are_the_sites_own(client, rf):
    assert 'class="site-header"' in client.get("/no/such/page/").content.decode()
    forbidden = defaults.permission_denied(rf.get("/"), PermissionError())
    assert b'class="site-header"' in forbidden.content and forbidden.status_code == 403
    broken = defaults.server_error(rf.get("/"))
    assert broken.status_code == 500
    html = broken.content.decode()
    assert 'class="site-header"' in html and 'data-testid="error"' in html
    assert "Your games are saved" in html


def test_an_unknown_game_says_so_in_a_sentence(client):
    answer = client.get("/games/AAAAAAAAAAAAAAAA/")
    assert answer.status_code == 404 and Game.objects.count() == 0
    assert 'data-testid="error"' in answer.content.decode()
