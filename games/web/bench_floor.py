"""The floor of bench/live.py: the cheapest action the stack allows, to measure a real one against.

Imported only with LUDOPAT_BENCH_FLOOR=1 in the environment (settings.BENCH_FLOOR): this module is then
the URLconf (ROOT_URLCONF) and the socket routes (ludopat/asgi.py), the site's own plus the floor's, and
games.apps starts the counts below. Without it nothing of the site names the floor, and both URLs are a
plain 404, as any missing page. A POST to /games/<id>/bench-floor goes through the same middleware and the
same action rate limit as a roll or a move, then does what every action must and nothing more: one read
of the game and its seats, the asker check (they hold a seat), the game row locked with
`SELECT ... FOR UPDATE`, one Action row, the version bumped, the commit, and on commit one push to the
game's group. The game's sockets (FloorGameConsumer) forward that push without rendering: a frame of `size` characters (the bench
asks for the median size of the real action's pushes), built from the version and the size alone.

The socket floor (`bench/live.py --via ws`): a frame `{"action": "bench-floor", "size": N}` on the game's
socket goes the way every frame of an action goes in GameConsumer.receive (the frame budget, the JSON
parse, the presence touch of a seated page, the action rate limit), then does the same read, check and
`act` as the POST; the push reaches every socket, the actor's too, as a socket action's board does.

GET /games/bench-floor/counts answers this process's database queries, Redis round trips and full-board
renders (the template games/_live.html) so far, counted from the process's start (`count_round_trips`,
from games.apps): the bench reads every web process's before and after a window, and divides by the
actions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django import forms
from django.db import transaction
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path

from ludopat import push, throttle
from ludopat.client_json import BadJson, parse_frame
from ludopat.frame_limit import ABUSE_CLOSE_CODE
from ludopat.routing import websocket_urlpatterns as site_sockets
from ludopat.urls import urlpatterns as site_urls
from ludopat.worker_threads import db_call

from ..actions.core import lock_game
from ..core import presence, selectors
from ..core.actors import actor_for, seats_of
from ..core.broadcast import group_name
from ..models import Action
from .consumers import GameConsumer

MIN_SIZE, MAX_SIZE = 64, 1_000_000  # characters of a floor frame


def _plain(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def floor_frame(version: int, size: int) -> str:
    """What a page receives for a floor push: the board's outer tag (the bench reads the version in it;
    `data-floor` tells it the board itself is unchanged) padded to `size` characters."""
    head = f'<div id="game-live" data-version="{version}" data-floor="1">'
    tail = "</div>"
    return head + "x" * max(0, size - len(head) - len(tail)) + tail


class FloorForm(forms.Form):
    """The floor POST's one field: the frame's size in characters (clamped; anything else: the least)."""

    size = forms.IntegerField(required=False)

    def frame_size(self) -> int:
        size = (self.cleaned_data.get("size") or MIN_SIZE) if self.is_valid() else MIN_SIZE
        return min(max(size, MIN_SIZE), MAX_SIZE)


def act(*, game_id: str, seat_id: int, size: int, skip: str) -> int:
    """Lock, record, bump, commit, push: the new version."""
    with transaction.atomic():
        game = lock_game(game_id)
        game.version += 1
        Action.objects.create(
            game=game, round=game.round, seq=game.version, seat_id=seat_id,
            kind=Action.Kind.BACK, text="bench floor",
        )  # fmt: skip
        game.save(update_fields=["version"])
        version = game.version
        transaction.on_commit(lambda: pushed(game_id, version, size, skip))
    return version


def pushed(game_id: str, version: int, size: int, skip: str = "") -> None:
    """The floor action made `version`: every viewer's socket forwards a frame of `size` characters
    without rendering (`skip`: the socket whose page has it)."""
    event = {"type": "game.floor", "version": version, "size": size, "skip": skip}
    push.send(group_name(game_id), event, about=f"game {game_id}")


FLOOR_ACTION = "bench-floor"


class FloorGameConsumer(GameConsumer):
    """The game's socket, which also forwards the floor's pushes (no database, no rendering) and takes
    the socket floor's frames."""

    async def game_floor(self, event: dict[str, Any]) -> None:
        version = int(event["version"])
        # The page shows this version now (this frame, or the POST's answer), its board unchanged:
        # the real action's next push moves from it, as the page expects, with no resync.
        self.sent_version = max(self.sent_version, version)
        if event.get("skip") != self.channel_name:
            await self.send(text_data=floor_frame(version, int(event["size"])))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or FLOOR_ACTION not in text_data[:200]:
            await super().receive(text_data, bytes_data)  # the site's own frames
            return
        # What GameConsumer.receive does for every action's frame before the command runs.
        if not self.frames.take():
            await self.close(code=ABUSE_CLOSE_CODE)
            return
        try:
            frame = parse_frame(text_data)
        except BadJson:
            return
        if frame.action != FLOOR_ACTION:
            await super().receive(text_data, bytes_data)
            return
        if self.seat_ids:
            await db_call(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
        asker = throttle.asker_for_scope(self.scope, self.actor.key, self.actor.user_id)
        if not await db_call(throttle.allow_action)(self.game_id, asker):
            return
        form = FloorForm(dict(frame.fields))
        await db_call(socket_floor)(self.game_id, self.actor, form.frame_size())


def socket_floor(game_id: str, actor: Any, size: int) -> int | None:
    """The socket floor's action: the POST's read, check and `act`; its push reaches every socket."""
    game, seats = selectors.game_and_seats(game_id)
    mine = seats_of(game, seats, actor) if game is not None else []
    if not mine:
        return None
    return act(game_id=game_id, seat_id=mine[0].pk, size=size, skip="")


def floor(request: HttpRequest, game_id: str) -> HttpResponse:
    if request.method != "POST":
        return _plain("Use POST.", 405)
    actor = actor_for(request.user, request.session)
    if not throttle.allow_action(game_id, throttle.asker_for_request(request, actor.key)):
        return _plain("Too many actions at once: wait a moment and try again.", 429)
    game, seats = selectors.game_and_seats(game_id)
    if game is None:
        return _plain("There is no game at this address.", 404)
    mine = seats_of(game, seats, actor)
    if not mine:
        return _plain("Only a player of this game can do that.", 403)
    size = FloorForm(request.POST).frame_size()
    socket = request.headers.get("X-Live-Socket", "")[:200]
    version = act(game_id=game_id, seat_id=mine[0].pk, size=size, skip=socket)
    return HttpResponse(floor_frame(version, size))  # the actor's page has it: its socket skips it


# --- what a window cost: queries, Redis round trips and full-board renders of this process --------------

FULL_BOARD = "games/_live.html"  # the template of the whole board: each render of it is one
_counts = {"queries": 0, "redis_round_trips": 0, "full_board_renders": 0}
_lock = threading.Lock()


def _count(name: str, times: int = 1) -> None:
    with _lock:
        _counts[name] += times


# What ludopat.compiled_reads.read_both puts between the statements it sends as one query (written out:
# a --before tree runs this module and may not have it).
STATEMENTS_APART = ";\n"


def _count_query(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
) -> Any:
    _count("queries", 1 + sql.count(STATEMENTS_APART))  # statements, however many a query holds
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    # A connection object may be opened again (each request of a thread takes one from the pool):
    # counted once all the same.
    if _count_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count_query)


