"""How late do timeouts fire? 200 concurrent timed `twodice` rooms whose players stay connected and never
act: every roll and move is played by the bot when its deadline passes (three timeouts in a row, then
"away": the bot plays after the short away delay). Each bot action stores the deadline it answered;
lateness = the action's commit-time `created` minus that deadline.

    python bench/timers.py                       # 200 games, 10 s timer, 60 s of play
    python bench/timers.py --games 50 --seconds 30 --timer 10 --concurrency 4

It starts its own embedded Redis (ludopat.embedded_redis), uses DATABASE_URL if set (else a fresh SQLite
file var/bench-timers.sqlite3), migrates it, and starts a Celery worker and beat with the site's settings
(production timer values; the sweeper every 2 s). The last line is `lateness p50=X p99=Y max=Z` (s).
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--timer", type=int, default=10, choices=(10, 15, 30))
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="play time after the last start"
    )
    # Twice the CPUs: a task mostly waits (database lock, Redis); with one process per CPU, bursts of
    # deadlines queue behind each other (p99 ~1 s instead of ~0.02 s on 2 CPUs).
    parser.add_argument("--concurrency", type=int, default=2 * (os.cpu_count() or 1))
    args = parser.parse_args()

    from ludopat import embedded_redis

    port = embedded_redis.free_port()
    redis_proc = embedded_redis.start(port)
    redis_url = f"redis://127.0.0.1:{port}/0"
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        db = ROOT / "var" / "bench-timers.sqlite3"
        db.parent.mkdir(exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        database_url = f"sqlite:///{db}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "ludopat.settings",
        "LUDOPAT_TEST_SEEDS": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    os.environ.update(env)
    procs: list[subprocess.Popen] = []
    logs = Path(tempfile.mkdtemp(prefix="ludopat-bench-timers-"))
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        import django

        django.setup()
        from django.db import connection

        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA journal_mode=WAL")
        celery = str(BIN / "celery")
        commands = {
            "worker": [celery, "-A", "ludopat", "worker", "--loglevel", "WARNING",
                       "--concurrency", str(args.concurrency), "--without-gossip",
                       "--without-mingle", "--without-heartbeat", "-n", "bench@%h"],
            "beat": [celery, "-A", "ludopat", "beat", "--loglevel", "WARNING",
                     "--schedule", str(logs / "celerybeat-schedule")],
        }  # fmt: skip
        for name, cmd in commands.items():
            handle = (logs / f"{name}.log").open("wb")
            procs.append(
                subprocess.Popen(
                    cmd, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )  # fmt: skip
        time.sleep(3)  # the worker's pool forks; tasks sent meanwhile wait in the queue anyway
        return run(args, logs)
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        redis_proc.terminate()
        redis_proc.wait(10)


def run(args, logs: Path) -> int:
    from django.contrib.auth import get_user_model

    from games import actions
    from games.actions import Actor, SeatSpec, TimerSpec
    from games.models import Action, Game, Seat

    users = get_user_model().objects
    made = users.bulk_create(
        [get_user_model()(username=f"bench{n}") for n in range(2 * args.games)]
    )
    if made[0].pk is None:  # backends that don't return ids
        made = list(users.filter(username__startswith="bench").order_by("pk"))
    people = [Actor(u.pk, f"bench-key-{u.pk}", u.username) for u in made]

    print(f"creating {args.games} timed twodice rooms ({args.timer} s per action)...", flush=True)
    started = time.monotonic()
    game_ids = []
    for n in range(args.games):
        host, guest = people[2 * n], people[2 * n + 1]
        game = actions.create_game(
            host,
            "friends",
            "twodice",
            {},
            [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
            TimerSpec(args.timer),
        )
        actions.do_join(game.pk, guest)
        connect(game.pk)
        actions.do_start(game.pk, host)
        game_ids.append(game.pk)
    print(
        f"  started in {time.monotonic() - started:.1f} s; playing {args.seconds:.0f} s", flush=True
    )

    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        time.sleep(min(20.0, max(0.0, end - time.monotonic())))
        for game_id in game_ids:  # the players' pages' heartbeats: they stay "connected"
            connect(game_id)

    rows = list(
        Action.objects.filter(game_id__in=game_ids, deadline__isnull=False)
        .exclude(auto="")
        .values_list("auto", "created", "deadline")
    )
    late = [(c - d).total_seconds() for _, c, d in rows]
    by_kind: dict[str, list[float]] = {}
    for (auto, _created, _deadline), value in zip(rows, late, strict=True):
        by_kind.setdefault(auto, []).append(value)
    own = Action.objects.filter(game_id__in=game_ids, kind__in=["roll", "move"], auto="").count()
    pending = Game.objects.filter(pk__in=game_ids, deadline__lt=_now()).count()
    print()
    print(f"games: {args.games}, worker concurrency: {args.concurrency}, cpus: {os.cpu_count()}")
    print(f"bot actions for players who never act: {len(late)} (own actions: {own})")
    for auto, values in sorted(by_kind.items()):
        print(
            f"  {auto:8} n={len(values):5d}  p50={percentile(values, 50):.3f}  "
            f"p90={percentile(values, 90):.3f}  p99={percentile(values, 99):.3f}  "
            f"max={max(values):.3f}  early(min)={min(values):.3f}"
        )
    print(f"deadlines past and not yet acted on when the run stopped: {pending}")
    print(f"worker and beat logs: {logs}")
    print("reproduce: " + " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]))
    print(
        f"lateness p50={percentile(late, 50):.3f} p99={percentile(late, 99):.3f} "
        f"max={max(late) if late else float('nan'):.3f}"
    )
    return 0


def connect(game_id: str) -> None:
    from games.core import presence
    from games.models import Seat

    ids = list(Seat.objects.filter(game_id=game_id).values_list("pk", flat=True))
    presence.touch(game_id, ids, "bench-page")


def _now():
    from django.utils import timezone

    return timezone.now()


if __name__ == "__main__":
    sys.exit(main())
