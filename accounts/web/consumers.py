from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from ludopat import push
from ludopat.frame_limit import ABUSE_CLOSE_CODE, new_bucket

from ..users.online import GROUP, Presence
from ..users.sockets import ClosedOnBan, join_user_group, leave_user_group

# A page signed out meanwhile (its session gone): nothing to say to it, and no reconnecting.
NOT_SIGNED_IN = 4401


class OnlineConsumer(ClosedOnBan, AsyncWebsocketConsumer):
    """Keeps the home page's "N players online" live: every change is pushed to every open page."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        session = self.scope.get("session")
        if user is not None and user.is_authenticated:
            self.who = f"user:{user.pk}"
        elif session is not None and session.session_key:
            self.who = f"session:{session.session_key}"
        else:
            self.who = f"conn:{self.channel_name}"
        self.presence = Presence()
        self.frames = new_bucket()
        await self.channel_layer.group_add(GROUP, self.channel_name)
        await join_user_group(self)  # a ban closes this page's connection at once
        await self.accept()
        await self._announce(await self.presence.seen(self.who, self.channel_name))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Any message is a heartbeat (the page sends one every 30 s) keeping this connection fresh;
        # a client sending far more than that is closed (ludopat/frame_limit.py).
        if not self.frames.take():
            await self.close(code=ABUSE_CLOSE_CODE)
            return
        await self.presence.touch(self.who, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "presence"):
            await self._announce(await self.presence.gone(self.who, self.channel_name))
            await self.presence.close()
        await self.channel_layer.group_discard(GROUP, self.channel_name)
        await leave_user_group(self)

    async def _announce(self, count: int) -> None:
        event = {"type": "online.count", "count": count}
        await push.send_async(GROUP, event, about="the online count", layer=self.channel_layer)

    async def online_count(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_to_string("partials/online_count.html", event))


class AccountConsumer(ClosedOnBan, AsyncWebsocketConsumer):
    """Every page of a signed-in player that has no socket of its own in the account's group (base.html's
    `account_socket`): its notices (a challenge, a tournament's news) arrive here, and a ban closes it.
    It sends nothing and reads nothing from the page: a client that sends frames anyway is held to the
    frame budget."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_SIGNED_IN)
            return
        self.frames = new_bucket()
        await join_user_group(self)
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.frames.take():
            await self.close(code=ABUSE_CLOSE_CODE)

    async def disconnect(self, code: int) -> None:
        await leave_user_group(self)
