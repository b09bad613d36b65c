"""Every round trip to Redis this process makes meanwhile, as bench/live.py counts them
(games/web/bench_floor.py's `count_round_trips`): each command or pipeline redis-py writes, synchronous
(the cache, the rate limits, presence, the pushes) or asyncio (the sockets' channel layer), each with the
names of the commands it carried.

    with RoundTrips() as trips:
        ...
    assert len(trips) == 2 and "ZRANGEBYSCORE" in trips.commands[0]
"""

from __future__ import annotations

import threading
from typing import Any

import redis.asyncio.connection as async_connection
import redis.connection as sync_connection


def command_names(packed: Any) -> list[str]:
    """The command names in what redis-py writes: RESP arrays of bulk strings, one per command."""
    chunks = [packed] if isinstance(packed, bytes | bytearray | memoryview) else packed
    data = b"".join(bytes(chunk) for chunk in chunks)
    names, at = [], 0
    while at < len(data):
        end = data.index(b"\r\n", at)
        count, at = int(data[at + 1 : end]), end + 2  # "*<count>"
        for index in range(count):
            end = data.index(b"\r\n", at)
            size = int(data[at + 1 : end])  # "$<size>"
            if index == 0:
                names.append(data[end + 2 : end + 2 + size].decode().upper())
            at = end + 2 + size + 2
    return names


class RoundTrips:
    """The round trips made within, in order: `commands[i]` the names of the i-th one's commands."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.commands)

    def all(self) -> list[str]:
        return [name for trip in self.commands for name in trip]

    def clear(self) -> None:
        with self._lock:
            self.commands.clear()

    def _note(self, packed: Any) -> None:
        with self._lock:
            self.commands.append(command_names(packed))

    def __enter__(self) -> RoundTrips:
        self._sync = sync_connection.AbstractConnection.send_packed_command
        self._async = async_connection.AbstractConnection.send_packed_command
        sync_send, async_send, note = self._sync, self._async, self._note

        def send(connection: Any, packed: Any, *args: Any, **kwargs: Any) -> None:
            note(packed)
            sync_send(connection, packed, *args, **kwargs)

        async def send_async(connection: Any, packed: Any, *args: Any, **kwargs: Any) -> None:
            note(packed)
            await async_send(connection, packed, *args, **kwargs)

        sync_connection.AbstractConnection.send_packed_command = send  # type: ignore[method-assign]
        async_connection.AbstractConnection.send_packed_command = send_async  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        sync_connection.AbstractConnection.send_packed_command = self._sync  # type: ignore[method-assign]
        async_connection.AbstractConnection.send_packed_command = self._async  # type: ignore[method-assign]
