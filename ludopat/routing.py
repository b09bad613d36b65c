"""Every WebSocket route of the site, gathered from the apps."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

import ludopat.converters  # noqa: F401  (registers <gameid>, <username>, <name>, <id>, <token>)
from accounts.web.consumers import AccountConsumer, OnlineConsumer
from games.web.consumers import GameConsumer
from games.web.tournament_consumer import TournamentConsumer

NO_SUCH_SOCKET = 4404  # the same code as "no such game": pages never reconnect after it


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other address (a malformed game id, a NUL byte): refused with a close code, where an
    unmatched route would raise inside Channels and drop the connection with a server error."""

    async def connect(self) -> None:
        await self.close(code=NO_SUCH_SOCKET)


websocket_urlpatterns = [
    path("ws/online/", OnlineConsumer.as_asgi()),
    path("ws/account/", AccountConsumer.as_asgi()),
    path("ws/games/<gameid:game_id>/", GameConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
