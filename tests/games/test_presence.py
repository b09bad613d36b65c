"""Who counts as present: a WebSocket, or (for players who act by plain POSTs or fetch the board) a
request in the last 30 seconds; and everyone, when Redis can't be reached."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import actions
from games.actions import SeatSpec, TimerSpec
from games.core import presence
from games.models import Game, Seat
from tests.games.webplay import SEED, fresh, friends_room, member, turn_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests


@pytest.fixture
def people(django_user_model):
    """(actor, logged-in browser) for alice and bob; neither has a WebSocket open."""
    found = []
    for name in ("alice", "bob"):
        user = django_user_model.objects.create_user(name)
        browser = Client()
        browser.force_login(user)
        found.append((member(user), browser))
    return found


def browser_of(seat: Seat, people):
    return next(b for actor, b in people if actor.user_id == seat.user_id)


def roll_by_post(game: Game, people):
    game = fresh(game)
    browser = browser_of(turn_seat(game), people)
    return browser.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)


def test_in_an_untimed_room_players_who_only_post_are_not_waited_for(people, monkeypatch):
    (alice, _), (bob, _) = people
    game = friends_room(alice, [bob])
    waiting = next(b for a, b in people if a.user_id != turn_seat(game).user_id)
    assert waiting.get(f"/games/{game.pk}/live", **HTMX).status_code == 200  # its page polls
    answer = roll_by_post(game, people)
    assert answer.status_code == 200, answer.content.decode()[:300]
    assert fresh(game).version == game.version + 1

    # Half a minute later, with no request since, the quiet player is absent again.
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    seats = list(game.seats.all())
    assert [s.user_id for s in actions.waiting_for(fresh(game), seats)]


def test_in_a_timed_room_a_player_who_posts_gets_the_whole_timer(people, settings):
    settings.LUDOPAT_DISCONNECT_GRACE = 1
    (alice, alice_browser), (bob, bob_browser) = people
    game = actions.create_game(
        alice,
        "friends",
        "twodice",
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(30, 2, 60),
    )
    actions.do_join(game.pk, bob)
    actions.do_start(game.pk, alice)
    long_ago = timezone.now() - timedelta(minutes=5)  # any grace for "never connected" is over
    Game.objects.filter(pk=game.pk).update(started=long_ago)
    for browser in (alice_browser, bob_browser):
        browser.get(f"/games/{game.pk}/live", **HTMX)
    assert roll_by_post(game, people).status_code == 200
    game = fresh(game)
    assert game.turn_deadline is not None
    assert game.deadline == game.turn_deadline  # not the few seconds of an absent player


def test_someone_elses_requests_do_not_make_a_seat_present(people, django_user_model):
    (alice, _), (bob, _) = people
    game = friends_room(alice, [bob])
    present = presence.connected_seats(game.pk)  # bob, who just joined
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("carol"))
    stranger.get(f"/games/{game.pk}/live", **HTMX)
    stranger.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert presence.connected_seats(game.pk) == present
    host = game.seats.get(index=0).pk
    assert host not in present


def test_when_redis_is_unreachable_everyone_counts_as_present(people, redis_down, caplog):
    (alice, _), (bob, _) = people
    game = friends_room(alice, [bob])
    seats = set(game.seats.values_list("pk", flat=True))
    assert presence.connected_seats(game.pk) == seats
    assert actions.waiting_for(fresh(game), list(game.seats.all())) == []
    assert "presence unreachable" in caplog.text
