"""Pages open no new connection to Redis once the process has its own. A signed-in player's every page
asks whether their reports have news (through the site's client, ludopat.redis_clients), and the
rating board and others are kept in Django's cache, whose client is shared by the process
(ludopat.redis_cache). Django's own Redis cache made a client for each request context: under ASGI
each request's sync code runs in a thread of its own, as here, so every page opened a connection
and paid its handshake."""

from __future__ import annotations

import threading

import pytest
import redis.connection
from django.db import connections
from django.test import Client

from accounts.moderation.news import reporters_have_news

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def connects(monkeypatch) -> list[int]:
    """Every connection to Redis this process opens meanwhile."""
    opened: list[int] = []
    real = redis.connection.AbstractConnection.connect

    def counted(self, *args, **kwargs):
        if self._sock is None:
            opened.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", counted)
    return opened


def page(client: Client, url: str) -> int:
    """`client` GETs `url` from a thread of its own, as an ASGI server runs a request's sync code"""
    status: list[int] = []

    def get() -> None:
        try:
            status.append(client.get(url).status_code)
        finally:
            connections.close_all()  # the thread's database connection, back to the pool

    worker = threading.Thread(target=get)
    worker.start()
    worker.join()
    return status[0]


@pytest.mark.parametrize("url", ["/rules/", "/leaderboard/"])
def test_pages_open_no_new_redis_connection(
    url, django_user_model, redis_client, connects, django_capture_on_commit_callbacks
):
    user = django_user_model.objects.create_user("reed")
    client = Client()
    client.force_login(user)
    for _ in range(2):  # the first pages open what the process keeps
        assert page(client, url) == 200
    with django_capture_on_commit_callbacks(execute=True):
        reporters_have_news([user.pk])  # news: the page reads it and takes the mark
    connects.clear()
    for _ in range(5):
        assert page(client, url) == 200
    assert connects == []
    assert redis_client.get(f"desk:reports-news:{user.pk}") is None  # taken by the first page
