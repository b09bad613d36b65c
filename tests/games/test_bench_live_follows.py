"""bench/live.py plays its games from what the sockets push, as a page does: since the site pushes only
the regions that changed, each page's board is a model (bench/board_model.py) that a push from the
version it shows updates, and a push from another version (a missed one) makes it ask for the whole
board. Here the bench's own pages follow the site's real pushes and play on from them alone."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async

from games.live.fragments import DELTA_START, REGIONS
from tests.games.test_consumers import connect, fixed_seeds, room, session_for  # noqa: F401
from tests.games.webplay import fresh

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def bench_live():
    path = Path(__file__).resolve().parents[2] / "bench" / "live.py"
    spec = importlib.util.spec_from_file_location("bench_live", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_live"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class Socket:
    """A test socket as the bench's viewers use theirs (websockets' `send`), keeping what they sent."""

    def __init__(self, communicator) -> None:
        self.communicator, self.sent = communicator, []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))
        await self.communicator.send_to(text_data=text)

    async def receive(self) -> str:
        return await self.communicator.receive_from(timeout=5)


async def bench_game(live, django_user_model):
    """The bench's game of two seats and a spectator, each page's socket open with its first board."""
    game, host, guest, nosy = await room(django_user_model)
    faults: list[str] = []
    bench = SimpleNamespace(window=None, fault=lambda kind, _game=None: faults.append(kind))
    people = []
    for user, key in ((host, "key-h"), (guest, "key-g"), (nosy, "key-n")):
        session = await database_sync_to_async(session_for)(user, key)
        people.append(live.Person(user.get_username(), user.pk, session, key))
    played = live.LiveGame(bench, str(game.pk), people, [0, 0, 0])
    for viewer in played.viewers:
        communicator = await connect(game.pk, viewer.person.session)
        viewer.ws = Socket(communicator)
        for frame in communicator.pending:  # the socket's name and the board its resync brought
            viewer.seen(frame, pushed=True)
    return game, played, faults


async def until_past(viewer, version: int) -> None:
    """The viewer's frames, as the bench's reader takes them, until its page shows a later version."""
    while viewer.version <= version:
        await viewer.take(await viewer.ws.receive(), pushed=True)


async def close(played) -> None:
    for viewer in played.viewers:
        await viewer.ws.communicator.disconnect()


async def act(played) -> tuple[str, int]:
    """The bench's next action, picked from its pages' models and sent over the mover's socket (as
    `--via ws` does); the action's name and the version it was taken at."""
    chosen = played.next_action()
    assert chosen is not None, "the bench's pages offer no action where the game awaits one"
    seat, name, values = chosen
    await seat.ws.send(json.dumps({"action": name, **values}))
    return name, values["version"]


async def test_the_bench_plays_on_from_the_region_pushes_alone(django_user_model):
    live = bench_live()
    game, played, faults = await bench_game(live, django_user_model)
    names: list[str] = []
    while names.count("move") < 2 and len(names) < 80:  # rolls until sixes bring tokens out
        name, version = await act(played)
        names.append(name)
        for viewer in played.viewers:
            await until_past(viewer, version)
    assert not faults  # every action the models offered was taken, none refused
    assert {"roll", "move"} <= set(names)
    newest = (await database_sync_to_async(fresh)(game)).version
    for viewer in played.viewers:
        model = viewer.model
        assert viewer.version == newest
        assert model.wholes == 1 and model.gaps == 0  # the first board alone came whole
        assert model.pushes >= len(names)
        assert model.regions_swapped < model.pushes * len(REGIONS)  # pushes carry some regions only
        assert set(model.regions) == set(REGIONS)
    await close(played)


async def test_a_bench_page_that_missed_a_push_asks_for_the_whole_board_and_plays_on(
    django_user_model,
):
    live = bench_live()
    game, played, faults = await bench_game(live, django_user_model)
    host, guest, spectator = played.viewers
    dropped = False
    for _ in range(12):
        _name, version = await act(played)
        for viewer in (host, spectator):
            await until_past(viewer, version)
        if not dropped and host.offer is not None:
            # The guest's page misses the push of this action (the host plays next, from it).
            while not dropped:
                frame = await guest.ws.receive()
                moved = live.VERSION_RE.search(frame[:1500])
                dropped = frame.startswith(DELTA_START) and int(moved.group(1)) > version
            continue
        await until_past(guest, version)
    assert dropped and not faults
    assert guest.ws.sent.count({"resync": -1}) == 1  # once, as the page asks after a gap
    assert guest.model.gaps >= 1 and guest.model.wholes == 2
    assert host.ws.sent.count({"resync": -1}) == 0 and host.model.wholes == 1
    newest = (await database_sync_to_async(fresh)(game)).version
    assert [v.version for v in played.viewers] == [newest] * 3
    await close(played)
