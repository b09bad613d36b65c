"""Timed mutes (the player is told until when and why, and may chat again when it ends), renames, the
user search by game, and the audit trail of every moderator action."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import bans, mutes, renames, reports
from accounts.moderation.audit import AuditLog
from accounts.moderation.chat import do_hide_message
from accounts.moderation.errors import ModerationError
from accounts.moderation.models import Report
from accounts.users import sanctions
from games import actions
from games.actions import chat, pauses
from games.core.errors import NotAllowed
from games.models import ChatMessage
from tests.games.webplay import everyone_here, friends_room, member

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def timed(settings, redis_client):
    settings.LUDOPAT_TEST_SEEDS = True
    settings.LUDOPAT_BOT_DELAY = 60


@pytest.fixture
def paused(django_user_model, player):
    """A timed room in a pause (its chat open): `victim` hosts, the troll plays."""
    victim = django_user_model.objects.create_user("victim")
    game = friends_room(member(victim), [member(player)], start=False)
    game.timer_seconds = 30
    game.save(update_fields=["timer_seconds"])
    everyone_here(game)
    actions.do_start(game.pk, member(victim))
    pauses.do_pause(game.pk, member(victim))
    return game


def test_a_timed_mute_refuses_chat_with_its_end_and_reason_then_ends(paused, player, moderator):
    until = timezone.now() + timedelta(hours=2)
    mutes.do_mute(moderator, player, until=until, reason="Spamming links")
    with pytest.raises(NotAllowed) as refused:
        chat.do_chat(paused.pk, member(player), "buy coins here")
    assert str(refused.value) == f"Muted until {sanctions.when(until)}: Spamming links"
    assert "UTC" in str(refused.value)
    assert not ChatMessage.objects.filter(user=player).exists()
    # The mute's time runs out: the player chats again, nobody has to lift it.
    type(player).objects.filter(pk=player.pk).update(
        muted_until=timezone.now() - timedelta(seconds=1)
    )
    assert chat.do_chat(paused.pk, member(player), "sorry").text == "sorry"
    [entry] = AuditLog.objects.filter(action="mute")
    assert entry.after["mute_reason"] == "Spamming links" and entry.before["muted_until"] is None


def test_the_admin_mute_action_and_unmute(player, moderator):
    client = logged_in(moderator)
    url = reverse("admin:accounts_user_changelist")
    form = {"_selected_action": [player.pk], "apply": "1"}
    client.post(url, {**form, "action": "mute", "duration": "1", "reason": "Caps lock"})
    player.refresh_from_db()
    assert player.is_muted and player.mute_reason == "Caps lock"
    assert timedelta(minutes=59) < player.muted_until - timezone.now() <= timedelta(hours=1)
    client.post(url, {**form, "action": "unmute", "reason": "Appeal"})
    player.refresh_from_db()
    assert not player.is_muted and sanctions.mute_notice(player) == ""


def test_the_admin_says_a_username_as_it_is_written(player, moderator, site_admin):
    """Django's admin capitalises the first letter of every message: "Troll: muted."."""
    client = logged_in(moderator)
    url = reverse("admin:accounts_user_changelist")
    form = {"_selected_action": [player.pk], "apply": "1"}
    answer = client.post(
        url, {**form, "action": "mute", "duration": "1", "reason": "Caps lock"}, follow=True
    )
    page = answer.content.decode()
    assert "troll: muted." in page and "Troll: muted." not in page
    index = logged_in(site_admin).get(reverse("admin:index")).content.decode()
    assert "Ledger entries" in index and "Ledger entrys" not in index


def test_rename_replaces_the_name_everywhere_it_is_shown(paused, player, moderator):
    chat.do_chat(paused.pk, member(player), "hello")
    logged_in(moderator).post(
        reverse("admin:accounts_user_changelist"),
        {"action": "rename", "_selected_action": [player.pk], "apply": "1",
         "username": "player123", "reason": "Offensive name"},
    )  # fmt: skip
    player.refresh_from_db()
    assert player.username == "player123"
    assert ChatMessage.objects.get(user=player).name == "player123"
    entry = AuditLog.objects.get(action="rename")
    assert (entry.before, entry.after) == ({"username": "troll"}, {"username": "player123"})
    with pytest.raises(ModerationError, match="taken"):
        renames.do_rename(moderator, player, new_username="VICTIM", reason="clash")


def test_users_are_found_by_a_game_they_played_and_never_deleted(paused, player, moderator):
    client = logged_in(moderator)
    found = client.get(reverse("admin:accounts_user_changelist"), {"q": paused.pk})
    names = {user.username for user in found.context["cl"].result_list}
    assert names == {"troll", "victim"}
    root = type(player).objects.create_superuser("root", password="pw-pw-pw-pw-pw")
    deleting = logged_in(root).post(
        reverse("admin:accounts_user_delete", args=[player.pk]), {"post": "yes"}
    )
    assert deleting.status_code == 403 and type(player).objects.filter(pk=player.pk).exists()


def test_every_moderator_action_is_in_the_audit_log(paused, player, moderator):
    message = chat.do_chat(paused.pk, member(player), "insult")
    report = Report.objects.create(
        message=message, reported=player, game=paused, reporter=paused.owner
    )
    soon = timezone.now() + timedelta(hours=1)
    mutes.do_mute(moderator, player, until=soon, reason="a")
    mutes.do_unmute(moderator, player, reason="b")
    do_hide_message(moderator, message, reason="c")
    reports.do_resolve_report(moderator, report, outcome=Report.Outcome.DISMISSED, reason="d")
    renames.do_rename(moderator, player, new_username="renamed", reason="e")
    bans.do_ban(moderator, player, reason="f")
    bans.do_unban(moderator, player, reason="g")
    entries = AuditLog.objects.order_by("pk")
    assert [(e.action, e.reason) for e in entries] == [
        ("mute", "a"),
        ("unmute", "b"),
        ("hide_message", "c"),
        ("resolve_report", "d"),
        ("rename", "e"),
        ("ban", "f"),
        ("unban", "g"),
    ]
    assert {e.moderator for e in entries} == {moderator}
    assert {e.user for e in entries} == {player}


def test_a_muted_player_sees_until_when_and_why_on_the_game_page(paused, player, moderator):
    mutes.do_mute(
        moderator, player, until=timezone.now() + timedelta(hours=3), reason="Spamming links"
    )
    page = logged_in(player).get(reverse("game", args=[paused.pk])).content.decode()
    assert 'data-testid="chat-muted"' in page and ": Spamming links" in page
    other = logged_in(paused.owner).get(reverse("game", args=[paused.pk])).content.decode()
    assert "chat-muted" not in other
