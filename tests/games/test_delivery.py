"""One delivery per version per page, and a fixed cost per action and per viewer.

A page gets its board once on load (the server render; the socket sends one only if the page says it
shows an older version), and the board an htmx POST answers with never also arrives on that page's
socket. Pushes carry what connections need to share one rendering per viewpoint, so a viewer's update
costs no database query when a connection with the same viewpoint rendered it already.
"""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from tests.games.test_consumers import connect, drain, fixed_seeds, room, session_for  # noqa: F401
from tests.games.webplay import fresh

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def version_in(html: str) -> int | None:
    found = re.search(r'id="game-live"[^>]*data-version="(\d+)"', html) or re.search(
        r'data-version="(\d+)"[^>]*', html if 'id="game-live"' in html else ""
    )
    return int(found.group(1)) if found else None


async def boards(ws) -> list[int]:
    """The versions of the boards that arrive now: whole boards and pushes that move a page to a
    version, not the pushes of who is here, which move none (their `data-from` is their version)."""
    seen = []
    while not await ws.receive_nothing(timeout=0.4):
        html = await ws.receive_from()
        if 'id="game-live"' in html and not same_version(html):
            seen.append(version_in(html))
    return seen


def same_version(html: str) -> bool:
    moves = re.search(r'<div id="game-live"[^>]*data-from="(\d+)"[^>]*data-version="(\d+)"', html)
    return moves is not None and moves.group(1) == moves.group(2)


async def socket_name(ws) -> str:
    html = await ws.receive_from(timeout=3)
    return re.search(r'data-channel="([^"]+)"', html).group(1)


async def test_a_page_load_gets_the_board_once(django_user_model):
    game, host, _guest, _nosy = await room(django_user_model)
    session = await database_sync_to_async(session_for)(host, "key-h")
    # The page was served at game.version and says so when its socket opens: nothing more comes.
    ws = await connect(game.pk, session, have=game.version)
    assert await boards(ws) == []
    # A page that shows an older version (it slept) gets the current board, once.
    await ws.send_to(text_data=json.dumps({"resync": game.version - 1}))
    assert await boards(ws) == [game.version]
    # A page that claims a version the game hasn't reached gets the real board, not silence.
    await ws.send_to(text_data=json.dumps({"resync": game.version + 50}))
    assert await boards(ws) == [game.version]
    await ws.disconnect()


async def test_the_movers_post_answer_and_push_never_both_carry_a_version(django_user_model):
    game, host, guest, _nosy = await room(django_user_model)
    host_session = await database_sync_to_async(session_for)(host, "key-h")
    host_ws = await connect(game.pk, host_session, have=game.version)
    guest_ws = await connect(
        game.pk, await database_sync_to_async(session_for)(guest, "key-g"), have=game.version
    )
    name = await socket_name(host_ws)
    await drain(host_ws)
    await drain(guest_ws)

    client = Client()
    client.cookies["sessionid"] = host_session
    response = await database_sync_to_async(client.post)(
        f"/games/{game.pk}/roll",
        {"version": game.version},
        HTTP_HX_REQUEST="true",
        HTTP_X_LIVE_SOCKET=name,
    )
    assert response.status_code == 200
    rolled = (await database_sync_to_async(fresh)(game)).version
    assert version_in(response.content.decode()) == rolled  # the answer carries the board
    assert await boards(host_ws) == []  # ... so the mover's socket doesn't
    assert await boards(guest_ws) == [rolled]  # the other player gets it once
    await host_ws.disconnect()
    await guest_ws.disconnect()


async def test_a_presence_push_between_the_movers_commit_and_its_push_sends_no_version_again(
    django_user_model, monkeypatch
):
    """Someone's arrival pushed just after the mover's roll committed, before the roll's own push: the
    mover's socket must not send the new version (the POST's answer has it; the page would see a gap
    and ask for the whole board). Run alone, the guest's own arrival used to land there."""
    from games.core import broadcast

    game, host, guest, _nosy = await room(django_user_model)
    host_session = await database_sync_to_async(session_for)(host, "key-h")
    host_ws = await connect(game.pk, host_session, have=game.version)
    guest_ws = await connect(
        game.pk, await database_sync_to_async(session_for)(guest, "key-g"), have=game.version
    )
    name = await socket_name(host_ws)
    await drain(host_ws)
    await drain(guest_ws)

    board_changed = broadcast.board_changed

    def presence_first(*args, **kwargs):
        broadcast._send(game.pk, broadcast.presence_event())
        return board_changed(*args, **kwargs)

    monkeypatch.setattr(broadcast, "board_changed", presence_first)
    client = Client()
    client.cookies["sessionid"] = host_session
    response = await database_sync_to_async(client.post)(
        f"/games/{game.pk}/roll",
        {"version": game.version},
        HTTP_HX_REQUEST="true",
        HTTP_X_LIVE_SOCKET=name,
    )
    assert response.status_code == 200
    rolled = (await database_sync_to_async(fresh)(game)).version
    assert await boards(host_ws) == []
    assert await boards(guest_ws) == [rolled]
    await host_ws.disconnect()
    await guest_ws.disconnect()
