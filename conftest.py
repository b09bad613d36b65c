"""Test session services: without REDIS_URL the session starts its own embedded Redis on a free port.

pytest-django has loaded the settings by the time this runs, so the Redis settings are re-pointed here,
before anything has opened a connection; the environment is updated too, for the daphne and Celery
processes that browser and integration tests start.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_redis_proc = None


def pytest_configure(config: pytest.Config) -> None:
    global _redis_proc
    (ROOT / "var").mkdir(exist_ok=True)
    if os.environ.get("REDIS_URL"):
        return
    from django.conf import settings

    from ludopat import celery_app
    from ludopat.embedded_redis import free_port, start
    from ludopat.settings import redis_settings

    port = free_port()
    _redis_proc = start(port)
    url = f"redis://127.0.0.1:{port}/0"
    os.environ["REDIS_URL"] = url
    for name, value in redis_settings(url).items():
        setattr(settings, name, value)
    celery_app.conf.broker_url = url


def pytest_unconfigure(config: pytest.Config) -> None:
    if _redis_proc is not None:
        _redis_proc.terminate()
        _redis_proc.wait(10)
