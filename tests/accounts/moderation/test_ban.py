"""Bans: the player can't log in, their sessions end, their open pages are disconnected at once; an
unban (or the ban's end) lets them back in. Every step is in the audit log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import bans
from accounts.moderation.audit import AuditLog
from accounts.moderation.errors import ModerationError
from accounts.users.banned_sessions import BANNED_ACCOUNT
from accounts.users.sockets import CLOSED_BY_MODERATOR
from ludopat.asgi import application
from tests.games.test_consumers import session_for

from .conftest import PASSWORD, logged_in

HOST = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def can_log_in(username: str) -> bool:
    """Through the log-in page (django-axes wants the request)."""
    answer = Client().post(reverse("login"), {"username": username, "password": PASSWORD})
    return answer.status_code == 302


@pytest.mark.django_db
def test_a_ban_blocks_log_in_and_ends_sessions_and_an_unban_lifts_it(player, moderator):
    browser = logged_in(player)
    assert browser.get("/").context["user"].is_authenticated
    key = browser.session.session_key
    bans.do_ban(moderator, player, reason="Insults in chat")
    assert not can_log_in("troll")
    # The open session ended: it keeps only a note of the ban (its next page says why), nothing of
    # the log-in or the browser key.
    left = Session.objects.get(session_key=key).get_decoded()
    assert list(left) == [BANNED_ACCOUNT]
    assert not browser.get("/").context["user"].is_authenticated
    assert Client().get(reverse("profile", args=["troll"])).status_code == 404

    bans.do_unban(moderator, player, reason="Appeal accepted")
    assert can_log_in("troll")
    entries = AuditLog.objects.filter(user=player).order_by("pk")
    assert [(e.action, e.moderator, e.reason) for e in entries] == [
        ("ban", moderator, "Insults in chat"),
        ("unban", moderator, "Appeal accepted"),
    ]
    assert entries[0].before["is_active"] is True and entries[0].after["is_active"] is False


@pytest.mark.django_db
def test_a_timed_ban_ends_on_time(player, moderator, django_user_model):
    bans.do_ban(moderator, player, reason="Cool off", until=timezone.now() + timedelta(hours=1))
    assert not can_log_in("troll")
    django_user_model.objects.filter(pk=player.pk).update(
        banned_until=timezone.now() - timedelta(seconds=1)
    )
    assert can_log_in("troll")
    assert not django_user_model.objects.get(pk=player.pk).is_banned


@pytest.mark.django_db
def test_moderators_need_a_reason_and_cant_ban_staff_or_themselves(player, moderator, site_admin):
    with pytest.raises(ModerationError, match="reason"):
        bans.do_ban(moderator, player, reason="  ")
    with pytest.raises(ModerationError, match="staff"):
        bans.do_ban(moderator, site_admin, reason="Coup")
    with pytest.raises(ModerationError, match="own account"):
        bans.do_ban(moderator, moderator, reason="Oops")
    assert can_log_in("troll") and not AuditLog.objects.exists()


@pytest.mark.django_db
def test_the_admin_ban_action_asks_for_a_reason_then_bans(player, moderator):
    client = logged_in(moderator)
    url = reverse("admin:accounts_user_changelist")
    form = client.post(url, {"action": "ban", "_selected_action": [player.pk]})
    assert b"Reason" in form.content and can_log_in("troll")
    done = client.post(
        url,
        {"action": "ban", "_selected_action": [player.pk], "apply": "1", "reason": "Spam"},
        follow=True,
    )
    assert b"banned." in done.content
    assert not can_log_in("troll")
    assert AuditLog.objects.get(action="ban").reason == "Spam"


@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_players_open_pages_at_once(player, moderator, redis_client):
    channel_layers.backends.clear()  # a layer made in another test's event loop can't be reused
    key = await database_sync_to_async(session_for)(player)
    cookie = (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode())
    ws = WebsocketCommunicator(application, "/ws/online/", headers=[*HOST, cookie])
    assert (await ws.connect())[0]
    await ws.receive_from()  # the online count
    await database_sync_to_async(bans.do_ban)(moderator, player, reason="Threats")
    while True:
        message = await ws.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            break
    assert message["code"] == CLOSED_BY_MODERATOR
    await ws.disconnect()


@pytest.mark.django_db
def test_the_session_index_forgets_expired_sessions(player):
    from accounts.users.addresses import AccountSession

    first = logged_in(player)
    Session.objects.filter(session_key=first.session.session_key).delete()  # clearsessions did it
    second = logged_in(player)
    keys = set(AccountSession.objects.filter(user=player).values_list("session_key", flat=True))
    assert keys == {second.session.session_key}


@pytest.mark.django_db
def test_beat_lifts_timed_bans_that_ended(player, moderator, django_user_model):
    from accounts.tasks import lift_expired_bans

    other = django_user_model.objects.create_user("other", password=PASSWORD)
    bans.do_ban(moderator, player, reason="Cool off", until=timezone.now() + timedelta(hours=1))
    bans.do_ban(moderator, other, reason="For good")
    assert lift_expired_bans() == 0
    django_user_model.objects.filter(pk=player.pk).update(
        banned_until=timezone.now() - timedelta(seconds=1)
    )
    assert lift_expired_bans() == 1
    assert Client().get(reverse("profile", args=["troll"])).status_code == 200
    assert not django_user_model.objects.get(pk=other.pk).is_active
