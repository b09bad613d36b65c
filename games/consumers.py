"""The game's WebSocket: one consumer per open page, in the game's group.

On every `game.update` it sends its viewer the live fragment for that viewer's viewpoint (rendered once
per version and viewpoint, shared through the cache). On connect, and whenever the client asks
(`{"resync": <version>}`), it sends the whole board, so a client that missed versions catches up. Actions
sent with htmx's `ws-send` go through the same `commands.run` as the POST views.
"""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.html import escape

from . import actions, actors, broadcast, commands, presence, throttle
from .broadcast import group_name
from .errors import GameError
from .models import ChatMessage, Game
from .render import render_chat_log, render_chat_message, render_live, viewpoint_for

REFUSED = 4404  # no such game: the page's link is wrong; the client must not retry


class GameConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.seat_ids: list[int] = []
        self.sent_version = -1
        found = await self._identify()
        if not found:
            await self.close(code=REFUSED)
            return
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.seat_ids:
            await sync_to_async(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
            came_back = False
            for seat_id in self.seat_ids:
                came_back |= await database_sync_to_async(actions.seat_connected)(
                    self.game_id, seat_id
                )
            if not came_back:
                # Others' pages show this player as connected again.
                await broadcast.presence_changed(self.channel_layer, self.game_id)
        await self._send_board()

    @database_sync_to_async
    def _identify(self) -> bool:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return False
        session = self.scope.get("session")
        user = self.scope.get("user")
        key = session.get(actors.PLAYER_KEY, "") if session is not None else ""
        if user is not None and user.is_authenticated:
            self.actor = actors.Actor(user.pk, key, user.get_username())
        else:
            self.actor = actors.Actor(None, key)
        seats = list(game.seats.all())
        self.seat_ids = [s.pk for s in actors.seats_of(game, seats, self.actor)]
        if game.mode != Game.Mode.FRIENDS:
            self.seat_ids = []  # presence matters only where absent people are waited for
        return True

    async def disconnect(self, code):
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat_ids:
            gone = await sync_to_async(presence.drop)(
                self.game_id, self.seat_ids, self.channel_name
            )
            if gone:
                await database_sync_to_async(actions.seat_disconnected)(list(gone), self.game_id)
                await broadcast.presence_changed(self.channel_layer, self.game_id)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = json.loads(text_data or "{}")
        except ValueError:
            message = None
        if not isinstance(message, dict):
            await self._send_error("Bad request: send a JSON object.")
            return
        message.pop("HEADERS", None)
        if self.seat_ids:
            await sync_to_async(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
        if "heartbeat" in message and "action" not in message:
            return
        if "resync" in message and "action" not in message:
            await self._send_board(force=True)
            await self._send_chat_log()
            return
        name = message.pop("action", None)
        if not isinstance(name, str):
            await self._send_error("Bad request: say which action.")
            return
        allowed = await sync_to_async(throttle.allow)(self.game_id, self.actor.key)
        if not allowed:
            await self._send_error("Too many actions at once: wait a moment and try again.")
            return
        data = {
            k: v if isinstance(v, str) else json.dumps(v)
            for k, v in message.items()
            if v is not None
        }
        try:
            await database_sync_to_async(commands.run)(name, self.game_id, self.actor, data)
        except GameError as error:
            await self._send_error(str(error), board=error.status == 409)

    async def chat_message(self, event):
        html = await self._render_chat_message(event["id"])
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _render_chat_message(self, message_id: int) -> str:
        message = ChatMessage.objects.filter(pk=message_id, game_id=self.game_id).first()
        return render_chat_message(message, self.actor) if message is not None else ""

    async def _send_chat_log(self) -> None:
        html = await self._render_chat_log()
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _render_chat_log(self) -> str:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return ""
        return render_chat_log(game, list(game.seats.select_related("user")), self.actor)

    async def game_update(self, event):
        if not event.get("presence") and event["version"] <= self.sent_version:
            return
        if not self.seat_ids and self.actor.is_authenticated and not event.get("presence"):
            await self._seated_since_connecting()
        await self._send_board(force=bool(event.get("presence")))

    async def _seated_since_connecting(self) -> None:
        """A viewer who took a seat on this page (the join button) is now a connected player: others
        must not wait for them, nor a timer treat them as disconnected."""
        await self._identify()
        if self.seat_ids:
            await sync_to_async(presence.touch)(self.game_id, self.seat_ids, self.channel_name)
            await broadcast.presence_changed(self.channel_layer, self.game_id)

    async def _send_board(self, force: bool = True, notice: str = "") -> None:
        html, version = await self._render(notice)
        if html is None:
            return
        if not force and version <= self.sent_version:
            return
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)

    @database_sync_to_async
    def _render(self, notice: str = ""):
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return None, -1
        seats = list(game.seats.select_related("user").order_by("index"))
        vp = viewpoint_for(game, seats, self.actor)
        return render_live(game, vp, oob=True, seats=seats, notice=notice), game.version

    async def _send_error(self, message: str, board: bool = False) -> None:
        toast = (
            f'<div id="game-toast" hx-swap-oob="true" class="toast toast-error" role="alert" '
            f'data-testid="toast">{escape(message)}</div>'
        )
        await self.send(text_data=toast)
        if board:
            await self._send_board(force=True, notice=message)
