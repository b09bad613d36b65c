"""A closed page is a definite signal: the seat shows as away 5 s after its last
socket closes, unless one reconnects, and the opponent's page is pushed the change; the 30 s a request
counts for is for players without a socket. A guest who just joined is never shown away."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.core import presence
from ludopat.celery import app
from tests.games.test_consumers import (
    HOST,  # noqa: F401  (the same origin and host headers)
    board_at,
    connect,
    drain,
    fixed_seeds,  # noqa: F401  (autouse: seeds, no computer, a fresh channel layer)
    latest,
    room,
    session_for,
)
from tests.games.webplay import fresh, friends_room, member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HTMX = {"HTTP_HX_REQUEST": "true"}


def conn(html: str, index: int) -> str:
    """What a seat's card says about its player: "online" or "away"."""
    flat = html.replace("\n", "")
    marker = f'data-testid="conn-{index}">'
    return flat.split(marker, 1)[1].split("<", 1)[0]


@pytest.fixture
def queued(monkeypatch):
    """Tasks the site queues, kept here (no worker runs in these tests): (name, args, options)."""
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args=(), **kw: sent.append((name, args, kw)))
    return sent


def run_due(queued, seconds: float) -> None:
    """Run the queued tasks due within `seconds`, as a worker would then."""
    import games.tasks  # noqa: F401  (registers the tasks with the app)

    for name, args, options in list(queued):
        if options.get("countdown", 0) <= seconds and name.startswith("games.tasks.presence"):
            app.tasks[name](*args)


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def test_a_closed_page_shows_away_to_the_opponent_five_seconds_later(
    django_user_model, monkeypatch, queued
):
    game, host, guest, _ = await room(django_user_model)
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    # The guest's page also fetched the board by plain HTTP (as a POST would): present by request too.
    guest_browser = await database_sync_to_async(browser)(guest)
    await database_sync_to_async(guest_browser.get)(f"/games/{game.pk}/live", **HTMX)
    await drain(host_ws)

    # A reload: the socket closes and another opens within the 5 s: never shown away.
    await guest_ws.disconnect()
    guest_ws = await connect(game.pk, await database_sync_to_async(session_for)(guest, "key-g"))
    # Nothing the host's page shows changed: no push at all, or one that shows the guest online.
    pushed = []
    while not await host_ws.receive_nothing(timeout=0.5):
        pushed.append(await host_ws.receive_from())
    assert all(conn(m, 1) == "online" for m in pushed if 'data-testid="conn-1"' in m)

    # The page is closed for good: still online for the 5 s a reload takes, then away.
    await guest_ws.disconnect()
    await drain(host_ws)
    host_browser = await database_sync_to_async(browser)(host)
    page = await database_sync_to_async(host_browser.get)(f"/games/{game.pk}/live", **HTMX)
    assert conn(page.content.decode(), 1) == "online"
    later = presence._now() + 6
    monkeypatch.setattr(presence, "_now", lambda: later)
    page = await database_sync_to_async(host_browser.get)(f"/games/{game.pk}/live", **HTMX)
    assert conn(page.content.decode(), 1) == "away"
    await database_sync_to_async(run_due)(queued, 6)
    assert conn(await latest(host_ws), 1) == "away"  # pushed, without a reload
    await host_ws.disconnect()


async def test_a_guest_who_just_joined_is_never_shown_away_to_the_host(django_user_model):
    @database_sync_to_async
    def open_room():
        host = django_user_model.objects.create_user("hostess")
        guest = django_user_model.objects.create_user("guesto")
        return friends_room(member(host), start=False), host, guest

    game, host, guest = await open_room()
    host_ws = await connect(game.pk, await database_sync_to_async(session_for)(host, "key-h"))
    await drain(host_ws)
    guest_browser = await database_sync_to_async(browser)(guest)
    joined = await database_sync_to_async(guest_browser.post)(f"/games/{game.pk}/join", **HTMX)
    assert joined.status_code == 200
    version = (await database_sync_to_async(fresh)(game)).version
    assert conn(await board_at(host_ws, version), 1) == "online"
    await host_ws.disconnect()
