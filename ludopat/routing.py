"""Every WebSocket route of the site, gathered from the apps."""

from django.urls import path

from accounts.consumers import OnlineConsumer
from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/online/", OnlineConsumer.as_asgi()),
    path("ws/games/<str:game_id>/", GameConsumer.as_asgi()),
]
