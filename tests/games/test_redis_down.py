"""With the site's Redis unreachable (cache, presence, live pushes), a player still loads every page
and plays: boards are rendered, the throttle lets actions through, everyone counts as present, and each
of these is logged. (tests/integration/test_redis_fault.py stops a real one.)"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Game
from tests.games.webplay import SEED, fresh, friends_room, member, turn_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fixed_seeds(settings):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests


def test_a_game_against_the_computer_loads_and_takes_moves(client, redis_down, caplog):
    assert client.get("/").status_code == 200
    created = client.post(
        "/games/new/computer/",
        {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy"},
    )
    assert created.status_code == 302, created.content.decode()[:300]
    game = Game.objects.get(pk=created["Location"].strip("/").split("/")[-1])
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.get(f"/games/{game.pk}/live", **HTMX).status_code == 200
    answer = client.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()[:300]
    assert fresh(game).version == game.version + 1
    assert 'data-testid="game-live"' in answer.content.decode()
    assert "presence unreachable" in caplog.text


def test_an_untimed_room_plays_on_though_nobody_can_be_seen(django_user_model, redis_down):
    people = [django_user_model.objects.create_user(n) for n in ("alice", "bob")]
    alice, bob = (member(u) for u in people)
    game = friends_room(alice, [bob])
    browser = Client()
    browser.force_login(next(u for u in people if u.pk == turn_seat(game).user_id))
    answer = browser.post(f"/games/{game.pk}/roll", {"version": game.version}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()[:300]  # not "Waiting for ..."
    assert fresh(game).version == game.version + 1


def test_no_page_answers_a_500(client, django_user_model, redis_down):
    from tests.hardening.test_hostile_input import fill, url_patterns

    people = [django_user_model.objects.create_user(n) for n in ("alice", "bob")]
    room = friends_room(member(people[0]), [member(people[1])])
    ids = {"game_id": room.pk, "username": "alice", "mode": "computer", "ruleset": "classic"}
    client.force_login(people[1])
    stranger = Client()
    routes = [route for route, _ in url_patterns()]
    assert any("<gameid:game_id>/live" in r for r in routes)  # the URLconf really was read
    for route in routes:
        for browser in (client, stranger):
            url = fill(route, ids)
            assert browser.get(url).status_code < 500, url


def test_a_timed_room_gives_the_player_the_whole_timer(django_user_model, redis_down, settings):
    """Nobody can be seen, so nobody is treated as disconnected: no early hand-over to the computer."""
    from datetime import timedelta

    from django.utils import timezone

    from games import actions
    from games.actions import SeatSpec, TimerSpec
    from games.models import Seat

    settings.LUDOPAT_DISCONNECT_GRACE = 1
    alice, bob = (member(django_user_model.objects.create_user(n)) for n in ("alice", "bob"))
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
    Game.objects.filter(pk=game.pk).update(started=timezone.now() - timedelta(minutes=5))
    seat = turn_seat(game)
    actor = alice if seat.user_id == alice.user_id else bob
    actions.do_roll(game.pk, actor, fresh(game).version)
    game = fresh(game)
    assert game.turn_deadline is not None and game.deadline == game.turn_deadline


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_while_redis_is_down_is_told_to_try_again_later(redis_down, caplog):
    """No unhandled error: the page's socket is closed with 4503 ("try again later"), on which the
    page's client (static/js/game.js) reconnects after a while, and the log says why."""
    from channels.layers import channel_layers
    from channels.testing import WebsocketCommunicator

    from ludopat.asgi import application
    from tests.games.webplay import anon, computer_game

    channel_layers.backends.clear()  # the layer is made again, on the unreachable Redis
    game = await database_sync_to_async(computer_game)(anon())
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await ws.connect(timeout=10)
    assert connected
    assert await ws.receive_output(timeout=10) == {"type": "websocket.close", "code": 4503}
    await ws.wait()
    assert "channel layer unreachable" in caplog.text
    channel_layers.backends.clear()
