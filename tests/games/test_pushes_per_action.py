"""What one action costs the live pages, counted through the real Redis channel layer: the whole board is
rendered at most once per action however many sockets show the game (the mover's POST answer; a push
carries only the regions that changed), presence is read once per action, and a page kept from the
pushes alone (bench/board_model.py, as static/js/game.js keeps it) shows region for region what a
fresh render shows."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.test.signals import template_rendered

from games.core import caches, selectors
from games.core.actors import Actor
from games.live.fragments import REGIONS, live_board
from games.live.viewpoint import viewpoint_for
from tests.games.test_consumers import connect, drain, fixed_seeds, room, session_for  # noqa: F401
from tests.games.webplay import fresh, turn_seat
from tests.redis_round_trips import RoundTrips

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HTMX = {"HTTP_HX_REQUEST": "true"}


def board_model():
    path = Path(__file__).resolve().parents[2] / "bench" / "board_model.py"
    spec = importlib.util.spec_from_file_location("bench_board_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_board_model"] = module
    spec.loader.exec_module(module)
    return module


class Renders:
    """Templates rendered meanwhile, by name, in every thread (the sockets' too)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __call__(self, sender, template, **kwargs) -> None:
        self.names.append(template.name)

    def whole(self) -> int:
        return self.names.count("games/_live.html")

    def regions(self) -> int:
        return sum(1 for n in self.names if n.startswith("games/live/_"))

    def __enter__(self) -> Renders:
        template_rendered.connect(self)
        return self

    def __exit__(self, *exc) -> None:
        template_rendered.disconnect(self)


class Page:
    """A page: its socket, and the board it shows, kept from what the socket and its POSTs bring."""

    def __init__(self, ws, model) -> None:
        self.ws, self.model = ws, model
        self.frames = 0

    async def take(self, version: int, timeout: float = 5.0) -> None:
        """Frames until the page shows `version` (a gap asks for the whole board, as the page does)."""
        while self.model.version < version:
            frame = await self.ws.receive_from(timeout=timeout)
            self.frames += 1
            if self.model.apply(frame) == "gap":
                await self.ws.send_to(text_data=json.dumps({"resync": -1}))

    async def quiet(self) -> None:
        while not await self.ws.receive_nothing(timeout=0.3):
            frame = await self.ws.receive_from()
            self.frames += 1
            if self.model.apply(frame) == "gap":
                await self.ws.send_to(text_data=json.dumps({"resync": -1}))


async def pages_of(game, people: list[tuple[object, str]], model, app=None) -> list[Page]:
    """Each person's page, opened showing no board: the socket's resync brings it whole (`app`: the
    socket routes, if not the site's own)."""
    pages = []
    for user, key in people:
        session = await database_sync_to_async(session_for)(user, key)
        ws = await (connect(game.pk, session, app=app) if app else connect(game.pk, session))
        page = Page(ws, model.BoardModel())
        for frame in ws.pending:
            page.model.apply(frame)
        ws.pending = []
        pages.append(page)
    for page in pages:
        await page.quiet()
    return pages


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _fresh_regions(game_id: str, user, key: str) -> dict[str, str]:
    caches.clear_all()  # rendered afresh, nothing taken from what the pushes were made of
    game, seats = selectors.game_and_seats(game_id)
    actor = Actor(user.pk, key, user.get_username())
    board = live_board(game, viewpoint_for(game, seats, actor), seats=seats)
    return dict(board.regions)


def _as_shown(region: str) -> str:
    """A region as the page holds it: without the push's swap marker, with the ground it kept."""
    region = region.replace(' hx-swap-oob="morph"', "", 1)
    kept = re.search(
        r'<g id="board-ground" data-ground="([0-9a-f]+)" hx-preserve="true"></g>', region
    )
    if kept:
        region = region.replace(kept.group(0), caches.GROUNDS[kept.group(1)], 1)
    return region


async def test_an_action_renders_the_whole_board_once_however_many_pages_and_reads_presence_once(
    django_user_model,
):
    model = board_model()
    game, host, guest, nosy = await room(django_user_model)
    watchers = [
        await database_sync_to_async(django_user_model.objects.create_user)(f"watcher{n}")
        for n in range(3)
    ]
    people = [(host, "key-h"), (guest, "key-g"), (nosy, "key-n")]
    people += [(w, f"key-w{n}") for n, w in enumerate(watchers)]
    pages = await pages_of(game, people, model)
    browsers = {
        host.pk: await database_sync_to_async(_browser)(host),
        guest.pk: await database_sync_to_async(_browser)(guest),
    }
    for _ in range(6):  # rolls and moves by POST, each from the page of the seat to play
        game = await database_sync_to_async(fresh)(game)
        seat = await database_sync_to_async(turn_seat)(game)
        mover = host if seat.user_id == host.pk else guest
        page = pages[0] if mover is host else pages[1]
        name, values = page.model.actions()[0]
        with Renders() as renders, RoundTrips() as trips:
            answer = await database_sync_to_async(browsers[mover.pk].post)(
                f"/games/{game.pk}/{name}", values, **HTMX
            )
            assert answer.status_code == 200
            page.model.apply(answer.content.decode())  # the mover's page: the POST's answer
            for other in pages:
                await other.take(values["version"] + 1)
        assert renders.whole() == 1, renders.names  # the mover's answer, nothing else
        assert renders.regions() < 3 * (len(REGIONS) + 1)  # the rest is regions, once each mostly
        # The action's one read of presence (in its rate limit's round trip to Redis), taken again
        # by its push and its answer.
        assert trips.all().count("ZRANGEBYSCORE") == 1, trips.commands

    # An action sent over the socket: no whole board at all.
    game = await database_sync_to_async(fresh)(game)
    seat = await database_sync_to_async(turn_seat)(game)
    page = pages[0] if seat.user_id == host.pk else pages[1]
    name, values = page.model.actions()[0]
    with Renders() as renders:
        await page.ws.send_to(text_data=json.dumps({"action": name, **values}))
        for other in pages:
            await other.take(values["version"] + 1)
    assert renders.whole() == 0, renders.names
    for page in pages:
        await page.ws.disconnect()


async def test_pages_kept_from_the_pushes_show_region_for_region_what_a_fresh_render_shows(
    django_user_model,
):
    model = board_model()
    game, host, guest, nosy = await room(django_user_model)
    people = [(host, "key-h"), (guest, "key-g"), (nosy, "key-n")]
    pages = await pages_of(game, people, model)
    for _ in range(10):  # over the sockets: every page's board comes by pushes alone
        game = await database_sync_to_async(fresh)(game)
        seat = await database_sync_to_async(turn_seat)(game)
        page = pages[0] if seat.user_id == host.pk else pages[1]
        name, values = page.model.actions()[0]
        await page.ws.send_to(text_data=json.dumps({"action": name, **values}))
        for other in pages:
            await other.take(values["version"] + 1)
    version = (await database_sync_to_async(fresh)(game)).version
    for page, (user, key) in zip(pages, people, strict=True):
        await page.quiet()
        assert page.model.version == version
        assert page.model.wholes == 1 and page.model.pushes >= 10  # the first board only was whole
        regions = {name: _as_shown(html) for name, html in page.model.regions.items()}
        fresh_regions = await database_sync_to_async(_fresh_regions)(game.pk, user, key)
        assert regions == fresh_regions, user.username
    for page in pages:
        await page.ws.disconnect()
