"""What one group message costs on each channel layer: Redis round trips and CPU per push and delivery.

    .venv/bin/python bench/channel_layers.py                          # REDIS_URL, or 127.0.0.1:6379/4
    .venv/bin/python bench/channel_layers.py --messages 3000 --rate 300 --runs 2

A game's push is one `group_send` to the game's group (ludopat/push.py); each daphne process holding
sockets of the game delivers it to them. This bench plays that out between two processes on a real
Redis: a receiver (a daphne process: `--sockets` channels in one group, each a task awaiting
`receive` as a consumer does) and a sender (the process that made the change), in three ways
(`--senders`): `loop`, a consumer's push (`await group_send` on the server's event loop); `view`, a
POST's (ludopat/push.py's `send` from a worker thread of that loop: `async_to_sync` hops onto it,
the site's layer publishes from the thread); `celery`, a task's (`send` from a thread with no event
loop: `async_to_sync` makes one, and a connection, per push). The sender pushes `--messages` small events at
`--rate` per second and the run ends once every socket has every message (or, the sender done, none
came for a second: a layer that drops messages for a process behind is reported as "lost").

Per message it prints, for each layer (channels-redis's core layer, its pubsub layer, and the site's,
`ludopat.channel_layer.PubSubLayer`):

- round trips: each command or pipeline redis-py writes (`send_packed_command`, as bench/live.py counts
  them), the sender's per push, the receiver's per delivery (a pubsub delivery is pushed by Redis
  over the subscription: no request);
- CPU ms of each process over the run (`resource.getrusage`), per message: the sender's per push, the
  receiver's per message delivered to all its sockets (its round trips too), idle wake-ups included,
  which the pacing makes part of the cost as it is in a live process.

Runs alternate the layers (`--runs` rounds) and print each run, then the median. Redis's own CPU is
not separated (the server may be shared); the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LAYERS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "site": "ludopat.channel_layer.PubSubLayer",
}


def count_round_trips() -> dict[str, int]:
    """Counts every write of a command or pipeline by redis-py in this process, asyncio and sync
    clients alike (games/web/bench_floor.py's count)."""
    from redis import connection as sync_connection
    from redis.asyncio import connection

    counts = {"round_trips": 0}
    original = connection.AbstractConnection.send_packed_command
    original_sync = sync_connection.AbstractConnection.send_packed_command

    async def send(self, command, check_health=True):
        counts["round_trips"] += 1
        return await original(self, command, check_health)

    def send_sync(self, command, check_health=True):
        counts["round_trips"] += 1
        return original_sync(self, command, check_health)

    connection.AbstractConnection.send_packed_command = send  # type: ignore[method-assign]
    sync_connection.AbstractConnection.send_packed_command = send_sync  # type: ignore[method-assign]
    return counts


def make_layer(kind: str, url: str):
    module, _, name = LAYERS[kind].rpartition(".")
    cls = getattr(__import__(module, fromlist=[name]), name)
    return cls(hosts=[url])


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def event(n: int) -> dict:
    """The size and shape of a game's push (games/core/broadcast.py)."""
    return {"type": "game.update", "version": n, "status": "playing", "here": [11, 12], "skip": ""}


def receiver(kind: str, url: str, group: str, sockets: int, messages: int, conn) -> None:
    counts = count_round_trips()

    async def main() -> None:
        layer = make_layer(kind, url)
        channels = [await layer.new_channel() for _ in range(sockets)]
        for channel in channels:
            await layer.group_add(group, channel)
        got = [0] * sockets
        done = asyncio.Event()

        async def consume(i: int, channel: str) -> None:
            while got[i] < messages:
                await layer.receive(channel)
                got[i] += 1
            if all(g >= messages for g in got):
                done.set()

        tasks = [asyncio.ensure_future(consume(i, c)) for i, c in enumerate(channels)]
        await asyncio.sleep(0.3)  # every receive is waiting before the first push
        before, trips = cpu(), counts["round_trips"]
        conn.send("ready")
        # Until every socket has every message, or, once the sender is done, none came for 1 s (a
        # layer may drop: the core layer keeps at most `capacity` messages per process behind).
        sent, last, quiet = False, -1, 0.0
        while not done.is_set() and quiet < 1.0:
            await asyncio.sleep(0.1)
            sent = sent or conn.poll()
            quiet = quiet + 0.1 if sent and sum(got) == last else 0.0
            last = sum(got)
        used, trips = cpu() - before, counts["round_trips"] - trips
        conn.send({"cpu": used, "round_trips": trips, "received": min(got)})
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in channels:
            await layer.group_discard(group, channel)
        await layer.flush()

    asyncio.run(main())


def sender(kind: str, url: str, group: str, messages: int, rate: float, mode: str) -> dict:
    counts = count_round_trips()
    layer = make_layer(kind, url)
    period = 1 / rate
    from asgiref.sync import async_to_sync, sync_to_async

    async def push(n: int) -> None:
        await layer.group_send(group, event(n))

    def push_sync(n: int) -> None:  # ludopat/push.py's `send`
        publish = getattr(type(layer), "group_send_sync", None)
        if publish is not None:
            publish(layer, group, event(n))
        else:
            async_to_sync(push)(n)

    async def paced() -> None:
        start = time.monotonic()
        for n in range(messages):
            if mode == "view":  # a view's push: from a worker thread of the server's event loop
                await sync_to_async(push_sync, thread_sensitive=False)(n)
            else:  # a consumer's push
                await push(n)
            await asyncio.sleep(max(0.0, start + (n + 1) * period - time.monotonic()))

    before, trips = cpu(), counts["round_trips"]
    if mode == "celery":  # a task's push: no event loop in its thread
        start = time.monotonic()
        for n in range(messages):
            push_sync(n)
            time.sleep(max(0.0, start + (n + 1) * period - time.monotonic()))
    else:
        asyncio.run(paced())
    return {"cpu": cpu() - before, "round_trips": counts["round_trips"] - trips}


def run_one(kind: str, url: str, sockets: int, messages: int, rate: float, mode: str) -> dict:
    """One sender process (this one is clean of other layers: a child) and one receiver."""
    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    group = f"game.bench-{uuid.uuid4().hex}"  # nothing left of an earlier run in it
    proc = ctx.Process(target=receiver, args=(kind, url, group, sockets, messages, there))
    proc.start()
    try:
        if not here.poll(30):
            raise RuntimeError(f"{kind}: the receiver never got ready")
        assert here.recv() == "ready"
        with ctx.Pool(1) as pool:
            sent = pool.apply(sender, (kind, url, group, messages, rate, mode))
        here.send("sent")
        if not here.poll(messages / 10 + 90):
            raise RuntimeError(f"{kind}: the receiver never reported")
        received = here.recv()
    finally:
        proc.join(30)
        if proc.is_alive():
            proc.terminate()
    return {
        "send_rt": sent["round_trips"] / messages,
        "send_ms": 1000 * sent["cpu"] / messages,
        # Per message delivered (to every socket): a layer that dropped some did less work.
        "recv_rt": received["round_trips"] / max(1, received["received"]),
        "recv_ms": 1000 * received["cpu"] / max(1, received["received"]),
        "lost": (messages - received["received"]) / messages,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/4"))
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=400.0, help="pushes per second")
    parser.add_argument("--sockets", type=int, nargs="+", default=[2, 4], help="per group")
    parser.add_argument("--layers", nargs="+", default=list(LAYERS), choices=list(LAYERS))
    parser.add_argument("--runs", type=int, default=2, help="alternated rounds; medians printed")
    parser.add_argument(
        "--senders",
        nargs="+",
        default=["loop", "view", "celery"],
        choices=["loop", "view", "celery"],
    )
    args = parser.parse_args()
    command = " ".join([".venv/bin/python", "bench/channel_layers.py", *sys.argv[1:]])
    print(f"# {command}")
    print(f"# Redis {args.redis}; load before: {os.getloadavg()}")
    results: dict[tuple, list[dict]] = {}
    for run in range(args.runs):
        for mode in args.senders:
            for sockets in args.sockets:
                for kind in args.layers if run % 2 == 0 else reversed(args.layers):
                    r = run_one(kind, args.redis, sockets, args.messages, args.rate, mode)
                    results.setdefault((mode, sockets, kind), []).append(r)
                    print(
                        f"run {run + 1} {mode:6} {sockets} sockets "
                        f"{kind:6}: push {r['send_rt']:.2f} rt {r['send_ms']:.3f} ms, "
                        f"delivery {r['recv_rt']:.2f} rt {r['recv_ms']:.3f} ms, lost {100 * r['lost']:.1f}%",
                        flush=True,
                    )
    print(f"# load after: {os.getloadavg()}")
    print("sender     sockets layer   push rt  push ms  delivery rt  delivery ms  total ms  lost %")
    for (mode, sockets, kind), rs in results.items():
        m = {key: statistics.median(r[key] for r in rs) for key in rs[0]}
        print(
            f"{mode:10} {sockets:7} {kind:6} {m['send_rt']:8.2f} "
            f"{m['send_ms']:8.3f} {m['recv_rt']:12.2f} {m['recv_ms']:12.3f} "
            f"{m['send_ms'] + m['recv_ms']:9.3f} {100 * m['lost']:7.1f}"
        )


if __name__ == "__main__":
    main()
