"""bench/live.py's floor action (games/web/bench_floor.py): a missing page unless LUDOPAT_BENCH_FLOOR=1
(which makes the floor's module the URLconf and the socket routes); with it, one Action, one version,
and a push every other socket forwards unrendered at the asked size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.test import Client

from games.live.fragments import DELTA_START
from games.models import Action
from games.web import bench_floor
from ludopat.asgi import sockets
from tests.games.test_consumers import connect, drain, session_for, version_of
from tests.games.webplay import fresh, friends_room, member, snapshot


@pytest.fixture(autouse=True)
def fresh_layer(redis_client):
    channel_layers.backends.clear()  # each test has its own event loop


@pytest.fixture
def floor_on(settings):
    """What LUDOPAT_BENCH_FLOOR=1 sets as the process starts (ludopat/settings.py)."""
    settings.ROOT_URLCONF = "games.web.bench_floor"  # and ludopat.asgi takes its socket routes


def _room(django_user_model):
    host = django_user_model.objects.create_user("hostess")
    guest = django_user_model.objects.create_user("guesto")
    nosy = django_user_model.objects.create_user("nosy")
    return friends_room(member(host), [member(guest)]), host, guest, nosy


async def _pages(app, game, users) -> list:
    """Each user's socket on the game, open (its first frames not read yet)."""
    pages = []
    for user in users:
        key = await database_sync_to_async(session_for)(user, f"key-{user.pk}")
        pages.append(await connect(game.pk, key, app=app))
    return pages


def _post(user, game, size: int = 0, socket: str = ""):
    client = Client()
    client.force_login(user)
    headers = {"X-Live-Socket": socket} if socket else {}
    return client.post(f"/games/{game.pk}/bench-floor", {"size": size}, headers=headers)


@pytest.mark.django_db
def test_without_the_flag_the_floor_is_a_missing_page_that_writes_nothing(django_user_model):
    game, host, _guest, _nosy = _room(django_user_model)
    before = snapshot(game)
    assert _post(host, game, 5000).status_code == 404
    assert snapshot(game) == before
    assert Client().get("/games/bench-floor/counts").status_code == 404


@pytest.mark.django_db
def test_only_a_player_of_the_game_may_use_the_floor(django_user_model, floor_on):
    game, _host, _guest, nosy = _room(django_user_model)
    before = snapshot(game)
    assert _post(nosy, game, 5000).status_code == 403
    assert snapshot(game) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_floor_writes_one_action_and_every_other_socket_gets_the_asked_size_unrendered(
    django_user_model, floor_on
):
    app = sockets(bench_floor.websocket_urlpatterns)
    game, host, guest, nosy = await database_sync_to_async(_room)(django_user_model)
    pages = await _pages(app, game, (host, guest, nosy))
    host_ws, guest_ws, watch_ws = pages
    host_channel = next(m for m in host_ws.pending if 'id="live-socket"' in m)
    host_channel = host_channel.split('data-channel="')[1].split('"')[0]
    for ws in pages:
        await drain(ws)
    actions_before = await database_sync_to_async(Action.objects.filter(game=game).count)()

    response = await database_sync_to_async(_post)(host, game, 7000, host_channel)

    assert response.status_code == 200
    now = await database_sync_to_async(fresh)(game)
    assert now.version == game.version + 1 and now.state == game.state  # no move was made
    assert await database_sync_to_async(Action.objects.filter(game=game).count)() == (
        actions_before + 1
    )
    answer = response.content.decode()
    assert len(answer) == 7000 and version_of(answer) == now.version
    for ws in (guest_ws, watch_ws):
        frame = await ws.receive_from(timeout=3)
        assert len(frame) == 7000 and version_of(frame) == now.version
        assert 'data-floor="1"' in frame and "token-button" not in frame  # not a rendered board
    assert await host_ws.receive_nothing(timeout=0.3)  # the POST's answer carried it
    counts = await database_sync_to_async(Client().get)("/games/bench-floor/counts")
    assert set(json.loads(counts.content)) == {"queries", "redis_round_trips", "full_board_renders"}
    for ws in pages:
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_floor_writes_one_action_and_every_socket_gets_the_frame_the_actors_too(
    django_user_model, floor_on
):
    """`--via ws` against its own floor: the frame is sent on the player's socket, and the push reaches
    every page, the actor's included (a socket action has no POST answer to carry its board)."""
    app = sockets(bench_floor.websocket_urlpatterns)
    game, host, guest, nosy = await database_sync_to_async(_room)(django_user_model)
    pages = await _pages(app, game, (host, guest, nosy))
    for ws in pages:
        await drain(ws)
    count = database_sync_to_async(lambda: Action.objects.filter(game=game).count())
    actions_before = await count()

    await pages[0].send_to(text_data=json.dumps({"action": "bench-floor", "size": 3000}))

    for ws in pages:
        frame = await ws.receive_from(timeout=3)
        assert len(frame) == 3000 and version_of(frame) == game.version + 1
        assert 'data-floor="1"' in frame
    assert await count() == actions_before + 1

    await pages[2].send_to(text_data=json.dumps({"action": "bench-floor", "size": 3000}))
    for ws in pages:  # a spectator holds no seat: nothing happens
        assert await ws.receive_nothing(timeout=0.3)
    assert await count() == actions_before + 1
    for ws in pages:
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_after_the_floor_a_real_actions_push_moves_from_the_floors_version(
    django_user_model, floor_on
):
    """The floor moves the version, not the board: every page shows the floor's version, so the next
    real action's push must move from it (bench/live.py measures real and floor slices in turns; a
    push from an older version would make every page ask for the whole board)."""
    app = sockets(bench_floor.websocket_urlpatterns)
    game, host, guest, nosy = await database_sync_to_async(_room)(django_user_model)
    pages = await _pages(app, game, (host, guest, nosy))
    for ws in pages:
        await drain(ws)
    await pages[0].send_to(text_data=json.dumps({"action": "bench-floor", "size": 3000}))
    floor_version = game.version + 1
    for ws in pages:
        assert version_of(await ws.receive_from(timeout=3)) == floor_version

    await pages[0].send_to(text_data=json.dumps({"action": "roll", "version": floor_version}))

    for ws in pages:
        push = await ws.receive_from(timeout=3)
        assert push.startswith(DELTA_START + f'{floor_version}"')
        assert version_of(push) == floor_version + 1
    for ws in pages:
        await ws.disconnect()


def test_no_module_of_the_site_imports_the_floor_but_the_app_config_when_it_is_on():
    """Production's URLs, routes, consumers and pushes never name it: only the settings and
    ludopat.asgi (which take its URLs and routes when the flag is on), games.apps (which starts its
    counts then) and games.web's index."""
    root = Path(__file__).resolve().parents[2]
    naming = set()
    for app in ("accounts", "games", "leaderboard", "ludopat"):
        for path in (root / app).rglob("*.py"):
            if path.name != "bench_floor.py" and "bench_floor" in path.read_text():
                naming.add(str(path.relative_to(root)))
    assert naming == {
        "games/apps.py",
        "ludopat/settings.py",
        "ludopat/asgi.py",
        "games/web/__init__.py",
    }
