"""The game's WebSocket through the real Redis channel layer: live boards per viewpoint, resyncs, refusals."""

from __future__ import annotations

import asyncio
import json
import re
import sys

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from games import actions
from games.core import actors, broadcast, presence
from games.models import Game
from ludopat.asgi import application
from tests.games.page_model import board_model, shown
from tests.games.webplay import SEED, everyone_here, fresh, friends_room, member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HOST = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@pytest.fixture(autouse=True)
def fixed_seeds(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 60  # no computer acts during these tests
    # Each test has its own event loop; a layer made in another loop holds locks bound to it.
    channel_layers.backends.clear()


def session_for(user=None, key="") -> str:
    session = SessionStore()
    if user is not None:
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if key:
        session[actors.PLAYER_KEY] = key
    session.save()
    return session.session_key


async def connect(
    game_id: str, session_key: str | None = None, expect=True, have=-1, app=application
):
    """A page's socket: on open the page says which version it shows (-1: none, send the board)."""
    headers = list(HOST)
    if session_key:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
    ws = WebsocketCommunicator(app, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected is expect
    ws.pending = []  # messages that arrived while connecting, read first by the helpers below
    # The page's board, kept from every frame the helpers read (a presence push may come before a
    # version's push and carry regions that the version's push then need not carry again).
    ws.model = board_model().BoardModel()
    if connected:
        await ws.send_to(text_data=json.dumps({"resync": have}))
        if have < 0:  # the page shows nothing yet: wait for the board its resync brings
            while not any('id="game-live"' in m for m in ws.pending):
                ws.pending.append(await ws.receive_from(timeout=5))
    return ws


async def receive(ws, timeout: float) -> str:
    if getattr(ws, "pending", None):
        return taken(ws, ws.pending.pop(0))
    return taken(ws, await ws.receive_from(timeout=timeout))


def taken(ws, message: str) -> str:
    """`message` as the page shows it once taken: a board push with the regions the page kept."""
    model = getattr(ws, "model", None)
    if model is None or 'id="game-live"' not in message:
        return message
    model.apply(message)
    return shown(model, message)


def version_of(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


async def board_at(ws, version: int, timeout=3.0, frame: bool = False) -> str:
    """Messages until the board at `version` (presence updates of others come in between): the page
    as it shows that board, or with `frame` the frame that brought it, as sent."""
    deadline = asyncio.get_event_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_event_loop().time()
        if getattr(ws, "pending", None):
            sent = ws.pending.pop(0)
        else:
            sent = await ws.receive_from(timeout=max(left, 0.05))
        html = taken(ws, sent)
        if 'id="game-live"' in html and version_of(html) >= version:
            return sent if frame else html


async def latest(ws) -> str:
    """The last of the boards that arrive now (at least one)."""
    html = await board_at(ws, 0)
    while ws.pending:
        message = taken(ws, ws.pending.pop(0))
        if 'id="game-live"' in message:
            html = message
    while not await ws.receive_nothing(timeout=0.3):
        message = taken(ws, await ws.receive_from())
        if 'id="game-live"' in message:
            html = message
    return html


async def drain(ws):
    for message in getattr(ws, "pending", []):
        taken(ws, message)
    ws.pending = []
    while not await ws.receive_nothing(timeout=0.15):
        taken(ws, await ws.receive_from())


@database_sync_to_async
def room(django_user_model):
    host = django_user_model.objects.create_user("hostess")
    guest = django_user_model.objects.create_user("guesto")
    nosy = django_user_model.objects.create_user("nosy")
    game = friends_room(member(host), [member(guest)])
    return game, host, guest, nosy


async def three_pages(game, host, guest, nosy):
    """The host's, the guest's and a spectator's sockets, each with the board it opened with read."""
    sockets = []
    for user, key in ((host, "key-h"), (guest, "key-g"), (nosy, "key-n")):
        sockets.append(await connect(game.pk, await database_sync_to_async(session_for)(user, key)))
    for ws in sockets:
        await drain(ws)
    return sockets


async def test_a_roll_reaches_every_connection_each_with_its_own_viewpoint(django_user_model):
    game, host, guest, nosy = await room(django_user_model)
    host_ws, guest_ws, watch_ws = await three_pages(game, host, guest, nosy)
    await database_sync_to_async(actions.do_roll)(game.pk, member(host), game.version)
    now = (await database_sync_to_async(fresh)(game)).version
    boards = [await board_at(ws, now) for ws in (host_ws, guest_ws, watch_ws)]
    assert all(version_of(b) == now for b in boards)
    # Each page gets the regions of its own board (all of them: its socket has sent it none yet).
    assert all(b.startswith('<div id="game-live" hx-swap-oob="none" data-from=') for b in boards)
    host_html, guest_html, watch_html = boards
    assert "is-player" in host_html and "is-player" in guest_html
    assert "is-watcher" in watch_html and 'data-testid="roll"' not in watch_html
    assert "(you)" in host_html.split('data-testid="player-0"')[1].split("</li>")[0]
    assert "(you)" in guest_html.split('data-testid="player-1"')[1].split("</li>")[0]
    assert 'data-testid="new-round"' not in watch_html
    for ws in (host_ws, guest_ws, watch_ws):
        await ws.disconnect()


async def test_a_push_reads_presence_once_for_all_its_sockets(django_user_model, monkeypatch):
    """The sockets render the push's version with the presence the push read (one Redis read per
    push, not one per socket), and their boards show both players online."""
    game, host, guest, nosy = await room(django_user_model)
    host_ws, guest_ws, watch_ws = await three_pages(game, host, guest, nosy)
    readers = []
    read = presence.connected_seats

    def counted(game_id):
        readers.append(sys._getframe(1).f_code.co_filename)  # who asks
        return read(game_id)

    monkeypatch.setattr(presence, "connected_seats", counted)
    await database_sync_to_async(actions.do_roll)(game.pk, member(host), game.version)
    now = (await database_sync_to_async(fresh)(game)).version
    boards = [await board_at(ws, now) for ws in (guest_ws, watch_ws)]
    assert any(r.endswith("games/core/broadcast.py") for r in readers)  # the push read it, once
    assert sum(r.endswith("games/core/broadcast.py") for r in readers) == 1
    assert not [r for r in readers if r.endswith("games/live/fragments.py")]  # no socket's render
    for board in boards:
        assert 'data-testid="conn-0">online' in board and 'data-testid="conn-1">online' in board
    for ws in (host_ws, guest_ws, watch_ws):
        await ws.disconnect()


async def test_a_push_leaves_out_the_ground_the_socket_sent_its_page_and_a_resync_has_it(
    django_user_model,
):
    """The board's ground (yards, squares, centre: more than half a board) goes to a page once per
    socket; later pushes carry an empty placeholder the page keeps its own in place of, and a resync
    (a page that lost track) gets the whole board again."""
    game, host, _guest, nosy = await room(django_user_model)
    watch_ws = await connect(game.pk, await database_sync_to_async(session_for)(nosy, "key-n"))
    whole = await latest(watch_ws)  # the resync's board: the page gets it whole
    assert 'id="board-ground"' in whole and 'class="cell' in whole and "hx-preserve" not in whole
    await database_sync_to_async(everyone_here)(game)
    game = await database_sync_to_async(fresh)(game)
    await database_sync_to_async(actions.do_roll)(game.pk, member(host), game.version)
    rolled = (await database_sync_to_async(fresh)(game)).version
    pushed = await board_at(watch_ws, rolled, frame=True)
    key = re.search(r'data-ground="([0-9a-f]+)"', whole).group(1)
    if 'id="live-board"' in pushed:  # (a roll leaves the tokens where they were: no board at all)
        assert f'<g id="board-ground" data-ground="{key}" hx-preserve="true"></g>' in pushed
    assert 'class="cell' not in pushed and len(pushed) < len(whole) / 2
    await drain(watch_ws)
    await watch_ws.send_to(text_data=json.dumps({"resync": -1}))
    again = await board_at(watch_ws, rolled)
    assert 'class="cell' in again and "hx-preserve" not in again
    await watch_ws.disconnect()


async def test_reconnecting_with_an_old_version_gets_the_whole_board(django_user_model):
    game, host, guest, _nosy = await room(django_user_model)
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    await database_sync_to_async(actions.do_roll)(game.pk, member(host), game.version)
    await host_ws.disconnect()
    now = (await database_sync_to_async(fresh)(game)).version
    again = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    first = await board_at(again, now)
    assert version_of(first) == now and 'id="game-board"' in first
    await drain(again)
    await again.send_to(text_data=json.dumps({"resync": now - 3}))
    html = await board_at(again, now)
    assert version_of(html) == now and 'data-testid="players"' in html
    await again.disconnect()
    await guest_ws.disconnect()


async def test_a_stale_action_is_refused_and_the_client_resynced(django_user_model):
    game, host, guest, _nosy = await room(django_user_model)
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    old = game.version
    await database_sync_to_async(actions.do_roll)(game.pk, member(host), old)
    await drain(host_ws)
    await host_ws.send_to(text_data=json.dumps({"action": "roll", "version": old}))
    toast = await host_ws.receive_from(timeout=3)
    assert 'id="game-toast"' in toast and "board changed" in toast
    html = await host_ws.receive_from(timeout=3)
    assert version_of(html) == old + 1 and "board changed" in html
    assert (await database_sync_to_async(fresh)(game)).version == old + 1
    await host_ws.disconnect()
    await guest_ws.disconnect()


async def test_actions_over_the_socket_reach_the_others(django_user_model):
    game, host, guest, _nosy = await room(django_user_model)
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    await host_ws.send_to(
        text_data=json.dumps({"action": "roll", "version": game.version, "HEADERS": {}})
    )
    html = await board_at(guest_ws, game.version + 1)
    assert "hostess rolled" in html
    await host_ws.disconnect()
    await guest_ws.disconnect()


async def test_a_visitor_without_the_link_cannot_connect(django_user_model):
    await room(django_user_model)
    ws = WebsocketCommunicator(application, "/ws/games/not-a-game-id/", headers=list(HOST))
    connected, code = await ws.connect()
    # 4404: no such game, the close static/js/game.js says so on and does not retry after.
    assert (connected, code) == (False, 4404)


async def test_someone_not_seated_cannot_act(django_user_model):
    game, host, guest, nosy = await room(django_user_model)
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    watch_ws = await connect(game.pk, await database_sync_to_async(session_for)(nosy, "key-n"))
    await drain(watch_ws)
    await watch_ws.send_to(text_data=json.dumps({"action": "roll", "version": game.version}))
    toast = await watch_ws.receive_from(timeout=3)
    assert "watching" in toast
    await watch_ws.send_to(text_data="not json")
    assert "Bad request" in await watch_ws.receive_from(timeout=3)
    assert (await database_sync_to_async(fresh)(game)).version == game.version
    for ws in (host_ws, guest_ws, watch_ws):
        await ws.disconnect()


async def test_an_absent_player_is_waited_for_and_shown_as_away(django_user_model, monkeypatch):
    game, host, guest, _nosy = await room(django_user_model)
    # Half a minute after joining (which counts as a request), the guest has not opened the page.
    later = presence._now() + presence.REQUEST_SECONDS + 1
    monkeypatch.setattr(presence, "_now", lambda: later)
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    html = await latest(host_ws)
    assert 'data-testid="waiting"' in html and "guesto" in html
    assert 'data-testid="conn-1">away' in html.replace("\n", "")
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    html = await latest(host_ws)  # the guest is here now
    assert 'data-testid="waiting"' not in html
    await guest_ws.disconnect()
    # Away once the grace of a closed page is over, pushed by the task the close queued.
    monkeypatch.setattr(presence, "_now", lambda: later + presence.closed_grace() + 1)
    await database_sync_to_async(broadcast.presence_lapsed)(game.pk)
    html = await latest(host_ws)
    assert 'data-testid="waiting"' in html
    seat = await database_sync_to_async(lambda: Game.objects.get(pk=game.pk).seats.get(index=1))()
    assert seat.last_seen is not None
    await host_ws.disconnect()


async def test_a_guest_who_joins_on_the_open_page_counts_as_connected(django_user_model):
    @database_sync_to_async
    def open_room():
        host = django_user_model.objects.create_user("hostess")
        guest = django_user_model.objects.create_user("guesto")
        return friends_room(member(host), start=False), host, guest

    game, _host, guest = await open_room()
    ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    await drain(ws)
    seat = await database_sync_to_async(actions.do_join)(game.pk, member(guest))
    await board_at(ws, (await database_sync_to_async(fresh)(game)).version)
    assert seat.pk in await database_sync_to_async(presence.connected_seats)(game.pk)
    await ws.disconnect()
