"""Does the coin ledger stay exact under load? Cycles of "open a staked room, join it, resign" from
concurrent worker processes over a fixed pool of accounts, against PostgreSQL, then check_ledger.

    python bench/ledger.py                                  # 10,000 cycles, 8 workers, 64 accounts
    python bench/ledger.py --cycles 1000 --workers 4

It uses its own database (dropped and created anew: --database-url, default
postgres://postgres@127.0.0.1:5432/ludopat_bench_ledger) and its own embedded Redis (the broker the
games' timers are queued on; no worker runs them). Workers pick a random host and guest from the pool, so
wallets are contended: a host who already has an open room (another worker's cycle) is refused and the
cycle is tried with another pair. The last line is `ledger: N cycles, R cycles/s, D coins drifted`, where
D adds up every coin the ledger can't account for (unbalanced transactions, cached balances that differ
from their entries, a house that didn't get exactly the rake of every pot); it must be 0.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/ludopat_bench_ledger"
EXTRA_COINS = 10_000  # each account's adjustment on top of the grant, so nobody runs dry


def setup_django(database_url: str, redis_url: str) -> None:
    os.environ.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="ludopat.settings",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()


def recreate_database(database_url: str) -> None:
    import psycopg

    url = urlparse(database_url)
    name = url.path.lstrip("/")
    if name in ("postgres", "test", ""):
        raise SystemExit(f"refusing to drop the shared database {name!r}: name one of your own")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def make_pool(size: int) -> list[tuple[int, str]]:
    from datetime import timedelta

    from django.utils import timezone

    from accounts.ledger.adjustments import adjust_coins
    from accounts.models import User

    pool = []
    for i in range(size):
        user = User.objects.create_user(f"bench{i}")
        adjust_coins(user.pk, EXTRA_COINS, "Bench float")
        pool.append((user.pk, user.username))
    User.objects.update(date_joined=timezone.now() - timedelta(days=2))
    return pool


def worker(args) -> tuple[int, int, int]:
    """Run `cycles` cycles; (cycles done, refusals retried, errors)."""
    database_url, redis_url, pool, cycles, stake, seed = args
    setup_django(database_url, redis_url)
    from games import actions
    from games.core.actors import Actor
    from games.core.errors import Conflict, GameError
    from games.staking.rooms import (
        do_cancel_staked_room,
        do_create_staked_room,
        do_join_staked_room,
    )

    rng = random.Random(seed)
    done = refused = errors = 0
    while done < cycles:
        (host_id, host_name), (guest_id, guest_name) = rng.sample(pool, 2)
        host = Actor(host_id, f"bench-key-{host_id}", host_name)
        guest = Actor(guest_id, f"bench-key-{guest_id}", guest_name)
        try:
            game = do_create_staked_room(host, "twodice", stake, 15)
        except GameError:
            refused += 1  # this host's room or game from another worker is still on
            continue
        try:
            do_join_staked_room(guest, game.pk)
            actions.do_resign(game.pk, rng.choice([host, guest]))
            done += 1
        except Conflict:  # the guest's room or game from another worker: one at a time
            refused += 1
            do_cancel_staked_room(host, game.pk)
        except GameError:
            errors += 1
            do_cancel_staked_room(host, game.pk)
    from django.db import connections

    connections.close_all()
    return done, refused, errors


def drift(cycles: int, stake: int) -> tuple[int, list[str]]:
    from django.db.models import Sum

    from accounts.ledger import checks, rules
    from accounts.ledger.models import LedgerAccount, LedgerEntry

    problems = checks.problems()
    total = abs(LedgerEntry.objects.aggregate(s=Sum("amount"))["s"] or 0)
    cached = 0
    for account in LedgerAccount.objects.filter(kind__in=LedgerAccount.CACHED):
        summed = account.entries.aggregate(s=Sum("amount"))["s"] or 0
        cached += abs(account.balance - summed)
    house = LedgerEntry.objects.filter(account__kind="house").aggregate(s=Sum("amount"))["s"] or 0
    house_off = abs(house - rules.rake_of(2 * stake) * cycles)
    return total + cached + house_off, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--accounts", type=int, default=64)
    parser.add_argument("--stake", type=int, default=10)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    args = parser.parse_args()
    if not args.database_url.startswith("postgres"):
        raise SystemExit("bench/ledger.py measures PostgreSQL: give a postgres:// --database-url")

    from ludopat import embedded_redis

    port = embedded_redis.free_port()
    redis_proc = embedded_redis.start(port)
    redis_url = f"redis://127.0.0.1:{port}/0"
    try:
        recreate_database(args.database_url)
        setup_django(args.database_url, redis_url)
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        pool = make_pool(args.accounts)
        from django.db import connections

        connections.close_all()
        shares = [args.cycles // args.workers] * args.workers
        for i in range(args.cycles % args.workers):
            shares[i] += 1
        jobs = [
            (args.database_url, redis_url, pool, share, args.stake, seed)
            for seed, share in enumerate(shares)
        ]
        print(
            f"{args.cycles:,} cycles of create, join, resign at {args.stake} coins: "
            f"{args.workers} workers, {args.accounts} accounts"
        )
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(args.workers) as workers:
            results = workers.map(worker, jobs)
        elapsed = time.perf_counter() - started
        cycles = sum(r[0] for r in results)
        refused = sum(r[1] for r in results)
        errors = sum(r[2] for r in results)
        print(
            f"{elapsed:.1f} s; {refused:,} creates or joins refused (a player busy), {errors:,} joins failed"
        )
        from django.core.management import CommandError

        started = time.perf_counter()
        try:
            call_command("check_ledger")
        except CommandError as failure:
            print(failure)
        print(f"check_ledger: {time.perf_counter() - started:.1f} s")
        drifted, problems = drift(cycles, args.stake)
        for problem in problems:
            print(f"PROBLEM: {problem}")
        rate = cycles / elapsed if elapsed else 0.0
        print(f"ledger: {cycles} cycles, {rate:.1f} cycles/s, {drifted} coins drifted")
        return 0 if drifted == 0 and not problems and not errors else 1
    finally:
        redis_proc.terminate()
        redis_proc.wait(10)


if __name__ == "__main__":
    sys.exit(main())
