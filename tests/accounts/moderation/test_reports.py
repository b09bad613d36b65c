"""The reports queue: open reports first, oldest first; each shows the message, the conversation
around it, the game and its players; a moderator resolves it with an outcome, recorded with who."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.moderation import reports
from accounts.moderation.audit import AuditLog
from accounts.moderation.models import Report
from accounts.users import sanctions
from games.core import selectors

from .conftest import logged_in, said

pytestmark = pytest.mark.django_db


def report(message, reporter, minutes_ago: int, reason="rude") -> Report:
    made = Report.objects.create(
        message=message, reported=message.user, game=message.game, reporter=reporter, reason=reason
    )
    Report.objects.filter(pk=made.pk).update(
        created=timezone.now() - timedelta(minutes=minutes_ago)
    )
    return made


def test_the_queue_lists_open_reports_first_oldest_first(room, player, moderator):
    game, victim = room
    old = report(said(game, player, "first insult", 50), victim, 40)
    new = report(said(game, player, "second insult", 30), victim, 20)
    done = report(said(game, player, "third insult", 90), victim, 80)
    reports.do_resolve_report(moderator, done, outcome=Report.Outcome.DISMISSED, reason="banter")
    page = logged_in(moderator).get(reverse("admin:accounts_report_changelist"))
    assert [r.pk for r in page.context["cl"].result_list] == [old.pk, new.pk, done.pk]


def test_a_report_shows_the_conversation_and_mutes_the_sender(room, player, moderator):
    game, victim = room
    said(game, victim, "good luck", 10)
    bad = said(game, player, "you are an idiot", 9)
    said(game, victim, "please stop", 8)
    entry = report(bad, victim, 5)
    client = logged_in(moderator)
    url = reverse("admin:accounts_report_change", args=[entry.pk])
    page = client.get(url).content.decode()
    for line in ("good luck", "you are an idiot", "please stop", "victim", "troll", game.pk):
        assert line in page
    answer = client.post(url, {"resolution": "muted", "duration": "24", "note": "Insults"})
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.is_muted and player.mute_reason == "Insults"
    assert sanctions.mute_notice(player).startswith("Muted until ")
    entry.refresh_from_db()
    assert (entry.outcome, entry.resolved_by, entry.note) == ("muted", moderator, "Insults")
    assert list(AuditLog.objects.values_list("action", flat=True).order_by("pk")) == [
        "mute",
        "resolve_report",
    ]
    # Resolved: the page shows the outcome and offers nothing more to do.
    resolved = client.get(url).content.decode()
    assert "Player muted" in resolved and 'name="resolution"' not in resolved


def test_a_mute_needs_a_duration_and_a_reason(room, player, moderator):
    game, victim = room
    entry = report(said(game, player, "spam spam", 3), victim, 1)
    client = logged_in(moderator)
    url = reverse("admin:accounts_report_change", args=[entry.pk])
    answer = client.post(url, {"resolution": "muted", "duration": "", "note": ""})
    assert answer.status_code == 200 and b"how long" in answer.content
    player.refresh_from_db()
    assert not player.is_muted
    entry.refresh_from_db()
    assert entry.is_open


def test_a_ban_from_the_queue_closes_every_report_of_that_message(room, player, moderator):
    game, victim = room
    bad = said(game, player, "threat", 3)
    first = report(bad, victim, 2)
    second = report(bad, moderator, 1)
    reports.do_resolve_report(moderator, first, outcome=Report.Outcome.BANNED, reason="Threats")
    player.refresh_from_db()
    assert player.is_banned and not player.is_active
    second.refresh_from_db()
    assert second.outcome == "banned" and second.resolved_by == moderator


def test_a_player_reports_a_player_from_their_profile_once(room, player, moderator):
    _, victim = room
    client = logged_in(victim)
    url = reverse("report_player", args=["troll"])
    for _ in range(2):
        answer = client.post(url, {"reason": "cheats and insults"}, follow=True)
        assert "a moderator will look at your report of troll" in answer.content.decode()
    [entry] = Report.objects.all()
    assert (entry.reported, entry.reporter, entry.message, entry.reason) == (
        player,
        victim,
        None,
        "cheats and insults",
    )
    assert "report-player" in client.get(reverse("profile", args=["troll"])).content.decode()
    refused = logged_in(player).post(reverse("report_player", args=["troll"]), {"reason": "me"})
    assert refused.status_code == 302 and Report.objects.count() == 1
    # It is in the queue, naming the player.
    page = logged_in(moderator).get(reverse("admin:accounts_report_change", args=[entry.pk]))
    assert "troll" in page.content.decode() and "cheats and insults" in page.content.decode()
    reports.do_resolve_report(
        moderator, entry, outcome=Report.Outcome.MUTED, reason="Rude", until=_soon()
    )
    player.refresh_from_db()
    assert player.is_muted


def _soon():
    return timezone.now() + timedelta(hours=1)


def test_strangers_cannot_report(room, player):
    answer = Client().post(reverse("report_player", args=["troll"]), {"reason": "x"})
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert not Report.objects.exists()


def test_hiding_a_reported_message_takes_it_out_of_the_chat(room, player, moderator):
    game, victim = room
    bad = said(game, player, "slur", 3)
    kept = said(game, victim, "hello", 4)
    entry = report(bad, victim, 1)
    client = logged_in(moderator)
    url = reverse("admin:accounts_report_change", args=[entry.pk])
    client.post(url, {"resolution": "hidden", "duration": "", "note": "Slur"})
    assert [m.pk for m in selectors.chat_messages(game)] == [kept.pk]
    bad.refresh_from_db()
    assert bad.hidden_by == moderator and bad.text == "slur"  # kept for the record
    entry.refresh_from_db()
    assert entry.outcome == "hidden"
    # A player report has no message: hiding is refused on the form, nothing changes.
    about_player = Report.objects.create(reported=player, reporter=victim, reason="rude")
    url = reverse("admin:accounts_report_change", args=[about_player.pk])
    answer = client.post(url, {"resolution": "hidden", "duration": "", "note": ""})
    assert answer.status_code == 200 and b"no message to hide" in answer.content
    about_player.refresh_from_db()
    assert about_player.is_open
