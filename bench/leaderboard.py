"""Do the leaderboard and player pages stay fast as history grows? Server time, on PostgreSQL.

    .venv/bin/python bench/leaderboard.py                    # 100,000 rounds among 50,000 players
    .venv/bin/python bench/leaderboard.py --rounds 1000000   # 1,000,000 rounds, against 100,000
    .venv/bin/python bench/leaderboard.py --rounds 5000 --baseline 1000 --requests 50   # a quick run
    .venv/bin/python bench/leaderboard.py --rounds 1000000 --reuse   # time again over the last fills

Each size of history has a PostgreSQL database of its own, named after DATABASE_URL's (default
postgres://postgres@127.0.0.1:5432/ludopat_lb) with the size added (`ludopat_lb_100000`,
`ludopat_lb_1000000`), dropped and created anew, then migrated, unless `--reuse` (which migrates the
last fill instead). Redis: REDIS_URL, default redis://127.0.0.1:6379/4. Each fill writes the accounts,
then its rounds spread over the last 20 weeks (mixed rule sets, 2 to 4 seats, some of them computers,
some resigned, wiped or voided), with the rows `leaderboard.results.write_rounds` (the code
`finish_round` uses) would write for them, by COPY (bench/history_seed.py; before each fill it writes
1,000 rounds both ways and compares every leaderboard table). Who plays is skewed as on a real site: a
few accounts play a great deal (the busiest has a few percent of all rounds), most a handful of rounds.

Then one process per size (Django's test client: the server time of a request, from middleware to
rendered HTML, as the median player logged in) answers every page kind in PAGE_KINDS: after a warm-up,
`--requests` requests per kind and size, in blocks that alternate between the sizes, so a change in the
machine's load falls on both alike. It prints median and p99 per kind and size, the ratio of the p99s,
and ends with `leaderboard p99=X ms worst over N rounds (ratio Q vs B)`: X the worst p99 at the largest
size, Q the worst ratio of any kind (targets: X under 100 ms, under 50 at 100,000 rounds; Q at most 1.5).
A new page kind is one more entry in PAGE_KINDS.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/ludopat_lb"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/4"
CHECK_ROUNDS = 1000  # written both ways before each fill (history_seed.check)
BLOCKS = 3  # each kind's requests per size come in this many blocks, alternating between sizes
P99_LIMIT_MS = 100.0
P99_LIMIT_BASELINE_MS = 50.0  # at 100,000 rounds
RATIO_LIMIT = 1.5
BOARDS = [
    (board, ruleset)
    for board in ("people", "all")
    for ruleset in ("all", "classic", "duel", "places", "twodice")
]


@dataclass(frozen=True)
class Sample:
    """Who the page kinds ask about, found in each size's own fill."""

    median: str  # the player with the median number of rounds (the one logged in)
    busiest: str  # the player with the most rounds
    busiest_pages: int  # how many pages of rounds the busiest has
    players: int


@dataclass(frozen=True)
class PageKind:
    name: str
    path: Callable[[Sample, int, random.Random], str]  # (sample, request number, rng) -> URL


def board(period: str) -> Callable[[Sample, int, random.Random], str]:
    """Every board x rule set of a window, in turn."""

    def path(_: Sample, n: int, __: random.Random) -> str:
        which, ruleset = BOARDS[n % len(BOARDS)]
        return f"/leaderboard/?period={period}&board={which}&ruleset={ruleset}"

    return path


def search(sample: Sample, _: int, rng: random.Random) -> str:
    # A name less its last digit: finds ten players, wherever they rank.
    return f"/leaderboard/?period=all&q=player{rng.randrange(sample.players):05d}"[:-1]


