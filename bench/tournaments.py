"""How do many tournaments at once hold up? Sit-and-go tournaments played by the computer on the
production shape, watched live, and the coins counted afterwards.

    .venv/bin/python bench/tournaments.py --processes 2                 # 50 8-player tournaments
    .venv/bin/python bench/tournaments.py --processes 2 --tournaments 4 --size 4   # a short run

It starts the site as bench/live.py does (its own PostgreSQL database, DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ludopat_tournaments, created if missing, migrated and flushed; Redis
REDIS_URL, default redis://127.0.0.1:6379/7, flushed; `--processes` daphne processes, a Celery worker
and beat). It opens `--tournaments` tournaments of `--size` players and registers every player
through the tournaments' own service (accounts written directly, as bench/live.py's); nobody opens a
game page, so the computer plays every seat, one action per game every `--pace` seconds (2 s: the
pace of bench/live.py's games; LUDOPAT_AWAY_DELAY and LUDOPAT_BOT_DELAY in the processes'
environment). One watcher per tournament holds its bracket page's WebSocket, on the daphne
processes in turn.

Latency = from the commit of a match's last action (the Action row's time, written in the
transaction that decides the match) to the watcher receiving a bracket showing that match won.
Drift = coins that are not where they should be: the wallets' total before less the total after,
less the house's cut of the prizes paid and what pools still hold (0 is the pass mark); check_ledger's
problems are printed if there are any. The processes run bench/tournament_settings.py.

The last line: `tournaments: N finished, D coins drifted, p99 bracket update X ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import live  # noqa: E402  (bench/live.py: the stack, the database, the accounts)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/ludopat_tournaments"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/7"
WON_RE = re.compile(r'data-testid="match-(\d+)-(\d+)" data-status="(?:won|walkover)"')


async def watch(port: int, tournament_id: int, seen: dict, stop: asyncio.Event) -> None:
    """A bracket page: the first time each match shows as won, by the clock of this machine."""
    from websockets.asyncio.client import connect

    origin = f"http://127.0.0.1:{port}"
    async with connect(
        f"ws://127.0.0.1:{port}/ws/tournaments/{tournament_id}/",
        origin=origin,
        max_size=None,
        open_timeout=30,
    ) as ws:
        while not stop.is_set():
            try:
                async with asyncio.timeout(1):
                    message = await ws.recv()
            except TimeoutError:
                continue
            now = time.time()
            for match_round, slot in WON_RE.findall(str(message)):
                seen.setdefault((tournament_id, int(match_round), int(slot)), now)


def wallet_total() -> int:
    from django.db.models import Sum

    from accounts.ledger.models import LedgerAccount

    return (
        LedgerAccount.objects.filter(kind=LedgerAccount.Kind.WALLET).aggregate(t=Sum("balance"))[
            "t"
        ]
        or 0
    )


def open_wallets(people: list) -> None:
    from accounts.ledger.books import wallet_of

    for person in people:
        wallet_of(person.user_id)


def open_tournaments(people: list, count: int, size: int, buy_in: int) -> list[int]:
    from games.core.actors import Actor
    from games.tournaments.registration import do_register, open_tournament

    ids = []
    for n in range(count):
        tournament = open_tournament(size, buy_in)
        for person in people[n * size : (n + 1) * size]:
            do_register(Actor(person.user_id, person.key, person.username), tournament.pk)
        ids.append(tournament.pk)
    return ids


def finished_count(ids: list[int]) -> int:
    from games.tournaments.models import Tournament

    return Tournament.objects.filter(pk__in=ids, status=Tournament.Status.FINISHED).count()


def decided_at(ids: list[int]) -> dict[tuple[int, int, int], float]:
    """{(tournament, round, slot): time of the match's last action} for every match played."""
    from django.db.models import Max

    from games.models import Action
    from games.tournaments.models import TournamentMatch

    out = {}
    matches = TournamentMatch.objects.filter(tournament_id__in=ids, winner__isnull=False).exclude(
        game=None
    )
    last = dict(
        Action.objects.filter(game_id__in=matches.values("game_id"))
        .values_list("game_id")
        .annotate(at=Max("created"))
    )
    for match in matches:
        if match.game_id in last:
            out[(match.tournament_id, match.round, match.slot)] = last[match.game_id].timestamp()
    return out


def drift(wallets_before: int) -> tuple[int, list[str]]:
    """Coins not where they should be: every coin the wallets lost is in a pool or is the house's
    cut of a tournament's prizes (no coin enters or leaves otherwise during the run); and
    check_ledger's problems."""
    from django.db.models import Sum

    from accounts.ledger.checks import problems
    from accounts.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction

    cut = (
        LedgerEntry.objects.filter(
            transaction__kind=LedgerTransaction.Kind.PRIZE, account__kind=LedgerAccount.Kind.HOUSE
        ).aggregate(t=Sum("amount"))["t"]
        or 0
    )
    pools = (
        LedgerAccount.objects.filter(kind=LedgerAccount.Kind.POOL).aggregate(t=Sum("balance"))["t"]
        or 0
    )
    return abs(wallets_before - wallet_total() - cut - pools), problems()


async def run(args, stack: live.Stack) -> int:
    from asgiref.sync import sync_to_async

    people = await sync_to_async(live.make_people)(args.tournaments * args.size)
    await sync_to_async(open_wallets)(people)  # each with its grant, before the count
    before = await sync_to_async(wallet_total)()
    began = time.monotonic()
    ids = await sync_to_async(open_tournaments)(people, args.tournaments, args.size, args.buy_in)
    seen: dict = {}
    stop = asyncio.Event()
    watchers = [
        asyncio.create_task(watch(stack.ports[n % len(stack.ports)], tid, seen, stop))
        for n, tid in enumerate(ids)
    ]
    deadline = time.monotonic() + args.timeout
    done = 0
    while time.monotonic() < deadline:
        done = await sync_to_async(finished_count)(ids)
        if done == len(ids):
            break
        await asyncio.sleep(2)
    await asyncio.sleep(1)  # the last pushes
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    took = time.monotonic() - began
    committed = await sync_to_async(decided_at)(ids)
    latencies = [(seen[key] - at) * 1000 for key, at in committed.items() if key in seen]  # ms
    missed = len([key for key in committed if key not in seen])
    drifted, found = await sync_to_async(drift)(before)
    p50, p99 = live.percentile(latencies, 50), live.percentile(latencies, 99)
    print(
        f"{len(ids)} tournaments of {args.size}, {done} finished in {took:.0f} s; "
        f"{len(committed)} matches decided, {missed} never seen won by their watcher; bracket "
        f"update p50 {p50:.0f} ms, p99 {p99:.0f} ms; load average {live.loadavg()} on "
        f"{os.cpu_count()} CPUs"
    )
    for problem in found:
        print(f"ledger: {problem}")
    print(f"tournaments: {done} finished, {drifted} coins drifted, p99 bracket update {p99:.0f} ms")
    return 0 if done == len(ids) and drifted == 0 and not found else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="daphne processes")
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--size", type=int, default=8, choices=(4, 8, 16))
    parser.add_argument("--buy-in", type=int, default=100)
    parser.add_argument("--pace", type=float, default=2.0, help="s between a game's actions")
    parser.add_argument("--timeout", type=float, default=7200, help="s to wait for the finals")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    for url in (database_url, redis_url):
        live.local_only(url)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "bench.tournament_settings",
        "DEBUG": "0",
        "LUDOPAT_TEST_SEEDS": "0",
        # Nobody is at any seat: the computer plays each after the grace, then at this pace (an
        # absent player's seat is played as a computer's, after the computer's delay).
        "LUDOPAT_AWAY_DELAY": str(args.pace),
        "LUDOPAT_BOT_DELAY": str(args.pace),
        "LUDOPAT_TOURNAMENT_START_DELAY": "1",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    os.environ.update(env)
    logs = Path(tempfile.mkdtemp(prefix="ludopat-bench-tournaments-"))
    live.prepare_database(env)
    import django

    django.setup()
    live.flush(env)
    stack = live.Stack("daphne", args.processes, env, logs)
    print(f"{os.cpu_count()} CPUs; {args.processes} daphne processes; logs in {logs}", flush=True)
    try:
        stack.start()
        return asyncio.run(run(args, stack))
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())
