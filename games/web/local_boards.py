"""The boards of this process's game sockets, rendered once per version for all of them.

A new version's push reaches every socket of the game; each sends its page the regions of its board
that changed, taken from the process's cache (games.live.fragments.shared_board) when they were
rendered under the push's stamp for its viewpoint, else rendered by itself in a pool thread: one
thread hop, one copy of the rows and one pass over the board's regions per socket. Here the sockets
of each game in this process are known (`watch`), so their boards are rendered once per version:

- in the process that made the version, by the thread that committed it, just before the push goes
  out (games.core.broadcast's before-push handlers): it holds the version's objects already (a
  turn's, games.core.caches.committed_rows; else the rows kept or read once), and the sockets then
  send their regions from the event loop;
- in any other process, by the first of the game's sockets the push reaches, in one pool thread
  that the others wait for (`rendered`).

Each socket's viewpoint is worked out afresh from its actor at every version: a socket whose
viewpoint changed (a ban, a seat given up) finds no board under its old one and renders its own.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from typing import Any, Protocol

from ludopat.worker_threads import db_call

from ..core import caches, selectors
from ..core.actors import Actor
from ..live.fragments import live_boards
from ..live.viewpoint import viewpoint_for
from ..models import Game

log = logging.getLogger(__name__)


class Watcher(Protocol):
    actor: Actor


_lock = threading.Lock()  # the sockets are added in the event loop, read by the threads that act
_watchers: dict[str, weakref.WeakSet[Any]] = {}


def watch(game_id: str, socket: Watcher) -> None:
    """`socket` (a consumer, held weakly) shows `game_id` in this process from now on."""
    with _lock:
        _watchers.setdefault(game_id, weakref.WeakSet()).add(socket)


def forget(game_id: str, socket: Watcher) -> None:
    with _lock:
        found = _watchers.get(game_id)
        if found is not None:
            found.discard(socket)
            if not found:
                del _watchers[game_id]


def actors_watching(game_id: str) -> list[Actor]:
    with _lock:
        found = _watchers.get(game_id)
        if found is not None and not found:  # its sockets were collected without a disconnect
            del _watchers[game_id]
        return [socket.actor for socket in list(found)] if found else []


def render_boards(game_id: str, version: int, connected: frozenset[int]) -> None:
    """Render, at `version` with the seats `connected`, the board of every viewpoint this process's
    sockets of the game have (each region kept under the stamp the push carries)."""
    actors = actors_watching(game_id)
    if not actors:
        return
    # The acting thread's own objects (a turn's), else built from the rows kept or read.
    rows = caches.committed_rows((game_id, version)) or selectors.game_and_seats_at(
        game_id, version
    )
    game, seats = rows
    # A room still open changes its seats: its sockets work out their boards afresh (the consumer's).
    if game is None or game.version != version or game.status == Game.Status.OPEN:
        return
    vps = {vp.key: vp for vp in (viewpoint_for(game, seats, actor) for actor in actors)}
    live_boards(game, list(vps.values()), seats=seats, connected=connected)


_pending: dict[tuple[str, str], asyncio.Future[None]] = {}  # (game, stamp): the render under way


async def rendered(game_id: str, event: dict[str, Any]) -> None:
    """The boards of this process's sockets at the push `event`'s version, rendered by one pool
    thread however many sockets ask (a process that did not make the version)."""
    tag, version, here = event.get("tag"), event.get("version"), event.get("here")
    if not isinstance(tag, str) or not isinstance(version, int) or not isinstance(here, list):
        return
    key = (game_id, tag)
    task = _pending.get(key)
    if task is None:
        task = asyncio.ensure_future(db_call(_render_or_log)(game_id, version, frozenset(here)))
        _pending[key] = task
        task.add_done_callback(lambda _: _pending.pop(key, None))
    await asyncio.shield(task)


def _render_or_log(game_id: str, version: int, connected: frozenset[int]) -> None:
    try:
        render_boards(game_id, version, connected)
    except Exception:  # each socket renders its own board then
        log.exception("could not render the boards of game %s version %s", game_id, version)