PAGE_KINDS: list[PageKind] = [
    PageKind("board: this week", board("week")),
    PageKind("board: this month", board("month")),
    PageKind("board: all time", board("all")),
    PageKind("board: last week", board("last-week")),
    PageKind("board: last month", board("last-month")),
    PageKind(
        "board: all time, page 40", lambda s, n, r: "/leaderboard/?period=all&board=all&page=40"
    ),
    PageKind("board: search", search),
    PageKind("board: jump to my rank", lambda s, n, r: "/leaderboard/?period=all&board=all&me=1"),
    PageKind("player: median player", lambda s, n, r: f"/u/{s.median}/"),
    PageKind("player: median player, page 2", lambda s, n, r: f"/u/{s.median}/?page=2"),
    PageKind("player: most rounds", lambda s, n, r: f"/u/{s.busiest}/"),
    PageKind("player: most rounds, page 2", lambda s, n, r: f"/u/{s.busiest}/?page=2"),
    PageKind(
        "player: most rounds, last page",
        lambda s, n, r: f"/u/{s.busiest}/?page={s.busiest_pages}",
    ),
    PageKind("board: ratings, twodice", lambda s, n, r: "/leaderboard/?rating=twodice"),
    PageKind("home (week top 5)", lambda s, n, r: "/"),
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --- the parent: one process per size, timed in alternating blocks -------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--baseline", type=int, default=100_000, help="the size to compare with")
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument(
        "--requests", type=int, default=300, help="timed requests per kind and size"
    )
    parser.add_argument("--warmup", type=int, default=30, help="untimed requests per kind first")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="time the pages over the last fills")
    parser.add_argument("--kinds", default="", help="time only the kinds whose name holds this")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args)

    base_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    sizes = sorted({args.baseline, args.rounds}) if args.baseline < args.rounds else [args.rounds]
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    servers, samples = {}, {}
    for size in sizes:  # one fill at a time: the machine's cores are few and shared
        servers[size], samples[size] = start_server(args, size, database_url(base_url, size))
    for size, sample in samples.items():
        print(
            f"{size:,} rounds: median player {sample['median']} ({sample['median_rounds']} rounds), "
            f"most rounds {sample['busiest']} ({sample['busiest_rounds']:,} rounds, "
            f"{sample['busiest_pages']} pages){sample['filled']}",
            flush=True,
        )

    print(f"load average before timing: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    heads = "".join(f" {f'{size:,}: p50':>13} {'p99':>6} {'cpu':>5}" for size in sizes)
    print(f"{'page kind':34}{heads}{'  ratio' if len(sizes) > 1 else ''}")
    print(f"{'':34}(ms of server time, {args.requests} requests per kind and size; cpu: median)")
    worst, worst_ratio = 0.0, 0.0
    block = max(1, args.requests // BLOCKS)
    for index, kind in enumerate(PAGE_KINDS):
        if args.kinds not in kind.name:
            continue
        times: dict[int, list[float]] = {size: [] for size in sizes}
        cpus: dict[int, list[float]] = {size: [] for size in sizes}
        for server in servers.values():
            ask(server, index, args.warmup, first=0)
        done = 0
        while done < args.requests:
            count = min(block, args.requests - done)
            for size, server in servers.items():
                wall, cpu = ask(server, index, count, first=args.warmup + done)
                times[size] += wall
                cpus[size] += cpu
            done += count
        p99 = {size: percentile(times[size], 99) for size in sizes}
        line = "".join(
            f" {statistics.median(times[s]):13.1f} {p99[s]:6.1f} {statistics.median(cpus[s]):5.1f}"
            for s in sizes
        )
        ratio = p99[sizes[-1]] / p99[sizes[0]]
        worst = max(worst, p99[sizes[-1]])
        worst_ratio = max(worst_ratio, ratio)
        print(f"{kind.name:34}{line}{f'  {ratio:5.2f}' if len(sizes) > 1 else ''}", flush=True)
    for server in servers.values():
        server.stdin.close()
        server.wait()
    print(f"load average after timing: {os.getloadavg()[0]:.1f}")

    limit = P99_LIMIT_BASELINE_MS if sizes[-1] <= 100_000 else P99_LIMIT_MS
    if len(sizes) > 1:
        print(
            f"leaderboard p99={worst:.1f} ms worst over {sizes[-1]} rounds "
            f"(ratio {worst_ratio:.2f} vs {sizes[0]})"
        )
        return 0 if worst < limit and worst_ratio <= RATIO_LIMIT else 1
    print(f"leaderboard p99={worst:.1f} ms worst over {sizes[-1]} rounds")
    return 0 if worst < limit else 1


def database_url(base: str, size: int) -> str:
    parts = urlsplit(base)
    return parts._replace(path=f"{parts.path.rstrip('/')}_{size}").geturl()


def start_server(
    args: argparse.Namespace, size: int, url: str
) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """A process that fills (or reuses) this size's database; returns it once it is ready to time,
    with what it found (who the page kinds ask about)."""
    command = [sys.executable, __file__, "--serve", "--rounds", str(size)]
    command += ["--players", str(args.players), "--seed", str(args.seed)]
    command += ["--reuse"] if args.reuse else []
    env = {**os.environ, "DATABASE_URL": url}
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1
    )
    line = server.stdout.readline()
    if not line:
        raise SystemExit(f"the bench process for {size:,} rounds ended before it was ready")
    return server, json.loads(line)


def ask(server: subprocess.Popen[str], kind: int, count: int, first: int) -> tuple[list, list]:
    server.stdin.write(json.dumps({"kind": kind, "count": count, "first": first}) + "\n")
    answer = server.stdout.readline()
    if not answer:
        raise SystemExit("a bench process ended while timing")
    found = json.loads(answer)
    if "error" in found:
        raise SystemExit(found["error"])
    return found["wall"], found["cpu"]


# --- a server: one size's database, its fill and its timings ---------------------------------------------


def serve(args: argparse.Namespace) -> int:
    """Fill (or reuse) this size's database, tell the parent who to ask about, then time what it asks."""
    os.environ.setdefault("REDIS_URL", DEFAULT_REDIS_URL)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludopat.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    os.environ["DEBUG"] = "0"
    protocol = sys.stdout
    sys.stdout = sys.stderr  # progress goes to the terminal; the parent reads answers only
    if not args.reuse:
        create_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    from django.core.management import call_command
    from django.urls import get_resolver

    assert get_resolver().url_patterns  # import every view now, not after the long fill
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    name = urlsplit(os.environ["DATABASE_URL"]).path.lstrip("/")
    filled = ""
    if args.reuse:
        from games.models import Round

        if Round.objects.count() != args.rounds:
            raise SystemExit(f"{name} has no fill of {args.rounds} rounds: run without --reuse")
        print(f"{name}: reusing {args.rounds:,} rounds", flush=True)
    else:
        from history_seed import check, plan_rounds, write_fast

        users = make_players(args.players)
        checked = check(users, CHECK_ROUNDS, args.seed)
        print(f"{name}: the fast fill writes what write_rounds does ({checked:.0f} s)", flush=True)
        started = time.perf_counter()
        write_fast(plan_rounds(rng, users, args.rounds), say=lambda line: print(name, line))
        fill_ratings(rng, users)
        took = time.perf_counter() - started
        vacuum_analyze()
        filled = (
            f", filled in {took:.0f} s (and {time.perf_counter() - started - took:.0f} s ANALYZE)"
        )
    sample = find_sample(args.players)
    # Timed as a server process runs (ludopat/asgi.py): what is loaded by now, the fill's leftovers
    # included, is moved out of the collector's reach, so a full collection in a timed request walks
    # only what requests made, as it does on the site.
    gc.collect()
    gc.freeze()
    from django.test import Client

    from accounts.models import User

    client = Client()
    log_in(client, User.objects.get(username=sample.median))
    protocol.write(
        json.dumps({**sample.__dict__, **sample_rounds(sample), "filled": filled}) + "\n"
    )
    protocol.flush()
    for line in sys.stdin:
        order = json.loads(line)
        kind = PAGE_KINDS[order["kind"]]
        wall, cpu = [], []
        for n in range(order["first"], order["first"] + order["count"]):
            path = kind.path(sample, n, random.Random(n))
            began, began_cpu = time.perf_counter(), time.process_time()
            response = client.get(path)
            wall.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - began_cpu) * 1000)
            if response.status_code not in (200, 302):
                error = f"{path} answered {response.status_code} over {args.rounds} rounds"
                protocol.write(json.dumps({"error": error}) + "\n")
                protocol.flush()
                return 1
        protocol.write(json.dumps({"wall": wall, "cpu": cpu}) + "\n")
        protocol.flush()
    return 0


