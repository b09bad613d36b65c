"""Pages run only our own script files and stylesheets (a Content-Security-Policy forbids the rest, so
markup slipped into a page could not run), and session rows don't pile up for ever."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.tasks import clear_sessions
from games.models import Game
from ludopat.csp import POLICY

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_STYLE = re.compile(r"<style\b|\sstyle=", re.I)
INLINE_HANDLER = re.compile(r"\son[a-z]+=", re.I)


@pytest.fixture
def pages(client, django_user_model, redis_client) -> list[str]:
    player = django_user_model.objects.create_user("pat", password="lucky-six-66-pawns")
    client.force_login(player)
    setup = {"ruleset": "classic", "players": "2", "tokens": "4", "level_2": "greedy"}
    client.post("/games/new/computer/", setup)  # so the home page lists it under "Continue"
    game = Game.objects.get()
    urls = ["/", "/games/new/computer/", "/games/new/local/", "/rules/", "/rules/classic/",
            "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
            f"/games/{game.pk}/", f"/games/{game.pk}/verify/", f"/games/{game.pk}/replay/",
            f"/u/{player.username}/", "/no-such-page/", "/games/new/friends/"]  # fmt: skip
    return urls


def test_every_page_sends_a_policy_allowing_only_our_own_files(client, pages):
    for url in pages:
        response = client.get(url)
        assert response["Content-Security-Policy"] == POLICY, url
    assert "script-src 'self';" in POLICY and "style-src 'self';" in POLICY
    assert "unsafe" not in POLICY


def test_no_page_has_inline_script_style_or_handlers(client, pages):
    assert 'data-testid="continue-games"' in client.get("/").content.decode()
    for url in pages:
        html = client.get(url).content.decode()
        assert not INLINE_SCRIPT.search(html), (url, INLINE_SCRIPT.search(html))
        assert not INLINE_STYLE.search(html), (url, INLINE_STYLE.search(html))
        assert not INLINE_HANDLER.search(html), (url, INLINE_HANDLER.search(html))


def test_htmx_never_evaluates_code_from_the_page(client):
    html = client.get("/").content.decode()
    assert '<meta name="htmx-config" content=\'{"allowEval": false' in html


def test_expired_sessions_are_cleared_on_a_schedule(client):
    client.get("/")  # an anonymous visit writes a session row
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    live = Session.objects.create(
        session_key="x" * 32, session_data="", expire_date=timezone.now() + timedelta(days=1)
    )
    clear_sessions()
    assert list(Session.objects.all()) == [live]
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert any(entry["task"] == clear_sessions.name for entry in schedule.values())
