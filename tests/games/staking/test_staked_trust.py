"""Staked play between people who might be one person, and requests that don't say what they mean,
through the real URLs as a browser sends them.

Run these on PostgreSQL too: a NUL byte in text is refused only there.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.ledger.history import balance_of
from games.models import Game
from tests.ledger_checks import ledger_stays_balanced  # noqa: F401

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough passphrase 7"


@pytest.fixture(autouse=True)
def quiet(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_NEW_PLAYER_GAMES = 0


def account(django_user_model, name: str):
    user = django_user_model.objects.create_user(name, password=PASSWORD)
    django_user_model.objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timedelta(days=2)
    )
    return user


def logged_in(user, browser: Client | None = None) -> Client:
    """A browser (a new one unless given) logged in as `user` through the log-in page."""
    browser = browser or Client()
    r = browser.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert r.status_code == 302, r.content.decode()[:500]
    return browser


@pytest.fixture
def ann(django_user_model):
    return account(django_user_model, "ann")


@pytest.fixture
def bea(django_user_model):
    return account(django_user_model, "bea")


@pytest.fixture
def cat(django_user_model):
    return account(django_user_model, "cat")


def text(response) -> str:
    return response.content.decode()


def open_room(browser: Client, stake="100", key="room-1"):
    return browser.post(
        "/staked/new", {"stake": stake, "ruleset": "twodice", "timer": "15", "key": key}
    )


def page_version(page: str) -> str:
    return re.search(r'data-testid="game-live" data-version="(\d+)"', page).group(1)


def leave_form_version(page: str) -> str:
    """The version the room's "Close room" form sends (the page's own)."""
    form = page[page.index('action="/games/') : page.index('data-testid="leave"')]
    form = form[form.rindex("<form") if "<form" in form else 0 :]
    return re.search(r'name="version" value="(\d+)"', form).group(1)


# Item 9: a NUL byte in an idempotency key


def test_a_nul_byte_in_a_join_or_rematch_key_is_refused_with_a_sentence(ann, bea):
    host, guest = logged_in(ann), logged_in(bea)
    open_room(host)
    game = Game.objects.get()
    r = guest.post(f"/staked/{game.pk}/join", {"key": "a\x00b"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and "reload the page" in text(r)
    assert Game.objects.get().status == Game.Status.OPEN and balance_of(bea.pk) == 1000

    guest.post(f"/staked/{game.pk}/join", {"key": "join-1"})
    guest.post(f"/games/{game.pk}/resign")
    assert Game.objects.get().status == Game.Status.FINISHED
    r = guest.post(f"/staked/{game.pk}/rematch", {"key": "\x00"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and "reload the page" in text(r)
    assert Game.objects.count() == 1 and balance_of(bea.pk) == 900


# Item 10: a key replayed with a different request


def test_a_key_reused_for_a_different_request_is_refused(ann, bea):
    host, guest = logged_in(ann), logged_in(bea)
    first = open_room(host, "100", key="form-1")
    game = Game.objects.get()
    assert first["Location"] == f"/games/{game.pk}/"
    assert open_room(host, "100", key="form-1")["Location"] == first["Location"]  # a repeat

    other_stake = open_room(host, "250", key="form-1")
    assert other_stake.status_code == 422
    assert "was already used for a different request" in text(other_stake)
    assert Game.objects.count() == 1 and balance_of(ann.pk) == 900

    guest.post("/staked/quick", {"tier": "50", "ruleset": "twodice", "key": "bea-1"})
    waiting = Game.objects.get(owner=bea)
    on_a_join = guest.post(f"/staked/{game.pk}/join", {"key": "bea-1"})
    assert on_a_join.status_code == 422
    assert "was already used for a different request" in text(on_a_join)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    assert Game.objects.get(pk=waiting.pk).status == Game.Status.OPEN
    assert balance_of(bea.pk) == 950


# Item 11: a leave decided on the open room's page, arriving after the start


def test_a_leave_sent_from_the_open_room_is_refused_once_the_game_has_started(ann, bea):
    host, guest = logged_in(ann), logged_in(bea)
    open_room(host)
    game = Game.objects.get()
    page = text(host.get(f"/games/{game.pk}/"))
    version = page_version(page)

    guest.post(f"/staked/{game.pk}/join", {"key": "join-1"})  # as the host presses "Close room"
    assert Game.objects.get().status == Game.Status.PLAYING

    r = host.post(f"/games/{game.pk}/leave", {"version": version})
    assert r.status_code == 409
    assert "The game has started: use Resign to give it up" in text(r)
    r = host.post(f"/staked/{game.pk}/cancel", {"version": version}, HTTP_HX_REQUEST="true")
    assert r.status_code == 409
    assert Game.objects.get().status == Game.Status.PLAYING
    assert balance_of(ann.pk) == 900 and balance_of(bea.pk) == 900
    # The page's buttons send the version it shows.
    assert leave_form_version(page) == version
    cancel = page[page.index(f'action="/staked/{game.pk}/cancel"') : page.index("cancel-room")]
    assert f'name="version" value="{version}"' in cancel

    # Leaving from the running game's own page is resigning, as before.
    now = page_version(text(host.get(f"/games/{game.pk}/")))
    host.post(f"/games/{game.pk}/leave", {"version": now})
    assert Game.objects.get().status == Game.Status.FINISHED
    assert balance_of(ann.pk) == 900 and balance_of(bea.pk) == 1080


# Item 8: two accounts from one browser


def sign_up(browser: Client, name: str):
    r = browser.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert r.status_code == 302, text(r)[:500]


def test_two_accounts_from_one_browser_never_play_each_other_for_coins(
    ann, bea, cat, django_user_model
):
    # Signing up while logged in (the session is flushed): the first account's room is withdrawn.
    browser = logged_in(ann)
    open_room(browser, "100", key="ann-room")
    first = Game.objects.get(owner=ann)
    cookie = browser.cookies["ludopat_browser"]  # the browser's own, signed, out of scripts' reach
    assert cookie["httponly"] and cookie["max-age"] and ":" in cookie.value
    sign_up(browser, "twin")
    assert browser.cookies["ludopat_browser"].value == cookie.value
    twin = django_user_model.objects.get(username="twin")
    assert Game.objects.get(pk=first.pk).status == Game.Status.ABANDONED
    assert balance_of(ann.pk) == 1000

    # Logging out and in as another account in the same browser: still the same browser.
    browser.post("/accounts/logout/")
    logged_in(bea, browser)

    # ann, elsewhere, opens a room and waits for a quick match; neither account of that browser
    # may take her coins, and a quick match never pairs them.
    elsewhere = logged_in(ann)
    open_room(elsewhere, "100", key="ann-room-2")
    room = Game.objects.get(owner=ann, status=Game.Status.OPEN)
    refused = browser.post(f"/staked/{room.pk}/join", {"key": "bea-join"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    assert "played in the same browser can't play each other for coins" in text(refused)
    assert Game.objects.get(pk=room.pk).status == Game.Status.OPEN
    elsewhere.post(f"/staked/{room.pk}/cancel", {"version": Game.objects.get(pk=room.pk).version})

    elsewhere.post("/staked/quick", {"tier": "50", "ruleset": "twodice", "key": "ann-quick"})
    browser.post("/staked/quick", {"tier": "50", "ruleset": "twodice", "key": "bea-quick"})
    assert Game.objects.filter(stake=50, status=Game.Status.OPEN).count() == 2  # not paired

    # Someone from another browser is paired, and joins as usual.
    stranger = logged_in(cat)
    stranger.post("/staked/quick", {"tier": "50", "ruleset": "twodice", "key": "cat-quick"})
    assert Game.objects.filter(stake=50, status=Game.Status.PLAYING).count() == 1
    assert Game.objects.get(stake=50, status=Game.Status.PLAYING).owner_id == ann.pk
    assert balance_of(twin.pk) == 1000 and balance_of(ann.pk) == balance_of(bea.pk) == 950