def create_database(url: str) -> None:
    """The bench's own database, made anew (dropped first if it exists): every run starts from the
    migrations as they are now. Refuses the shared `postgres` and `test` databases."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if name in ("postgres", "test", "template0", "template1") or name.startswith("test_"):
        raise SystemExit(f"bench/leaderboard.py drops its database: give it its own, not {name!r}")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def make_players(count: int) -> list:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    user_model.objects.bulk_create(
        [user_model(username=f"player{n:05d}", password="!") for n in range(count)],
        batch_size=5000,
    )
    return list(user_model.objects.order_by("pk"))


def fill_ratings(rng: random.Random, users: list) -> None:
    """A rating per player and rule set, and on each rated result, as many rounds would leave them:
    the rating board reads an index range of these rows and the player page a player's rated
    results, whose cost depends on how many there are, not on how they were made (rating a million
    rounds one by one, as `recompute_ratings` does, would take most of an hour)."""
    from django.utils import timezone

    from games.models import RULESETS
    from leaderboard.models import Rating
    from leaderboard.ratings import scale

    now = timezone.now()
    rows = []
    for user in users:
        for ruleset, _label in RULESETS:
            mu, sigma = rng.gauss(25, 4), rng.uniform(2.5, 8.3)
            rows.append(
                Rating(
                    user=user,
                    ruleset=ruleset,
                    mu=mu,
                    sigma=sigma,
                    value=scale.shown(mu),
                    games=rng.randint(1, 400),
                    last_played=now - timedelta(days=rng.randint(0, 120)),
                )
            )
    Rating.objects.bulk_create(rows, batch_size=5000)
    # And every result that rates (counted, against people) with the rating it left, as `rate_round`
    # stores it: the player page charts these. Made up from the id (the chart's cost is in how many
    # there are, not in their values).
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE leaderboard_result SET rating_mu = 20 + (id % 97) / 10.0,"
            " rating_sigma = 2.5 + (id % 59) / 10.0, rating_change = (id % 41) - 20"
            " WHERE counted AND against_people AND user_id IS NOT NULL"
        )


def vacuum_analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # what autovacuum does on a live site after the writes


def find_sample(players: int) -> Sample:
    from leaderboard.models import PlayerHistory
    from leaderboard.player import PER_PAGE

    histories = PlayerHistory.objects.select_related("user").order_by("rounds", "user_id")
    played = histories.count()
    median = histories[played // 2]
    busiest = histories.last()
    return Sample(
        median=median.user.username,
        busiest=busiest.user.username,
        busiest_pages=(busiest.rounds + PER_PAGE - 1) // PER_PAGE,
        players=players,
    )


def sample_rounds(sample: Sample) -> dict[str, int]:
    from leaderboard.models import PlayerHistory

    def rounds(username: str) -> int:
        return PlayerHistory.objects.get(user__username=username).rounds

    return {"median_rounds": rounds(sample.median), "busiest_rounds": rounds(sample.busiest)}


def log_in(client: Any, user: Any) -> None:
    """A logged-in session written directly (`force_login` would ask axes for a client address)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key


if __name__ == "__main__":
    sys.exit(main())
