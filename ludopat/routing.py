"""Every WebSocket route of the site, gathered from the apps."""

from django.urls import path

from accounts.consumers import OnlineConsumer

websocket_urlpatterns = [
    path("ws/online/", OnlineConsumer.as_asgi()),
]
