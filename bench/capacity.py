"""How many machines does a number of concurrent games need? A capacity model from measured costs.

    .venv/bin/python bench/capacity.py                      # the costs measured on 2026-12-06 (docs/capacity.md)
    .venv/bin/python bench/capacity.py --web-ms 45 --pg-ms 4   # a slower core: put in what bench/live.py printed
    .venv/bin/python bench/capacity.py --games 10000 100000 250000

Nothing is started or measured here: the inputs are the CPU milliseconds the benches print, per tier,
and a load per game. Each tier's need is its CPU seconds per second at that load, divided by how busy
a core of that tier may be (`--busy`, 0.6: bench/live.py saw the p99 of one web process leave 100 ms
well before the process was fully busy, and a burst needs room). Redis runs one thread per server, so
its cores are shards; a Celery worker process uses one core.

Where the inputs come from (docs/capacity.md has the sitting, the machine and its load):
- per action, for the web processes, Celery, PostgreSQL and Redis: the `CPU ms/action` columns of
  `bench/live.py --server daphne` at 50 games (each action is a POST, a row locked and written, a
  render per viewpoint, and the push to three sockets: two players and a spectator);
- per poll of the staked lobby and of the leaderboard: the web CPU of one answer of each partial
  (`bench/capacity.py --measure-polls`, below: the Django test client on DATABASE_URL, CPU of this
  process per request; PostgreSQL's part is the request's wall time less that CPU, an upper bound).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Load:
    """What one concurrent game asks of the site each second."""

    actions: float  # actions per second (one every 2 s)
    heartbeats: float  # socket heartbeats per second (three sockets, one each 25 s)
    lobby_polls: float  # staked-lobby polls per second (lobby viewers per game, one poll each 3 s)
    board_polls: float  # leaderboard polls per second (leaderboard viewers per game, each 5 s)


@dataclass(frozen=True)
class Costs:
    """CPU milliseconds per unit of work, per tier."""

    web_action: float
    pg_action: float
    celery_action: float
    redis_action: float
    web_heartbeat: float
    redis_heartbeat: float
    web_lobby: float
    pg_lobby: float
    web_board: float
    pg_board: float


def demand(load: Load, costs: Costs) -> dict[str, float]:
    """CPU seconds per second that one game costs each tier."""
    return {
        "web": (
            load.actions * costs.web_action
            + load.heartbeats * costs.web_heartbeat
            + load.lobby_polls * costs.web_lobby
            + load.board_polls * costs.web_board
        )
        / 1000,
        # A move's writes go to the one primary; the polls' reads can go to replicas (DATABASE_REPLICA_URL).
        "postgresql primary": load.actions * costs.pg_action / 1000,
        "postgresql replicas": (
            load.lobby_polls * costs.pg_lobby + load.board_polls * costs.pg_board
        )
        / 1000,
        "redis": (load.actions * costs.redis_action + load.heartbeats * costs.redis_heartbeat)
        / 1000,
        "celery": load.actions * costs.celery_action / 1000,
    }


UNITS = {
    "web": "web cores",
    "postgresql primary": "primary cores",
    "postgresql replicas": "replica cores",
    "redis": "Redis shards",
    "celery": "Celery workers",
}


def plan(games: int, per_game: dict[str, float], busy: float) -> dict[str, int]:
    return {tier: max(1, math.ceil(games * need / busy)) for tier, need in per_game.items()}


def measure_polls(requests: int = 60) -> dict[str, tuple[float, float]]:
    """(web CPU ms, PostgreSQL ms upper bound) of one staked-lobby and one leaderboard poll."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludopat.settings")
    import django

    django.setup()
    from django.test import Client
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    setup_test_environment()
    runner = DiscoverRunner(verbosity=0, interactive=False)
    databases = runner.setup_databases()
    try:
        from tests import factories as f

        users = [f.make_user(f"capacity{i}") for i in range(40)]
        for user in users[:20]:  # a lobby with twenty rooms waiting
            f.staked_room(f.member(user), 100)
        client = Client()
        client.force_login(users[-1])
        found = {}
        for name, url in (("lobby", "/staked/rooms"), ("leaderboard", "/leaderboard/")):
            for _ in range(5):
                client.get(url, HTTP_HX_REQUEST="true")
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(requests):
                assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
            cpu_ms = (time.process_time() - cpu) / requests * 1000
            wall_ms = (time.perf_counter() - wall) / requests * 1000
            found[name] = (cpu_ms, max(0.0, wall_ms - cpu_ms))
        return found
    finally:
        runner.teardown_databases(databases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--interval", type=float, default=2.0, help="s between a game's actions")
    parser.add_argument("--sockets", type=int, default=3, help="sockets per game")
    parser.add_argument("--lobby-viewers", type=float, default=0.2, help="per game in play")
    parser.add_argument("--board-viewers", type=float, default=0.1, help="per game in play")
    parser.add_argument("--busy", type=float, default=0.6, help="how busy a core may run")
    parser.add_argument("--primary-cores", type=int, default=64, help="the largest primary at hand")
    # Measured on 2026-12-06 at 8dc8593, the machine shared with other work (load average 4.7 to 9.7;
    # docs/capacity.md): bench/live.py --server daphne --quick --before, 50 games, one process, the
    # medians of the two runs of 8dc8593; the polls with --measure-polls (PostgreSQL's part of a poll
    # is its wall time less its CPU: at that load mostly waiting for a CPU, an upper bound).
    parser.add_argument("--web-ms", type=float, default=32.6)
    parser.add_argument("--pg-ms", type=float, default=7.9)
    parser.add_argument("--celery-ms", type=float, default=0.56)
    parser.add_argument("--redis-ms", type=float, default=1.56)
    # A heartbeat is one frame and one presence write: not measured apart, taken as a tenth of an action.
    parser.add_argument("--heartbeat-web-ms", type=float, default=3.3)
    parser.add_argument("--heartbeat-redis-ms", type=float, default=0.2)
    parser.add_argument("--lobby-web-ms", type=float, default=31.1)
    parser.add_argument("--lobby-pg-ms", type=float, default=74.4)
    parser.add_argument("--board-web-ms", type=float, default=15.2)
    parser.add_argument("--board-pg-ms", type=float, default=35.2)
    parser.add_argument("--measure-polls", action="store_true", help="measure the two polls first")
    args = parser.parse_args()

    lobby = (args.lobby_web_ms, args.lobby_pg_ms)
    board = (args.board_web_ms, args.board_pg_ms)
    if args.measure_polls:
        found = measure_polls()
        lobby, board = found["lobby"], found["leaderboard"]
        print(f"measured: lobby poll {lobby[0]:.1f} ms web CPU, <= {lobby[1]:.1f} ms PostgreSQL; "
              f"leaderboard poll {board[0]:.1f} ms web CPU, <= {board[1]:.1f} ms PostgreSQL")  # fmt: skip

    load = Load(
        actions=1 / args.interval,
        heartbeats=args.sockets / 25,
        lobby_polls=args.lobby_viewers / 3,
        board_polls=args.board_viewers / 5,
    )
    costs = Costs(
        web_action=args.web_ms,
        pg_action=args.pg_ms,
        celery_action=args.celery_ms,
        redis_action=args.redis_ms,
        web_heartbeat=args.heartbeat_web_ms,
        redis_heartbeat=args.heartbeat_redis_ms,
        web_lobby=lobby[0],
        pg_lobby=lobby[1],
        web_board=board[0],
        pg_board=board[1],
    )
    per_game = demand(load, costs)
    print(f"per game: {load.actions:g} actions/s, {load.heartbeats:g} heartbeats/s, "
          f"{load.lobby_polls:.3f} lobby and {load.board_polls:.3f} leaderboard polls/s")  # fmt: skip
    print(
        "CPU ms per second per game: "
        + ", ".join(f"{t} {v * 1000:.2f}" for t, v in per_game.items())
    )
    print(f"each tier's cores at most {args.busy:.0%} busy")
    print(f"{'games':>9} | " + " | ".join(f"{UNITS[t]:>16}" for t in per_game))
    for games in args.games:
        need = plan(games, per_game, args.busy)
        print(f"{games:>9,} | " + " | ".join(f"{need[t]:>16,}" for t in per_game))
    # Every tier but one spreads over more machines: web processes, replicas, Redis shards, workers.
    # The primary takes every move's writes on one server, so its size bounds the site.
    limit = args.primary_cores * args.busy / per_game["postgresql primary"]
    print(f"saturates first: the PostgreSQL primary: one of {args.primary_cores} cores carries "
          f"{limit:,.0f} games; on one machine shared by all tiers, the web processes "
          f"({args.busy / per_game['web']:,.0f} games per core)")  # fmt: skip


if __name__ == "__main__":
    main()
