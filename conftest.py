"""Test session services: without REDIS_URL the session starts its own embedded Redis on a free port.

pytest-django has loaded the settings by the time this runs, so the Redis settings are re-pointed here,
before anything has opened a connection; the environment is updated too, for the daphne and Celery
processes that browser and integration tests start.

Under pytest-xdist (`make test-fast`, CI) the controller starts the embedded Redis (or takes REDIS_URL)
before it starts the workers, which inherit REDIS_URL. Each worker then moves to a Redis database of its
own, the base URL's number plus the worker's (gw0: +0, gw1: +1, ...), for the cache, the channel layer
and the Celery broker alike: a worker's `redis_client` flushes only its own database, and a task one
worker queues is never taken by another worker's test on another test database (pytest-django gives
each worker its own, suffixed _gw0, _gw1...).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent
_redis_proc = None


def worker_redis_url(url: str, worker: str) -> str:
    """The Redis URL for xdist worker `worker` ("gw3"): the same server, database base + 3."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}"))


def _point_at(url: str) -> None:
    from django.conf import settings

    from ludopat import celery_app
    from ludopat.settings import redis_settings

    os.environ["REDIS_URL"] = url
    for name, value in redis_settings(url).items():
        setattr(settings, name, value)
    celery_app.conf.broker_url = url


def _check_database(url: str) -> None:
    import redis

    try:
        with redis.Redis.from_url(url) as client:
            client.ping()
    except redis.ConnectionError:
        return  # the tests that need Redis say so, one by one
    except redis.ResponseError as exc:
        raise pytest.UsageError(
            f"this xdist worker's Redis database ({url}) does not exist on that server ({exc}): "
            "run fewer workers (-n) or start Redis with more databases"
        ) from exc


def pytest_configure(config: pytest.Config) -> None:
    global _redis_proc
    (ROOT / "var").mkdir(exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        url = worker_redis_url(os.environ["REDIS_URL"], worker)
        _check_database(url)
        _point_at(url)
        return
    if os.environ.get("REDIS_URL"):
        return
    from ludopat.embedded_redis import free_port, start

    port = free_port()
    _redis_proc = start(port)
    _point_at(f"redis://127.0.0.1:{port}/0")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _redis_proc is not None:
        _redis_proc.terminate()
        _redis_proc.wait(10)
