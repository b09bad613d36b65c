"""The load balancer's probes (ludopat/health.py, ludopat/ops_views.py): live answers, ready says 503
only without the database, and Redis or Celery missing is 'degraded' with a 200, answered fast even
when Redis doesn't answer at all."""

from __future__ import annotations

import socket
import time

import pytest
from django.db import connections

from games import tasks
from ludopat import health
from ludopat.embedded_redis import free_port

pytestmark = pytest.mark.django_db


def ready(client) -> tuple[int, dict]:
    response = client.get("/health/ready")
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def test_live_answers_200(client):
    response = client.get("/health/live")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_ready_is_ok_with_everything_up_and_a_sweep_just_run(client, redis_client):
    tasks.sweep_deadlines()  # what beat has a worker run every 2 s
    assert ready(client) == (
        200,
        {"status": "ok", "checks": {"database": "ok", "redis": "ok", "celery": "ok"}},
    )


def test_ready_is_degraded_when_no_sweep_ran_lately(client, redis_client):
    assert ready(client) == (
        200,
        {"status": "degraded", "checks": {"database": "ok", "redis": "ok", "celery": "no sweep"}},
    )


def test_ready_is_degraded_not_down_with_redis_unreachable(client, redis_down):
    status, body = ready(client)
    assert status == 200
    assert body == {
        "status": "degraded",
        "checks": {"database": "ok", "redis": "down", "celery": "unknown"},
    }


@pytest.fixture
def silent_redis(settings):
    """A 'Redis' that accepts connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    settings.REDIS_URL = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    yield
    listener.close()


def test_a_redis_that_never_answers_costs_the_probe_about_a_second(client, silent_redis):
    started = time.monotonic()
    status, body = ready(client)
    took = time.monotonic() - started
    assert status == 200 and body["checks"]["redis"] == "down"
    assert took < 1 + health.TIMEOUT  # not a hung probe


@pytest.mark.django_db(transaction=True)
def test_ready_is_503_with_the_database_unreachable(client, monkeypatch, tmp_path):
    main = connections["default"]
    if main.vendor == "postgresql":
        monkeypatch.setitem(main.settings_dict, "PORT", str(free_port()))  # nothing listens there
    else:  # SQLite: a file in a folder that does not exist can't be opened
        monkeypatch.setitem(main.settings_dict, "NAME", str(tmp_path / "gone" / "db.sqlite3"))
    status, body = ready(client)
    assert status == 503
    assert body["status"] == "down" and body["checks"]["database"] == "down"
