"""The session engine (ludopat/sessions.py): Django's database sessions with their read compiled once
per connection. A signed-in player stays signed in from request to request; a session past its expiry,
or one whose row is gone, reads as signed out; and the read compiles nothing after the first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db.models.sql.compiler import SQLCompiler
from django.test import Client
from django.utils import timezone

from ludopat.sessions import SessionStore
from tests.factories import accounts

pytestmark = pytest.mark.django_db


def signed_in() -> Client:
    (user,) = accounts("sessa")
    client = Client()
    client.force_login(user)
    return client


def test_a_signed_in_player_stays_signed_in_from_request_to_request():
    client = signed_in()
    for _ in range(3):
        assert client.get("/friends/").status_code == 200


def test_an_expired_or_missing_session_reads_as_signed_out():
    client = signed_in()
    key = client.cookies["sessionid"].value
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert client.get("/friends/").status_code == 302  # to the log-in page
    assert SessionStore(key).load() == {}
    stranger = Client()
    stranger.cookies["sessionid"] = "no-such-session-key-at-all-00000"
    assert stranger.get("/friends/").status_code == 302


def test_the_session_read_compiles_nothing_after_the_first(monkeypatch):
    client = signed_in()
    key = client.cookies["sessionid"].value
    assert SessionStore(key).load()  # compiled here
    compiled = []
    original = SQLCompiler.as_sql
    monkeypatch.setattr(
        SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(1) or original(self, *a, **k)
    )
    for _ in range(3):
        assert SessionStore(key).load()
    assert compiled == []
