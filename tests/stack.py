"""What the tests that start real processes (daphne, Celery worker and beat) share: where things are,
and the environment that points those processes at the test session's database and Redis.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
LOGS = ARTIFACTS / "logs"
BIN = Path(sys.executable).parent


def database_url() -> str:
    """A URL for the test database pytest-django created (connection settings now name it)."""
    from django.db import connection

    conf = connection.settings_dict
    engine = conf["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        return f"sqlite:///{conf['NAME']}"
    if engine in ("django.db.backends.postgresql", "django.contrib.gis.db.backends.postgis"):
        user = quote(conf.get("USER") or "", safe="")
        password = quote(conf.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = conf.get("HOST") or "127.0.0.1"
        port = f":{conf['PORT']}" if conf.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{conf['NAME']}"
    raise RuntimeError(f"tests don't know how to share a {engine} test database")


def use_wal() -> None:
    """SQLite: readers never block the writer, so a subprocess reading doesn't stall a test writing."""
    from django.db import connection

    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
        connection.close()


def service_env(
    settings_module: str, django_db_blocker, *, channel_layer_urls: list[str] | None = None
) -> dict[str, str]:
    """The environment for a subprocess of the site on the test database and the session's Redis;
    `channel_layer_urls`: the Redis servers its channel layer alone is sharded over."""
    with django_db_blocker.unblock():
        use_wal()
        url = database_url()
    LOGS.mkdir(parents=True, exist_ok=True)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "CHANNEL_LAYER_REDIS_URLS")
    }
    if channel_layer_urls:
        env["CHANNEL_LAYER_REDIS_URLS"] = ",".join(channel_layer_urls)
    env.update(
        DATABASE_URL=url,
        REDIS_URL=os.environ["REDIS_URL"],
        LUDOPAT_TEST_SEEDS="1",
        DJANGO_SETTINGS_MODULE=settings_module,
        PYTHONUNBUFFERED="1",
        # This checkout's code, whichever checkout the editable install points at.
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    return env


def quiesce_games(settle: float = 0.5, quiet: float = 0.1) -> None:
    """Stop every clock and computer before a test's tables are emptied.

    A Celery worker still playing for a timed seat holds row locks; on PostgreSQL emptying the tables
    then waits for it, or deadlocks with it. Abandoned games with no deadline give the worker, the beat sweeper and any
    scheduled task nothing to do; a task already past its checks is let commit: on PostgreSQL until no
    other session on the test database has been inside a transaction for `quiet` seconds (at most
    `settle` seconds in all), elsewhere for `settle` seconds.
    """
    import time

    from django.db import connection

    from games.models import Game

    Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.PLAYING]).update(
        status=Game.Status.ABANDONED, deadline=None
    )
    if connection.vendor != "postgresql":
        time.sleep(settle)
        return
    now = time.monotonic()
    end, calm_since = now + settle, now
    while (now := time.monotonic()) < end and now - calm_since < quiet:
        if _others_in_a_transaction():
            calm_since = now
        time.sleep(0.02)


def _others_in_a_transaction() -> bool:
    """Whether another session on this database (a worker's task, a request) has a transaction open:
    its locks are still held, and anything it writes lands after the test's end."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
        )
        return cursor.fetchone()[0] > 0
