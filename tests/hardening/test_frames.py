"""WebSocket frames cost a token each: a client that floods is closed with a code pages don't retry."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator

from ludopat.asgi import application
from ludopat.frame_limit import ABUSE_CLOSE_CODE
from tests.games.webplay import computer_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HOST = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@pytest.fixture(autouse=True)
def fresh_layer(redis_client):
    channel_layers.backends.clear()  # each test has its own event loop


async def online_socket() -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, "/ws/online/", headers=HOST)
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_from()  # the count on arrival
    return ws


async def test_a_heartbeat_flood_on_the_online_socket_is_closed(settings, redis_client):
    settings.LUDOPAT_FRAME_RATE = (5, 0.5)
    ws = await online_socket()
    for _ in range(5):
        await ws.send_to(text_data='{"heartbeat": "1"}')
    await ws.receive_nothing(timeout=0.2)  # within the burst: still open, nothing to say
    await ws.send_to(text_data='{"heartbeat": "1"}')
    closed = await ws.receive_output(timeout=2)
    assert closed == {"type": "websocket.close", "code": ABUSE_CLOSE_CODE}
    await ws.disconnect()


async def test_each_cookieless_socket_has_its_own_bucket(settings, redis_client):
    settings.LUDOPAT_FRAME_RATE = (3, 0.1)
    first, second = await online_socket(), await online_socket()
    await first.receive_from()  # hears of the second
    for _ in range(4):
        await first.send_to(text_data="{}")
    assert (await first.receive_output(timeout=2))["code"] == ABUSE_CLOSE_CODE
    await first.disconnect()
    for _ in range(3):
        await second.send_to(text_data="{}")
    await second.receive_nothing(timeout=0.2)  # the neighbour's flood did not empty this one
    assert redis_client.zcard("ludopat:online") == 1
    await second.disconnect()


@pytest.fixture
def set_reads(monkeypatch):
    """How many times this process asked Redis for a range of a sorted set (the online set's reads).
    Counted in this process, not from the server's statistics, which other clients of the same
    server (another test run, a worker) move too."""
    from redis.commands.core import SortedSetCommands

    calls = []
    for name in ("zrange", "zrangebyscore"):
        real = getattr(SortedSetCommands, name)

        def counted(self, *args, _real=real, _name=name, **kwargs):
            calls.append(_name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(SortedSetCommands, name, counted)
    return calls


async def test_a_heartbeat_does_not_read_the_whole_online_set(redis_client, set_reads):
    ws = await online_socket()
    await ws.receive_nothing(timeout=0.3)  # arrival's own reads are done
    before = len(set_reads)
    assert before > 0  # the count sees the arrival's reads
    for _ in range(10):
        await ws.send_to(text_data='{"heartbeat": "1"}')
    await ws.receive_nothing(timeout=0.3)
    assert len(set_reads) == before
    assert redis_client.zcard("ludopat:online") == 1  # but the connection is kept fresh
    await ws.disconnect()


async def test_resync_and_heartbeat_frames_are_counted_on_the_game_socket(settings):
    settings.LUDOPAT_FRAME_RATE = (4, 0.2)
    settings.LUDOPAT_BOT_DELAY = 60
    game = await database_sync_to_async(computer_game)()
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=HOST)
    connected, _ = await ws.connect()
    assert connected
    await ws.send_to(text_data='{"resync": -1}')  # a stranger may resync: it costs a token
    for _ in range(3):
        await ws.send_to(text_data='{"heartbeat": "1"}')
    await ws.send_to(text_data='{"resync": -1}')  # the fifth frame: the bucket is empty
    boards = 0
    while (output := await ws.receive_output(timeout=2))["type"] == "websocket.send":
        boards += 'id="game-live"' in output.get("text", "")
    assert output == {"type": "websocket.close", "code": ABUSE_CLOSE_CODE}
    assert boards == 1  # for the first resync, not for the fifth frame
    await ws.disconnect()
