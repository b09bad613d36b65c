"""The site's channel layer: channels-redis's pubsub layer, made to fail loudly and to publish from
synchronous code in one round trip.

Why pubsub (measured by `bench/channel_layers.py`; the figures are in docs/operations.md, "Sharding
the live pushes"): a group message is one PUBLISH, and each daphne process holding sockets of the
group gets it pushed over its one subscription per shard, with no request; channels-redis's core
layer spends 4 round trips to send (the group's members read, old messages trimmed, the message
queued per inbox) and 4 per delivery to each process. What pubsub gives up, and why the site doesn't
need it: a message reaches the sockets subscribed when it is published, at most once, and is never
kept for a socket that is away; a game's page already resyncs by version whenever it connects and
whenever a push skips a version.

What this adds to channels-redis's `RedisPubSubChannelLayer`:

- **A lost subscription fails its sockets.** The library's receive loop logs a lost connection,
  reconnects and resubscribes by itself, and pushes published meanwhile are lost without any socket
  knowing: a page would show an old board until the game's next push. Here every socket of the
  process in a group on that shard has its `receive` raise `ConnectionError`, as the core layer's
  receive raises when its Redis goes, so consumers close (a game's with "try again later", 4503), pages
  reconnect once Redis is back and are sent the current board (games/web/consumers.py).
- **A socket's channel lives in its process.** The site only ever sends to groups (ludopat/push.py),
  so a new socket subscribes to nothing of its own (the library subscribes one Redis channel per
  socket): a socket depends on its groups' shards alone, and `send` reaches only a channel of this
  process. Each socket's queue is bounded as the core layer's (`capacity`, oldest dropped).
- **Pushes from synchronous code in one round trip** (`group_send_sync`): a POST's view and a Celery
  task publish on a connection the process keeps per shard, instead of an event loop made for the
  push (a Celery worker's: a new connection each time).
- **A prefix per Redis database**: PUBLISH ignores the database number, so sites, test workers and
  benches sharing one Redis server by database would hear each other's groups (`user-3` is everyone's
  third account); `prefix_for` names channels after the first URL's database.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from typing import Any
from urllib.parse import urlsplit

import redis
from channels_redis.core import BoundedQueue
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _close_redis, _consistent_hash, _wrap_close, decode_hosts
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Messages kept per socket not reading, as channels-redis's core layer keeps (the oldest dropped).
CAPACITY = 100
# How long a push from a view or a task waits for an unreachable shard (as ludopat/redis_clients.py).
SYNC_TIMEOUTS = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}


def prefix_for(urls: list[str]) -> str:
    """The layer's prefix for these Redis URLs: the first one's database number in it.

    >>> prefix_for(["redis://127.0.0.1:6379/4", "redis://push2:6379/0"])
    'ludopat.db4.'
    >>> prefix_for(["redis://127.0.0.1:6379"])
    'ludopat.db0.'
    """
    path = urlsplit(urls[0]).path.strip("/") if urls else ""
    return f"ludopat.db{int(path or 0)}."


class PubSubLayer(RedisPubSubChannelLayer):
    """The layer as settings name it (CHANNEL_LAYERS): one `LoopLayer` per event loop, as the library's."""

    def __init__(
        self,
        hosts: list[Any] | None = None,
        prefix: str = "asgi",
        capacity: int = CAPACITY,
        **kwargs: Any,
    ) -> None:
        super().__init__(hosts=hosts, prefix=prefix, capacity=capacity, **kwargs)
        self._hosts = decode_hosts(hosts)
        self._prefix = prefix
        self._sync_clients: dict[int, redis.Redis] = {}
        self._sync_lock = threading.Lock()

    def _get_layer(self) -> LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer

    def group_send_sync(self, group: str, message: dict[str, Any]) -> None:
        """`group_send` from synchronous code (any thread): one PUBLISH on the process's connection to
        the group's shard. Raises as redis-py does (ludopat/push.py logs it)."""
        channel = f"{self._prefix}__group__{group}"
        shard = _consistent_hash(channel, len(self._hosts))
        self._sync_client(shard).publish(channel, self.serialize(message))

    def _sync_client(self, shard: int) -> redis.Redis:
        client = self._sync_clients.get(shard)
        if client is None:
            with self._sync_lock:
                client = self._sync_clients.get(shard)
                if client is None:
                    host = {**SYNC_TIMEOUTS, **self._hosts[shard]}
                    address = host.pop("address", None)
                    client = (
                        redis.Redis.from_url(address, **host)
                        if address is not None
                        else redis.Redis(**host)
                    )
                    self._sync_clients[shard] = client
        return client


class LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, capacity: int = CAPACITY, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.capacity = capacity
        library_shards: list[Any] = self._shards
        self._shards: list[Shard] = [Shard(shard.host, self) for shard in library_shards]

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A channel of this process: a queue here, nothing subscribed in Redis."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = BoundedQueue(self.capacity)
        return channel

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """To one channel of this process (a socket's is nobody else's); the site sends to groups."""
        queue = self.channels.get(channel)
        if queue is None:
            raise ValueError(f"{channel} is no channel of this process: send to its group instead")
        queue.put_nowait(self.channel_layer.serialize(message))

    async def receive(self, channel: str) -> dict[str, Any]:
        if channel not in self.channels:
            self.channels[channel] = BoundedQueue(self.capacity)
        try:
            message = await self.channels[channel].get()
        except (TimeoutError, asyncio.CancelledError, GeneratorExit):
            self._forget(channel)  # the consumer is going: its groups are discarded by it
            raise
        if isinstance(message, BaseException):  # a shard of its groups was lost (Shard._lost)
            self._forget(channel)
            raise message
        return self.channel_layer.deserialize(message)

    def _forget(self, channel: str) -> None:
        self.channels.pop(channel, None)

    def shard_lost(self, shard: Shard, error: BaseException) -> None:
        """Every channel here in a group on `shard` is told, through its `receive`."""
        told: set[str] = set()
        for group_channel, members in self.groups.items():
            if self._get_shard(group_channel) is shard:
                told |= members
        for channel in told:
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(redis.ConnectionError(f"lost the channel layer's Redis ({error})"))
        if told:
            log.warning(
                "channel layer: lost %s (%s): %d socket(s) of this process told",
                shard.host.get("address", shard.host),
                error,
                len(told),
            )


class Shard(RedisSingleShardConnection):
    # The library's, untyped: a connection per shard for publishing, one subscription, its channels.
    _redis: Any
    _pubsub: Any
    _subscribed_to: set[str]

    async def _do_receiving(self) -> None:
        """The library's loop, but a lost connection is `_lost`, not retried in silence."""
        while True:
            pubsub = self._pubsub
            if pubsub is None or not pubsub.subscribed:
                await asyncio.sleep(0.1)
                continue
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            except (OSError, RedisError) as error:
                await self._lost(pubsub, error)
                continue
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except Exception:
                log.exception("channel layer: unexpected error receiving")
                await asyncio.sleep(1)
                continue
            self._receive_message(message)

    async def _lost(self, pubsub: Any, error: BaseException) -> None:
        """Start afresh: the next group_add subscribes on a new connection (and raises while Redis is
        unreachable); the sockets that counted on this one are told (`LoopLayer.shard_lost`)."""
        async with self._lock:
            if self._pubsub is not pubsub:
                return  # already replaced
            client, self._redis, self._pubsub = self._redis, None, None
            self._subscribed_to = set()
            self.channel_layer.shard_lost(self, error)
        try:
            await pubsub.aclose()
            await _close_redis(client)
        except Exception:  # noqa: S110  a dead connection may fail to close: it is dropped anyway
            pass
