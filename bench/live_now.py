"""What the Live now list costs as public tables grow: the query that picks and ranks the page's tables,
and the list's render, on PostgreSQL.

    .venv/bin/python bench/live_now.py                     # 2,000 tables in play
    .venv/bin/python bench/live_now.py --tables 10000 --requests 100

The database is DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/ludopat_live_now), dropped
and created anew, then migrated. It holds `--tables` public 4-seat tables in play (ratings around 1500,
a few computers, states part-way) and as many finished ones, with a few moves each, written in bulk.
Then `--requests` timed calls of `live_tables()` (the ranking query, the seats, the moves) and of the
whole list's render, after a warm-up: median and p99 in ms, and the load average. The site asks this
once per LIST_SECONDS (5) whatever the visitors (games/web/live_now_views.py keeps the render in the
cache), so it is a cost per site, not per page.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/ludopat_live_now"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/4"
COLOURS = ["red", "green", "yellow", "blue"]


def create_database(url: str) -> None:
    """The bench's own database, made anew; refuses the shared ones."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if name in ("postgres", "test", "template0", "template1") or name.startswith("test_"):
        raise SystemExit(f"bench/live_now.py drops its database: give it its own, not {name!r}")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def fill(tables: int, rng: random.Random) -> None:
    from django.contrib.auth import get_user_model

    from games.models import Action, Game, Seat

    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"p{i}") for i in range(tables * 4)]
    )
    games, seats, moves = [], [], []
    for n in range(tables * 2):
        playing = n % 2 == 0
        tokens = {c: sorted(rng.choice([-1, -1, 5, 20, 40, 56]) for _ in range(4)) for c in COLOURS}
        game = Game(
            mode=Game.Mode.FRIENDS,
            ruleset="classic",
            public=True,
            status=Game.Status.PLAYING if playing else Game.Status.FINISHED,
            players=[[c] for c in COLOURS],
            state={"players": [[c] for c in COLOURS], "turn": n % 4, "tokens": tokens},
            timer_seconds=15,
            server_seed="ab" * 32,
            server_seed_sha256="cd" * 32,
        )
        games.append(game)
    Game.objects.bulk_create(games, batch_size=2000)
    for n, game in enumerate(games):
        for index, colour in enumerate(COLOURS):
            computer = rng.random() < 0.05
            user = None if computer else users[(n // 2 * 4 + index) % len(users)]
            seats.append(
                Seat(
                    game=game,
                    index=index,
                    colours=[colour],
                    kind=Seat.Kind.COMPUTER if computer else Seat.Kind.HUMAN,
                    user=user,
                    rating=None if computer else int(rng.gauss(1500, 150)),
                )
            )
        for seq in range(1, 9):
            moves.append(Action(game=game, round=1, seq=seq, kind=Action.Kind.MOVE))
    Seat.objects.bulk_create(seats, batch_size=5000)
    Action.objects.bulk_create(moves, batch_size=5000)


def timed(call, requests: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        call()
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000, help="public tables in play")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ.setdefault("REDIS_URL", DEFAULT_REDIS_URL)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludopat.settings")
    os.environ["DEBUG"] = "0"
    create_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    from django.core.management import call_command

    from games.reads.live_now import live_tables
    from games.web.live_now_views import _tables_html

    call_command("migrate", verbosity=0)
    fill(args.tables, random.Random(7))
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # the planner sees the fill
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{args.tables:,} public tables in play, {args.tables:,} finished")
    for name, call in (("live_tables()", live_tables), ("the list's render", _tables_html)):
        times = timed(call, args.requests, args.warmup)
        p99 = sorted(times)[max(0, round(len(times) * 0.99) - 1)]
        print(f"{name:20} median {statistics.median(times):6.1f} ms   p99 {p99:6.1f} ms")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
