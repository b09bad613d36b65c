"""The home page's online count, kept live over a WebSocket through the real Redis channel layer."""

from __future__ import annotations

import re

import pytest
from channels.testing import WebsocketCommunicator

from ludopat.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def count(html: str) -> int:
    return int(re.search(r"(\d+) players? online", html).group(1))


async def connect():
    ws = WebsocketCommunicator(application, "/ws/online/", headers=ORIGIN)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def test_online_count_rises_and_falls_live(redis_client):
    first = await connect()
    assert count(await first.receive_from()) == 1
    second = await connect()
    assert count(await second.receive_from()) == 2
    assert count(await first.receive_from()) == 2  # the first page hears of the newcomer
    await second.disconnect()
    assert count(await first.receive_from()) == 1
    await first.disconnect()


async def test_heartbeat_keeps_a_connection_counted(redis_client):
    ws = await connect()
    await ws.receive_from()
    await ws.send_to(text_data='{"heartbeat": "1"}')
    await ws.receive_nothing(timeout=0.2)
    members = redis_client.zrange("ludopat:online", 0, -1)
    assert len(members) == 1
    await ws.disconnect()
    assert redis_client.zcard("ludopat:online") == 0


async def test_home_page_shows_the_count(redis_client, async_client):
    ws = await connect()
    await ws.receive_from()
    page = (await async_client.get("/")).content.decode()
    assert count(page) == 1
    await ws.disconnect()


async def test_foreign_origin_is_refused(redis_client):
    ws = WebsocketCommunicator(application, "/ws/online/",
                               headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1")])  # fmt: skip
    connected, _ = await ws.connect()
    assert not connected
    assert redis_client.zcard("ludopat:online") == 0