def count_round_trips() -> None:
    """From now on count every SQL statement this process sends (each connection's execute wrapper),
    every write of one command or one pipeline to Redis (redis-py's `send_packed_command`, sync for the
    cache and Celery's client, async for the channel layer): a write is one round trip; and every
    render of the full board's template (Django's Template.render, which `render_to_string` and
    `{% include %}` both reach)."""
    import redis.asyncio.connection as async_connection
    import redis.connection as sync_connection
    from django.template import base as template_base

    connection_created.connect(_on_connection, weak=False)
    render = template_base.Template.render

    def render_counted(self: Any, context: Any) -> Any:
        if self.name == FULL_BOARD:
            _count("full_board_renders")
        return render(self, context)

    template_base.Template.render = render_counted  # type: ignore[method-assign]
    sync_send = sync_connection.AbstractConnection.send_packed_command
    async_send = async_connection.AbstractConnection.send_packed_command

    def send(self: Any, *args: Any, **kwargs: Any) -> None:
        _count("redis_round_trips")
        sync_send(self, *args, **kwargs)

    async def send_async(self: Any, *args: Any, **kwargs: Any) -> None:
        _count("redis_round_trips")
        await async_send(self, *args, **kwargs)

    sync_connection.AbstractConnection.send_packed_command = send  # type: ignore[method-assign]
    async_connection.AbstractConnection.send_packed_command = send_async  # type: ignore[method-assign]


def counts(request: HttpRequest) -> HttpResponse:
    with _lock:
        return JsonResponse(dict(_counts))


# --- the site's URLs and socket routes, with the floor's ----------------------------------------------

urlpatterns = [
    path("games/<gameid:game_id>/bench-floor", floor, name="game_bench_floor"),
    path("games/bench-floor/counts", counts, name="bench_floor_counts"),
    *site_urls,
]
websocket_urlpatterns = [  # the floor's game route first: it wins over the site's
    path("ws/games/<gameid:game_id>/", FloorGameConsumer.as_asgi()),
    *site_sockets,
]
