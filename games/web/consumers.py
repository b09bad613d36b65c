"""The game's WebSocket: one consumer per open page, in the game's group.

On every `game.update` it sends its viewer the regions of its board that changed since what it last
sent the page (games.live.fragments.delta: the regions rendered once per version, process and variant
of the viewpoint, shared through the cache), with the version they move from; a page that shows
another version asks for the whole board. On connect, and whenever the client asks
(`{"resync": <version>}`), it sends the whole board if the page is behind, so a client that missed
versions catches up. Actions sent with htmx's `ws-send` go through the same `commands.run` as the POST
views, reading presence once (games.core.presence.read_once).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from redis.exceptions import RedisError

from accounts.social.reads import hides_lines_of
from accounts.users.banned_sessions import banned_account_of
from accounts.users.sockets import ClosedOnBan, join_user_group, leave_user_group
from ludopat import metrics, throttle
from ludopat.client_json import BadJson, parse_frame
from ludopat.frame_limit import ABUSE_CLOSE_CODE, new_bucket
from ludopat.refusals import Refusal
from ludopat.worker_threads import db_call

from .. import actions
from ..core import actors, broadcast, presence, selectors
from ..core.broadcast import group_name
from ..core.errors import Banned
from ..live.fragments import (
    LiveBoard,
    delta,
    for_page_showing,
    ground_of,
    live_board,
    render_chat_hidden,
    render_chat_log,
    render_chat_message,
    render_socket_name,
    render_toast,
    shared_board,
)
from ..live.viewpoint import Viewpoint, viewpoint_for
from ..models import ChatMessage, Game
from ..staking.rematch import invited_seats
from . import commands, local_boards

REFUSED = 4404  # no such game: the page's link is wrong; the client must not retry
# Redis (the channel layer) is unreachable: "try again later" (HTTP's 503). An application may close
# only with 1000 or 3000-4999, so not with the standard 1013: static/js/game.js reconnects on this one
# after a growing delay, as htmx's ws extension does on network-type closes.
TRY_AGAIN_LATER = 4503

log = logging.getLogger(__name__)


class GameConsumer(ClosedOnBan, AsyncWebsocketConsumer):
    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[dict[str, Any]]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        """The consumer, with Redis unreachable at any point (joining the game's group in `connect`,
        or the layer's receive of this socket's channel, which runs from the first moment) closing the
        socket with TRY_AGAIN_LATER rather than failing the handshake with a 500: a socket outside the
        game's group would never be pushed a board, and one outside the account's would outlive a ban.
        """
        sent: set[str] = set()

        async def send_noting(message: dict[str, Any]) -> None:
            sent.add(message["type"])
            await send(message)

        try:
            await super().__call__(scope, receive, send_noting)
        except (OSError, RedisError) as error:
            game_id = scope.get("url_route", {}).get("kwargs", {}).get("game_id")
            log.warning(
                "channel layer unreachable (%s): socket of game %s told to retry", error, game_id
            )
            # With a sharded layer the shard that failed may be the account's while the game's group
            # lives on one still up: leave the groups before the close (the page may be back at once).
            await self._leave_groups()
            if "websocket.close" not in sent:
                if "websocket.accept" not in sent:
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})

    async def connect(self) -> None:
        self.frames = new_bucket()
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.seat_ids: list[int] = []
        self.sent_version = -1
        self.viewpoint: Viewpoint | None = None  # set by the first render; shared renders need it
        # The board's ground this socket last sent its page in full: later boards with the same ground
        # go without it (games.live.fragments.for_page_showing); a resync gets it again.
        self.ground_sent: str | None = None
        # What the page shows of each region of the board, as this socket sent it (LiveBoard.marks):
        # a push carries the regions that differ. Empty: unknown, every region goes.
        self.shown: dict[str, int] = {}
        # Seats are taken only while the room is open: once this page has seen the game past that,
        # who it is never changes, and updates need not ask the database again.
        self.seats_settled = False
        # A presence push met a version this socket had not sent (its page may have it from a POST's
        # answer): it waits for that version's own push, which then brings who is here.
        self.presence_due = False
        found = await self._identify()
        if not found:
            await self.close(code=REFUSED)
            return
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await join_user_group(self)  # a ban closes this page's connection at once
        await self.accept()
        metrics.OPEN_SOCKETS.inc()
        self.counted = True  # a join that failed on an unreachable shard never counted
        local_boards.watch(self.game_id, self)  # its board is rendered with the process's others
        if self.seat_ids:
            await db_call(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
            came_back = False
            for seat_id in self.seat_ids:
                came_back |= await db_call(actions.seat_connected)(self.game_id, seat_id)
            if not came_back:
                # Others' pages show this player as connected again.
                await broadcast.presence_changed(
                    self.channel_layer, self.game_id, skip=self.channel_name
                )
        # No board here: the page has the one it was served with and says which version that is
        # (`resync`), so a page load gets the board once. The page learns its socket's name, and its
        # POSTs name it, so the mover's own socket skips the version the POST answer carries.
        await self.send(text_data=render_socket_name(self.channel_name))

    @db_call
    def _identify(self) -> bool:
        game, seats = selectors.game_and_seats(self.game_id)
        if game is None:
            return False
        session = self.scope.get("session")
        user = self.scope.get("user")
        key = session.get(actors.PLAYER_KEY, "") if session is not None else ""
        if banned_account_of(session, user) is not None:
            key = ""  # a banned account's session: its browser key controls nothing any more
        # Read once: a ban committed later is caught under the game's lock by every action.
        if user is not None and user.is_authenticated:
            self.actor = actors.Actor(user.pk, key, user.get_username(), from_client=True)
        else:
            self.actor = actors.Actor(None, key, from_client=True)
        self.seats_settled = game.status != Game.Status.OPEN
        self.seat_ids = [s.pk for s in actors.seats_of(game, seats, self.actor)]
        if not self.seat_ids:  # the old opponent looking at a rematch offered to them
            self.seat_ids = invited_seats(game, seats, self.actor)
        if game.mode != Game.Mode.FRIENDS:
            self.seat_ids = []  # presence matters only where absent people are waited for
        return True

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):  # refused before it joined the game (and was counted)
            return
        if getattr(self, "counted", False):
            metrics.OPEN_SOCKETS.dec()
        local_boards.forget(self.game_id, self)
        # A group on an unreachable shard has lost this socket anyway; the presence below, on the
        # site's own Redis, must still be dropped (else the seat counts as here for 75 s more).
        await self._leave_groups()
        if self.seat_ids:
            gone = await db_call(presence.drop)(self.game_id, self.seat_ids, self.channel_name)
            if gone:
                await db_call(actions.seat_disconnected)(list(gone), self.game_id)
                await broadcast.presence_changed(self.channel_layer, self.game_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.frames.take():  # every frame costs a token, heartbeats and resyncs too
            await self.close(code=ABUSE_CLOSE_CODE)
            return
        try:
            frame = parse_frame(text_data)
        except BadJson as error:
            await self._send_error(str(error))
            return
        if self.seat_ids:
            await db_call(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
        if frame.heartbeat:
            await self._rejoin_groups()
            return
        if frame.resync is not None:
            await self._send_board(force=False, have=frame.resync)
            await self._send_chat_log()
            return
        if frame.action is None:
            await self._send_error("Bad request: say which action.")
            return
        asker = throttle.asker_for_scope(self.scope, self.actor.key, self.actor.user_id)
        here = presence.Reading(self.game_id)  # who is present: read with the rate limit
        allowed = await db_call(throttle.allow_action)(self.game_id, asker, also=here)
        if not allowed:
            await self._send_error("Too many actions at once: wait a moment and try again.")
            return
        try:
            with metrics.timing_action(frame.action, via="socket"):  # until its push
                await db_call(_run)(frame.action, self.game_id, self.actor, frame.fields, here)
        except Banned as error:
            # The ban's own close message did not reach this socket (lost, or it came before the
            # socket joined the account's group): the page is told why, then closed for good.
            await self.close_for_ban(str(error))
        except Refusal as error:  # the games' refusals, and the ledger's
            await self._send_error(str(error), board=error.status == 409)

    async def _rejoin_groups(self) -> None:
        """On every heartbeat (25 s) the socket joins its game's group and its account's again: a
        no-op while its process is subscribed to them. A lost subscription closes the socket at once
        (ludopat/channel_layer.py); should a group's subscription be gone anyway, joining subscribes
        again, or raises while its shard is unreachable, and the socket is closed with
        TRY_AGAIN_LATER instead of staying open with no pushes ever reaching it."""
        await self.channel_layer.group_add(self.group, self.channel_name)
        await join_user_group(self)

    async def _leave_groups(self) -> None:
        """Leave the game's group and the account's, as far as their shards can be reached."""
        leaving = [leave_user_group(self)]
        if hasattr(self, "group"):
            leaving.insert(0, self.channel_layer.group_discard(self.group, self.channel_name))
        for leave in leaving:
            try:
                await leave
            except (OSError, RedisError) as error:
                game_id = getattr(self, "game_id", None)
                log.warning("channel layer unreachable (%s): a socket of game %s could not leave a "
                            "group", error, game_id)  # fmt: skip

    async def close_for_ban(self, notice: str) -> None:
        """The page shows the game as to a watcher from now on (no "Your turn" beside a closed
        connection), with the reason in its toast too."""
        self.actor = actors.Actor(None, "")
        await self._send_board(force=True)
        if notice:
            await self.send(text_data=render_toast(notice))
        await super().close_for_ban(notice)

    async def chat_hidden(self, event: dict[str, Any]) -> None:
        """A moderator hid a message: it leaves the page (htmx's out-of-band delete)."""
        await self.send(text_data=render_chat_hidden(int(event["id"])))

    async def chat_message(self, event: dict[str, Any]) -> None:
        html = await self._render_chat_message(event["id"])
        if html:
            await self.send(text_data=html)

    @db_call
    def _render_chat_message(self, message_id: int) -> str:
        message = ChatMessage.objects.filter(pk=message_id, game_id=self.game_id).first()
        # The push goes to the game's whole group; each socket renders for its viewer, so a line by
        # an account this viewer blocked is left out here (the whole log leaves it out likewise).
        if message is None or hides_lines_of(self.actor.user_id, message.user_id):
            return ""
        return render_chat_message(message, self.actor)

    async def _send_chat_log(self) -> None:
        html = await self._render_chat_log()
        if html:
            await self.send(text_data=html)

    @db_call
    def _render_chat_log(self) -> str:
        game, seats = selectors.game_and_seats(self.game_id)
        if game is None:
            return ""
        return render_chat_log(game, seats, self.actor)

    async def game_update(self, event: dict[str, Any]) -> None:
        here = event.get("here")
        seen = frozenset(here) if here is not None else None
        if event.get("presence"):  # no new version: the regions that show it (who is here, names)
            if event.get("skip") != self.channel_name:
                await self._push(here=seen, same_version=True)
            if event.get("names"):  # a player was renamed: the chat shows the new name too
                await self._send_chat_log()
            return
        version = event["version"]
        if version <= self.sent_version:
            return  # this page has it already
        if event.get("skip") == self.channel_name:
            # The POST answer that caused it carried this board, whole: what the page shows now, as
            # this process rendered it for the answer (or another socket); if it did not (the answer
            # came from another process), nothing is rendered for it: the next push has every region.
            board = None
            if self.viewpoint is not None and event.get("status") != Game.Status.OPEN:
                board = shared_board(self.game_id, self.viewpoint, event)
            if board is not None:
                self._sent_whole(board)
            else:
                self.sent_version, self.shown = version, {}
        else:
            if not self.seat_ids and self.actor.is_authenticated and not self.seats_settled:
                await self._seated_since_connecting()
            await self._push(event, version, seen)
        if self.presence_due:
            self.presence_due = False
            await self._push()  # who is here now, if it changed since the version's push read it

    async def _push(
        self,
        event: dict[str, Any] | None = None,
        version: int | None = None,
        here: frozenset[int] | None = None,
        same_version: bool = False,
    ) -> None:
        """The regions of the board that changed since what this socket sent its page, with the
        version the page must show for them to apply (games.live.fragments.delta). `same_version`:
        a push that brings no version (presence): if the game moved past what this socket sent, its
        page may hold the new version from a POST's answer, and sending it again would make the page
        see a gap and ask for the whole board; the version's own push follows and brings presence."""
        board = await self._board_for(event, version, here)
        if board is None or board.version < self.sent_version:
            return
        if same_version and board.version > self.sent_version:
            self.presence_due = True
            return
        frame, self.shown = delta(board, self.sent_version, self.shown, self.ground_sent)
        if not frame:
            return
        self.sent_version = board.version
        self.ground_sent = ground_of(board.regions["board"]) or self.ground_sent
        await self.send(text_data=frame)

    async def _board_for(
        self, event: dict[str, Any] | None, version: int | None, here: frozenset[int] | None
    ) -> LiveBoard | None:
        """This viewer's board at the push's version: shared without a query when this process
        rendered its regions under the push's stamp already (the process that made the version
        renders its sockets' boards before the push; another renders them when the push comes, once
        for all of them: games.web.local_boards), else rendered here."""
        if (
            event is not None
            and self.viewpoint is not None
            and event.get("status") != Game.Status.OPEN  # seats still change: worked out afresh
        ):
            board = shared_board(self.game_id, self.viewpoint, event)
            if board is None:
                await local_boards.rendered(self.game_id, event)
                board = shared_board(self.game_id, self.viewpoint, event)
            if board is not None:
                return board
        return await self._render(version=version, here=here)

    def _sent_whole(self, board: LiveBoard) -> None:
        """The page got `board` whole (the ground included, or kept as the page's own)."""
        self.sent_version = board.version
        self.shown = board.marks()
        self.ground_sent = ground_of(board.regions["board"])

    async def _seated_since_connecting(self) -> None:
        """A viewer who took a seat on this page (the join button) is now a connected player: others
        must not wait for them, nor a timer treat them as disconnected."""
        await self._identify()
        if self.seat_ids:
            await db_call(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
            await broadcast.presence_changed(self.channel_layer, self.game_id)

    async def _send_board(
        self, force: bool = True, notice: str = "", have: int | None = None
    ) -> None:
        """Send the whole current board unless the page has it (what this socket sent, or on a
        resync the version the page says it shows)."""
        if have is not None:
            self.sent_version = have
            self.ground_sent = None  # a resync: the whole board, ground and all
            self.shown = {}  # what the page shows is not known here: the next push has every region
        board = await self._render(notice)
        if board is None:
            return
        if have is not None and have > board.version:
            self.sent_version = -1  # a page can't be ahead of the game: it gets the real board
        if not force and board.version <= self.sent_version:
            return
        shown = self.ground_sent
        self._sent_whole(board)
        self.presence_due = False  # who is here, read by this render: newer than any push's so far
        await self.send(text_data=for_page_showing(board.whole(oob=True), shown))

    @db_call
    def _render(
        self, notice: str = "", version: int | None = None, here: frozenset[int] | None = None
    ) -> LiveBoard | None:
        if version is None:
            game, seats = selectors.game_and_seats(self.game_id)
        else:
            game, seats = selectors.game_and_seats_at(self.game_id, version)
        if game is None:
            return None
        if version is not None and game.version != version:
            here = None  # a newer version than the push's: its presence is read with it
        self.viewpoint = viewpoint_for(game, seats, self.actor)
        return live_board(game, self.viewpoint, seats=seats, notice=notice, connected=here)

    async def _send_error(self, message: str, board: bool = False) -> None:
        await self.send(text_data=render_toast(message))
        if board:
            await self._send_board(force=True, notice=message)


def _run(
    name: str, game_id: str, actor: actors.Actor, fields: dict[str, Any], here: presence.Reading
) -> object:
    """An action sent over the socket, reading who is present once for itself and its push (`here`,
    read with its rate limit)."""
    with presence.read_once(here):
        return commands.run(name, game_id, actor, fields)
